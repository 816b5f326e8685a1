package io.layoutbench.layouts.l3;

import static io.layoutbench.layouts.l3.L3Fixture.DATA;
import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.parquet.testing.DuckDb;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The paper's L3 SQL runs unchanged in DuckDB on the part files and returns what the generator says. */
class L3DuckDbTest {

    @TempDir
    Path dir;

    private Connection duckdb;
    private List<Path> parts;

    @BeforeEach
    void downloadPartsAndConnect() throws Exception {
        MemoryBackend backend = L3Fixture.backend();
        parts = new ArrayList<>();
        for (ManifestObject object : DatasetManifest.read(backend, L3Fixture.PREFIX).objects()) {
            Path file = dir.resolve(object.key().substring(object.key().lastIndexOf('/') + 1));
            Files.write(file, L3Fixture.toArray(backend.readAll(object.key())));
            parts.add(file);
        }
        duckdb = DuckDb.connect(dir);
    }

    @AfterEach
    void disconnect() throws SQLException {
        duckdb.close();
    }

    /** "filename:size:crc" of each row of the query's first two columns (filename, image_bytes). */
    private List<String> query(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement statement = duckdb.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(L3Fixture.fingerprint(result.getString(1), ByteBuffer.wrap(result.getBytes(2))));
            }
        }
        return rows;
    }

    private static String path(Path file) {
        return file.toString().replace("'", "''");
    }

    @Test
    void q3OnEachPartFileReturnsTheCellos() throws SQLException {
        List<String> rows = new ArrayList<>();
        for (Path part : parts) {
            // The paper's Q3 for L3, verbatim but for the path.
            rows.addAll(query("SELECT filename, image_bytes FROM read_parquet('" + path(part)
                    + "') WHERE label = 'cello'"));
        }
        assertThat(rows).isNotEmpty().containsExactlyInAnyOrderElementsOf(
                L3Fixture.expected(Query.parse("label = 'cello'")));
    }

    @Test
    void q8CastQueryOverAllPartsReturnsTheWideImages() throws SQLException {
        String files = String.join(", ", parts.stream().map(p -> "'" + path(p) + "'").toList());
        List<String> rows = query("SELECT filename, image_bytes FROM read_parquet([" + files + "]) "
                + "WHERE CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5");
        List<String> expected = L3Fixture.expected(
                Query.parse("CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5"));
        assertThat(expected).hasSizeGreaterThan(50);
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void everyRowIsThere() throws SQLException {
        String files = String.join(", ", parts.stream().map(p -> "'" + path(p) + "'").toList());
        try (Statement statement = duckdb.createStatement();
             ResultSet result = statement.executeQuery("SELECT count(*), sum(octet_length(image_bytes)), "
                     + "sum(filesize_bytes) FROM read_parquet([" + files + "])")) {
            result.next();
            assertThat(result.getLong(1)).isEqualTo(DATA.size());
            assertThat(result.getLong(2)).isEqualTo(DATA.totalBytes()).isEqualTo(result.getLong(3));
        }
    }
}
