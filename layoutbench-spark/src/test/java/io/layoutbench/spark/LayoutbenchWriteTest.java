package io.layoutbench.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.encoders.RowEncoder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** DataFrames written as layoutbench datasets by Spark tasks: round trips, retries, failures, other readers. */
class LayoutbenchWriteTest {

    private static org.apache.spark.sql.Dataset<Row> tinyL3() {
        return LocalSpark.read("l3");
    }

    private static void write(org.apache.spark.sql.Dataset<Row> rows, String layout, String prefix) {
        org.apache.spark.sql.DataFrameWriter<Row> writer = rows.write().format("layoutbench").option("layout", layout)
                .option("backend", LocalSpark.backend()).mode("overwrite");
        if (layout.equals("l2")) {
            writer = writer.option("shard-size", "4MB");   // a layout option: several shards a task
        }
        writer.save(prefix);
    }

    /** Each test writes below a prefix of its own; deleted after it, as the datasets take up to 0.5 GB. */
    @AfterEach
    void deleteWhatTheTestWrote() {
        for (String prefix : List.of("roundtrip", "retried", "failed", "whole", "duck")) {
            LocalSpark.deleteBelow(prefix);
        }
    }

    /** Every key below {@code prefix} in the test backend. */
    private static List<String> keys(String prefix) {
        try (ObjectBackend backend = ObjectBackends.open(LocalSpark.backend());
                Stream<ObjectInfo> listing = backend.list(prefix + "/")) {
            return listing.map(ObjectInfo::key).toList();
        }
    }

    /**
     * The tiny dataset read from l3 and written by three tasks into every layout reads back as the same rows, in
     * Spark and in the library, and keeps {@code human_label}, so the paper's queries still run on it.
     */
    @Test
    void theTinyDatasetRoundTripsInEveryLayout() {
        org.apache.spark.sql.Dataset<Row> source = tinyL3().repartition(3);
        for (String layout : LocalSpark.LAYOUTS) {
            String prefix = "roundtrip/" + layout;
            source.write().format("layoutbench").option("layout", layout).option("backend", LocalSpark.backend())
                    .mode("overwrite").save(prefix);
            org.apache.spark.sql.Dataset<Row> back = LocalSpark.read(layout, prefix);
            assertThat(back.count()).as(layout).isEqualTo(LocalSpark.TINY_SAMPLES);
            assertThat(back.exceptAll(tinyL3()).count()).as(layout + ": rows not in the source").isZero();
            assertThat(tinyL3().exceptAll(back).count()).as(layout + ": source rows not written").isZero();
            try (ObjectBackend backend = ObjectBackends.open(LocalSpark.backend());
                    Dataset dataset = StorageLayouts.get(layout).open(backend, prefix)) {
                assertThat(dataset.summary().sampleCount()).isEqualTo(LocalSpark.TINY_SAMPLES);
                long cellos = 0;
                try (SampleStream samples = dataset.query(Query.parse("human_label = 'cello'"),
                        QueryOptions.defaults())) {
                    for (; samples.hasNext(); samples.next()) {
                        cellos++;
                    }
                }
                assertThat(cellos).as(layout + ": the paper's Q3 by the library").isEqualTo(4);
            }
        }
    }

    /** A task that fails mid-partition and is retried writes its samples once. */
    @Test
    void aRetriedTaskWritesItsSamplesOnce() {
        org.apache.spark.sql.Dataset<Row> source = tinyL3().repartition(3);
        org.apache.spark.sql.Dataset<Row> flaky = source.map((MapFunction<Row, Row>) row -> {
            TaskContext task = TaskContext.get();
            if (task.partitionId() == 1 && task.attemptNumber() == 0 && row.getString(0).hashCode() % 7 == 0) {
                throw new IllegalStateException("a first attempt dies mid-partition");
            }
            return row;
        }, RowEncoder.encoderFor(source.schema()));
        for (String layout : List.of("l1", "l2", "l3")) {
            write(flaky, layout, "retried/" + layout);
            org.apache.spark.sql.Dataset<Row> back = LocalSpark.read(layout, "retried/" + layout);
            assertThat(back.count()).as(layout).isEqualTo(LocalSpark.TINY_SAMPLES);
            assertThat(back.select("filename").distinct().count()).as(layout).isEqualTo(LocalSpark.TINY_SAMPLES);
        }
    }

