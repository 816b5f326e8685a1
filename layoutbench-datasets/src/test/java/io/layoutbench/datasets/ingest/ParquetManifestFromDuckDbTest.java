package io.layoutbench.datasets.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.parquet.testing.DuckDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A Parquet manifest as DuckDB writes it (Snappy pages by default, ZSTD or GZIP) reads as an uncompressed one. */
class ParquetManifestFromDuckDbTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"snappy", "zstd", "gzip", "uncompressed"})
    void aCompressedManifestIsReadWithItsTypes(String codec) throws Exception {
        for (int i = 0; i < 3; i++) {
            Files.write(dir.resolve("clip" + i + ".wav"), new byte[100 + i]);
        }
        Path manifest = dir.resolve("clips-" + codec + ".parquet");
        try (Connection duckdb = DuckDb.connect(dir); Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (SELECT 'clip' || i || '.wav' AS path, i * 7 AS speaker, i / 2.0 AS seconds, "
                    + "i % 2 = 0 AS clean, CASE WHEN i = 1 THEN NULL ELSE 'word ' || i END AS transcript "
                    + "FROM range(3) t(i)) TO '" + manifest + "' (FORMAT parquet, COMPRESSION " + codec + ")");
        }
        ManifestSource source = ManifestSource.open(manifest);
        assertThat(source.schema().columns()).extracting(c -> c.name() + ":" + c.type()).containsExactly(
                "filename:STRING", "speaker:BIGINT", "seconds:DOUBLE", "clean:BOOLEAN", "transcript:STRING",
                "filesize_bytes:BIGINT");
        try (Stream<Sample> samples = source.samples()) {
            List<Sample> all = samples.toList();
            assertThat(all).hasSize(3);
            MetadataRow second = all.get(1).metadata();
            assertThat(second.values()).containsExactly("clip1.wav", 7L, 0.5, false, null, 101L);
            assertThat(all.get(2).data().remaining()).isEqualTo(102);
            assertThat(source.schema().column("seconds").type()).isEqualTo(ColumnType.DOUBLE);
        }
    }
}
