package io.layoutbench.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.parquet.testing.DuckDb;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DuckDB reads what {@link ParquetTableWriter} writes, with the LayoutBench paper's SQL. */
class DuckDbInteropTest {

    private static final int ROWS = 2000;

    @TempDir
    Path dir;

    private Connection duckdb;

    @BeforeEach
    void connect() throws SQLException {
        duckdb = DuckDb.connect(dir);
    }

    @AfterEach
    void disconnect() throws SQLException {
        duckdb.close();
    }

    private List<List<Object>> query(String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = duckdb.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet result = statement.executeQuery()) {
                List<List<Object>> rows = new ArrayList<>();
                int columns = result.getMetaData().getColumnCount();
                while (result.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int c = 1; c <= columns; c++) {
                        row.add(result.getObject(c));
                    }
                    rows.add(row);
                }
                return rows;
            }
        }
    }

    private static String sqlPath(Path file) {
        return file.toString().replace("'", "''");
    }

    @Test
    void answersThePapersL1QueryOnTheMetadataTable() throws SQLException {
        Path file = TestTables.writeL1(dir, ROWS, ParquetWriteOptions.defaults().withRowGroupSize(32 << 10));
        Set<String> streetcars = new HashSet<>();
        for (int row = 0; row < ROWS; row++) {
            if (TestTables.label(row).equals("streetcar")) {
                streetcars.add(TestTables.filename(row));
            }
        }

        List<List<Object>> first = query("SELECT filename FROM read_parquet('" + sqlPath(file)
                + "') WHERE human_label = 'streetcar' LIMIT 1");
        assertThat(first).hasSize(1);
        assertThat(streetcars).contains((String) first.get(0).get(0));

        List<List<Object>> all = query("SELECT filename FROM read_parquet('" + sqlPath(file)
                + "') WHERE human_label = 'streetcar'");
        assertThat(all).extracting(row -> (String) row.get(0)).containsExactlyInAnyOrderElementsOf(streetcars);

        List<List<Object>> described = query("DESCRIBE SELECT * FROM read_parquet('" + sqlPath(file) + "')");
        Map<String, String> types = new LinkedHashMap<>();
        described.forEach(row -> types.put((String) row.get(0), (String) row.get(1)));
        assertThat(types).containsExactly(Map.entry("filename", "VARCHAR"), Map.entry("human_label", "VARCHAR"),
                Map.entry("filesize_bytes", "BIGINT"), Map.entry("width", "BIGINT"), Map.entry("height", "BIGINT"));

        List<List<Object>> nulls = query("SELECT count(*) FROM read_parquet('" + sqlPath(file)
                + "') WHERE height IS NULL");
        assertThat(((Number) nulls.get(0).get(0)).longValue()).isEqualTo(ROWS / 50);
    }

    @Test
    void answersThePapersL3QueriesOnTheBlobTable() throws SQLException {
        Path file = TestTables.writeL3(dir, ROWS, ParquetWriteOptions.defaults().withRowGroupSize(256 << 10)
                .withPageSize(8 << 10));
        Set<String> wideTench = new HashSet<>();
        for (int row = 0; row < ROWS; row++) {
            boolean hasHeight = row % 50 != 49;
            if (TestTables.label(row).equals("tench") && hasHeight
                    && (double) TestTables.width(row) / (double) TestTables.height(row) > 1.5) {
                wideTench.add(TestTables.filename(row));
            }
        }
        assertThat(wideTench).hasSizeGreaterThan(5);

        List<List<Object>> first = query("SELECT filename FROM read_parquet('" + sqlPath(file)
                + "') WHERE label = 'tench' LIMIT 1");
        assertThat(first).hasSize(1);
        assertThat(TestTables.label(rowOf((String) first.get(0).get(0)))).isEqualTo("tench");

        List<List<Object>> wide = query("SELECT filename FROM read_parquet('" + sqlPath(file)
                + "') WHERE label = 'tench' AND CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5");
        assertThat(wide).extracting(row -> (String) row.get(0)).containsExactlyInAnyOrderElementsOf(wideTench);

        // Blob identity through DuckDB: each row's image_bytes are that row's bytes.
        for (int row : new int[] {0, 1, 777, ROWS - 1}) {
            List<List<Object>> blob = query("SELECT image_bytes FROM read_parquet('" + sqlPath(file)
                    + "') WHERE filename = ?", TestTables.filename(row));
            assertThat(blob).hasSize(1);
            assertThat(blobBytes(blob.get(0).get(0))).as("image_bytes of row %d", row)
                    .isEqualTo(TestTables.blob(row));
        }
    }

    @Test
    void readsExtraColumnsWithTheirTypes() throws SQLException {
        ParquetTableSchema schema = ParquetTableSchema.builder(MetadataSchema.imageNet())
                .rename("label", "human_label")
                .extraColumn("shard", ColumnType.STRING)
                .extraColumn("data_offset", ColumnType.BIGINT)
                .extraColumn("data_size", ColumnType.BIGINT)
                .build();
        Path file = dir.resolve("l2.parquet");
        try (ParquetTableWriter writer = ParquetTableWriter.create(schema, file, ParquetWriteOptions.defaults())) {
            for (int row = 0; row < 100; row++) {
                writer.write(TestTables.metadata(row), List.of(String.format("shard-%05d.tar", row / 10),
                        512L * (row % 10), (long) TestTables.blobSize(row)), null);
            }
        }
        List<List<Object>> located = query("SELECT shard, data_offset, data_size FROM read_parquet('"
                + sqlPath(file) + "') WHERE filename = ?", TestTables.filename(42));
        assertThat(located).containsExactly(List.of("shard-00004.tar", 1024L, (long) TestTables.blobSize(42)));
    }

    private static int rowOf(String filename) {
        return Integer.parseInt(filename.substring(filename.indexOf('_') + 1, filename.indexOf('.')));
    }

    private static byte[] blobBytes(Object value) throws SQLException {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof java.sql.Blob blob) {
            return blob.getBytes(1, (int) blob.length());
        }
        if (value instanceof java.nio.ByteBuffer buffer) {
            return TestTables.bytes(buffer);
        }
        throw new AssertionError("Unexpected BLOB value type " + value.getClass());
    }
}