    /**
     * A job that fails leaves nothing, and the dataset before it whole: a task that fails for good (a sample name that
     * is not a relative path), and a commit that refuses (one name in two partitions).
     */
    @Test
    void aFailedJobLeavesNothingAndTheDatasetBeforeIt() {
        org.apache.spark.sql.Dataset<Row> small = tinyL3().limit(40).repartition(2);
        for (String layout : List.of("l1", "l2", "l3")) {
            String prefix = "failed/" + layout;
            assertThatThrownBy(() -> write(small.selectExpr("'../escape.png' AS filename", "label", "filesize_bytes",
                    "width", "height", "data"), layout, prefix)).as(layout + ": a bad name");
            assertThat(keys(prefix)).as(layout + ": left by a job whose task failed").isEmpty();
            write(small, layout, prefix);
            List<String> before = keys(prefix);
            org.apache.spark.sql.Dataset<Row> twice = small.union(small.limit(1)).repartition(2);
            assertThatThrownBy(() -> write(twice, layout, prefix)).as(layout + ": a name twice")
                    .hasStackTraceContaining("as an earlier sample of the dataset is");
            assertThat(keys(prefix)).as(layout + ": after a refused commit")
                    .containsExactlyInAnyOrderElementsOf(before);
            assertThat(LocalSpark.read(layout, prefix).count()).isEqualTo(40);
        }
    }

    /** Append writes where nothing is and refuses to add to a dataset; Spark's default mode is refused by Spark. */
    @Test
    void aDatasetIsWrittenWhole() {
        org.apache.spark.sql.Dataset<Row> small = tinyL3().limit(10);
        small.write().format("layoutbench").option("layout", "l2").option("backend", LocalSpark.backend())
                .mode("append").save("whole/l2");
        assertThat(LocalSpark.read("l2", "whole/l2").count()).isEqualTo(10);
        assertThatThrownBy(() -> small.write().format("layoutbench").option("layout", "l2")
                .option("backend", LocalSpark.backend()).mode("append").save("whole/l2"))
                .hasStackTraceContaining("not appended to");
        assertThatThrownBy(() -> small.write().format("layoutbench").option("layout", "l2")
                .option("backend", LocalSpark.backend()).save("whole/l2"));
        assertThatThrownBy(() -> small.selectExpr("filename", "array(width) AS sizes", "data").write()
                .format("layoutbench").option("layout", "l2").option("backend", LocalSpark.backend())
                .mode("overwrite").save("whole/l2")).hasStackTraceContaining("Column 'sizes' has type array<bigint>");
        assertThat(LocalSpark.read("l2", "whole/l2").count()).isEqualTo(10);
    }

    /** DuckDB reads the metadata Spark wrote with the paper's SQL: l2's one metadata table, l3's part files. */
    @Test
    void duckDbReadsTheWrittenMetadata() throws Exception {
        org.apache.spark.sql.Dataset<Row> source = tinyL3().repartition(3);
        write(source, "l2", "duck/l2");
        write(source, "l3", "duck/l3");
        Path root = LocalSpark.directory();
        Path l2Table;
        try (Stream<Path> files = Files.walk(root.resolve("duck/l2"))) {
            l2Table = files.filter(p -> p.getFileName().toString().equals("metadata.parquet")).findFirst()
                    .orElseThrow();
        }
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement sql = duck.createStatement()) {
            try (ResultSet rows = sql.executeQuery("SELECT count(*), count(DISTINCT shard), sum(data_size) FROM '"
                    + l2Table + "' WHERE human_label = 'cello'")) {
                rows.next();
                assertThat(rows.getLong(1)).as("l2 cellos").isEqualTo(4);
                assertThat(rows.getLong(3)).as("l2 cellos' bytes").isPositive();
            }
            try (ResultSet rows = sql.executeQuery("SELECT count(*) FROM read_parquet('" + root.resolve("duck/l3")
                    + "/*/*/part-*.parquet') WHERE label = 'cello'")) {
                rows.next();
                assertThat(rows.getLong(1)).as("l3 cellos").isEqualTo(4);
            }
        }
    }
}
