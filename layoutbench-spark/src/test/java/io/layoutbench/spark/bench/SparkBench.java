package io.layoutbench.spark.bench;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.datasets.ingest.ImageFolderSource;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.spark.SparkBenchSupport;
import io.layoutbench.spark.examples.SparkIngestExample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * The Spark figures of docs/SPARK.md, side by side in one run: an image folder ingested into a layout by the
 * library in one JVM (one thread) and by Spark on 1 and 2 cores (beside Spark's own part of it, and the write alone
 * from rows cached in memory); then filtered reads through Spark against the same
 * queries through the library, in bytes received (manifest, metadata and data; Spark's tasks as its scan metric
 * counts them, plus the driver's planning, which opens the dataset and prepares the query once).
 *
 * <pre>{@code
 * scripts/spark-run io.layoutbench.spark.bench.SparkBench [tiny|mini] [l2,l3] [work-dir] [reads]
 * }</pre>
 */
public final class SparkBench {

    private static final List<String> QUERIES = List.of("label = 'cello'", "width >= 1024 AND height >= 1024",
            "filesize_bytes >= 500 * 1024", "CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5", "TRUE");

    /** Timed rounds of each ingest; the best is reported (these machines are noisy). */
    private static final int ROUNDS = 2;

    private SparkBench() {
    }

    public static void main(String[] args) throws IOException {
        ImageNetScale scale = ImageNetScale.fromName(args.length > 0 ? args[0] : "tiny");
        List<String> layouts = List.of((args.length > 1 ? args[1] : "l2,l3").split(","));
        Path work = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("layoutbench-spark-bench-");
        Path folder = work.resolve("images");
        if (!Files.isDirectory(folder)) {
            SparkIngestExample.writeFolder(scale, folder);
        }
        long bytes = folderBytes(folder);
        System.out.printf(Locale.ROOT, "Image folder: %s scale, %s, %.1f MB%n%n", scale.scaleName(), folder,
                bytes / 1e6);
        System.out.println("| layout | ingest | seconds | samples/s | MB/s | vs library |");
        System.out.println("|---|---|---:|---:|---:|---:|");
        boolean readsOnly = args.length > 3 && args[3].equals("reads");   // the datasets of an earlier run
        for (String layout : readsOnly ? List.<String>of() : layouts) {
            String backend = "file:" + work.resolve("store-" + layout).toAbsolutePath();
            double library = Double.MAX_VALUE;
            for (int round = 0; round < ROUNDS; round++) {
                library = Math.min(library, libraryIngest(folder, backend, layout));
            }
            row(layout, "library, one JVM", library, scale.sampleCount(), bytes, library);
            for (int cores : new int[] {1, 2}) {
                double[] times = sparkIngest(folder, backend, layout, cores);
                row(layout, "Spark local[" + cores + "]", times[1], scale.sampleCount(), bytes, library);
                row(layout, "Spark local[" + cores + "]: files and headers only (noop sink)", times[0],
                        scale.sampleCount(), bytes, library);
                row(layout, "Spark local[" + cores + "]: the write alone, rows cached in memory", times[2],
                        scale.sampleCount(), bytes, library);
            }
        }
        System.out.println();
        System.out.println("| layout | query | samples | tasks | Spark bytes (tasks + driver) | library bytes "
                + "| ratio |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|");
        try (SparkSession spark = session(2)) {
            for (String layout : layouts) {
                String backend = "file:" + work.resolve("store-" + layout).toAbsolutePath();
                for (String where : QUERIES) {
                    Dataset<Row> read = spark.read().format("layoutbench").option("layout", layout)
                            .option("backend", backend).load("spark/" + layout).filter(where)
                            .select("filename", "data");
                    // Every sample's bytes reach Spark (their total is summed), but only two numbers the driver.
                    Dataset<Row> counted = read.agg(functions.count(functions.lit(1)),
                            functions.sum(functions.length(functions.col("data"))));
                    long samples = counted.collectAsList().get(0).getLong(0);
                    long tasks = SparkBenchSupport.bytesRead(counted);
                    long driver = SparkBenchSupport.planningBytes(backend, layout, "spark/" + layout, where);
                    long library = SparkBenchSupport.libraryBytes(backend, layout, "spark/" + layout, where,
                            QueryOptions.defaults().withFields(List.of(Sample.DATA)));
                    System.out.printf(Locale.ROOT, "| %s | `%s` | %,d | %d | %,d + %,d | %,d | %.3f |%n", layout,
                            where, samples, read.rdd().getNumPartitions(), tasks, driver, library,
                            (tasks + driver) / (double) library);
                }
            }
        }
    }

    private static void row(String layout, String how, double seconds, long samples, long bytes, double library) {
        System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %,.0f | %.1f | %.2fx |%n", layout, how, seconds,
                samples / seconds, bytes / 1e6 / seconds, library / seconds);
    }

    /** The library's own folder ingest: {@link ImageFolderSource} into the layout's writer, one thread. */
    private static double libraryIngest(Path folder, String backend, String layout) {
        long start = System.nanoTime();
        try (ObjectBackend store = ObjectBackends.open(backend)) {
            ImageFolderSource source = ImageFolderSource.open(folder);
            try (DatasetWriter writer = StorageLayouts.get(layout).create(store, "library/" + layout,
                    source.schema(), java.util.Map.of());
                    Stream<Sample> samples = source.samples()) {
                samples.forEach(writer::add);
                DatasetSummary summary = writer.commit();
                if (summary.sampleCount() == 0) {
                    throw new IllegalStateException("No sample ingested from " + folder);
                }
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * Spark on {@code cores} cores, the best of {@link #ROUNDS} rounds each, in one session warmed by a first round:
     * the same pipeline into Spark's no-op sink (what Spark's side costs: listing and reading the files, the headers,
     * rows), the example's ingest (folder to dataset), and the write alone from the rows cached in memory (what the
     * layoutbench sink costs). Returns {no-op, ingest, from cache} seconds.
     */
    private static double[] sparkIngest(Path folder, String backend, String layout, int cores) throws IOException {
        try (SparkSession spark = session(cores)) {
            SparkIngestExample.images(spark, folder).write().format("noop").mode("overwrite").save();   // warm-up
            Dataset<Row> cached = SparkIngestExample.images(spark, folder).cache();
            cached.count();
            double[] best = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
            for (int round = 0; round < ROUNDS; round++) {
                long start = System.nanoTime();
                SparkIngestExample.images(spark, folder).write().format("noop").mode("overwrite").save();
                best[0] = Math.min(best[0], (System.nanoTime() - start) / 1e9);
                start = System.nanoTime();
                SparkIngestExample.ingest(spark, folder, backend, "spark/" + layout, layout);
                best[1] = Math.min(best[1], (System.nanoTime() - start) / 1e9);
                start = System.nanoTime();
                cached.write().format("layoutbench").option("layout", layout).option("backend", backend)
                        .mode("overwrite").save("cached/" + layout);
                best[2] = Math.min(best[2], (System.nanoTime() - start) / 1e9);
            }
            cached.unpersist();
            return best;
        }
    }

    private static SparkSession session(int cores) {
        return SparkSession.builder().master("local[" + cores + "]").appName("layoutbench bench")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.adaptive.enabled", "false")
                .getOrCreate();
    }

    private static long folderBytes(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
