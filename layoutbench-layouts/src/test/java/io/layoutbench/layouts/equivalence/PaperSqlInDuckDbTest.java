package io.layoutbench.layouts.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.paper.PaperQuery;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.parquet.testing.DuckDb;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The paper's appendix SQL, unchanged but for the file path, runs in DuckDB against the metadata tables L1 and L2
 * write, and selects the same samples as the layouts' own evaluator (and the generator).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PaperSqlInDuckDbTest {

    private static final SyntheticImageNet DATA = SyntheticImageNet.of(ImageNetScale.TINY, 11, false);

    private Connection duckdb;
    private String l1Metadata;
    private String l2Metadata;

    @BeforeAll
    void ingestAndConnect(@TempDir Path dir) throws Exception {
        try (FileBackend backend = new FileBackend(dir.resolve("store"))) {
            for (String layout : List.of("l1", "l2")) {
                try (DatasetWriter writer = StorageLayouts.get(layout).create(backend, layout,
                        MetadataSchema.imageNet(), Map.of())) {
                    DATA.samples().forEach(writer::add);
                    writer.commit();
                }
            }
            l1Metadata = dir.resolve("store").resolve(
                    DatasetManifest.read(backend, "l1").properties().get("metadata.key")).toString();
            l2Metadata = dir.resolve("store").resolve(
                    DatasetManifest.read(backend, "l2").properties().get("metadata.key")).toString();
        }
        duckdb = DuckDb.connect(dir);
    }

    @AfterAll
    void disconnect() throws Exception {
        duckdb.close();
    }

    List<PaperQuery> queries() {
        return PaperQueries.forScale("tiny");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void theL1AndL2SqlOfTheAppendixSelectTheSameSamples(PaperQuery query) throws Exception {
        List<String> expected = expected(query);
        // The appendix: SELECT filename FROM read_parquet('{CLI_METADATA_L1_PATH}') WHERE <predicate> [LIMIT N]
        assertThat(filenames("SELECT filename FROM read_parquet('" + l1Metadata + "') WHERE " + query.sql()))
                .containsExactlyElementsOf(expected);
        // L2 selects the byte-range triplet too.
        List<String> l2 = new ArrayList<>();
        try (Statement statement = duckdb.createStatement();
             ResultSet rows = statement.executeQuery("SELECT filename, shard, data_offset, data_size FROM "
                     + "read_parquet('" + l2Metadata + "') WHERE " + query.sql())) {
            while (rows.next()) {
                assertThat(rows.getString("shard")).endsWith(".tar");
                assertThat(rows.getLong("data_offset") % 512).isZero();
                assertThat(rows.getLong("data_size")).isPositive();
                l2.add(rows.getString(1));
            }
        }
        assertThat(l2).containsExactlyElementsOf(expected);
    }

    private List<String> filenames(String sql) throws Exception {
        List<String> names = new ArrayList<>();
        try (Statement statement = duckdb.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }

    private static List<String> expected(PaperQuery query) {
        BoundQuery bound = query.bind(MetadataSchema.imageNet());
        long limit = bound.limit().orElse(Long.MAX_VALUE);
        List<String> names = new ArrayList<>();
        for (long i = 0; i < DATA.size() && names.size() < limit; i++) {
            if (bound.test(DATA.metadata(i))) {
                names.add(DATA.metadata(i).getString(MetadataSchema.FILENAME));
            }
        }
        return names;
    }
}
