package io.layoutbench.spark;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What the Spark tests share: one local session for the JVM ({@code local[2,4]}: two cores, a failed task retried up
 * to three times, everything on 127.0.0.1, adaptive execution off so the scan's metrics are in the plan as run), and
 * the tiny synthetic ImageNet written once by the library in every layout to a file backend, in a temporary directory
 * that the tests write their own datasets below (deleted after each test) and that is deleted when the JVM exits.
 */
final class LocalSpark {

    /** Layouts the tests cover. */
    static final List<String> LAYOUTS = List.of("l1", "l2", "l3", "fac");
    /** Samples of the tiny dataset. */
    static final long TINY_SAMPLES = 1030;

    private static SparkSession session;
    private static Path directory;

    private LocalSpark() {
    }

    /** The session, started on first use. */
    static synchronized SparkSession session() {
        if (session == null || session.sparkContext().isStopped()) {   // an example's main stops its session
            session = SparkSession.builder().master("local[2,4]").appName("layoutbench-tests")
                    .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.adaptive.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "4").getOrCreate();
        }
        return session;
    }

    /** The file backend's directory, with the tiny dataset at {@code tiny/<layout>} in every layout. */
    static synchronized Path directory() {
        if (directory == null) {
            try {
                directory = Files.createTempDirectory("layoutbench-spark-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Path created = directory;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(created), "delete " + created));
            try (ObjectBackend store = ObjectBackends.open(backend())) {
                for (String layout : LAYOUTS) {
                    try (DatasetWriter writer = StorageLayouts.get(layout).create(store, "tiny/" + layout,
                            tiny().schema(), Map.of())) {
                        tiny().iterator().forEachRemaining((Sample s) -> writer.add(s));
                        writer.commit();
                    }
                }
            }
        }
        return directory;
    }

    /** Deletes what the file backend holds below {@code prefix} (a test's own datasets), if anything. */
    static void deleteBelow(String prefix) {
        Path root = directory().resolve(prefix);
        if (Files.exists(root)) {
            deleteTree(root);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            System.err.println("Could not delete the Spark tests' directory " + root + ": " + e);
        }
    }

    /** The file backend's URI. */
    static String backend() {
        return "file:" + directory().toAbsolutePath();
    }

    static SyntheticImageNet tiny() {
        return SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
    }

    /** The tiny dataset in {@code layout}, read through Spark in tasks of 8 MiB. */
    static Dataset<Row> read(String layout) {
        return read(layout, "tiny/" + layout);
    }

    /** The dataset at {@code prefix} in {@code layout}, read through Spark in tasks of 8 MiB. */
    static Dataset<Row> read(String layout, String prefix) {
        return session().read().format("layoutbench").option("layout", layout).option("backend", backend())
                .option("partition-bytes", String.valueOf(8L << 20)).load(prefix);
    }

    /** The sum of a scan metric ({@link ReadMetrics}) over the scans of {@code executed}'s plan, once it ran. */
    static long metric(Dataset<Row> executed, String name) {
        SparkPlan plan = executed.queryExecution().executedPlan();
        long sum = 0;
        for (SparkPlan node : CollectionConverters.asJava(plan.collectLeaves())) {
            scala.Option<SQLMetric> metric = node.metrics().get(name);
            if (metric.isDefined()) {
                sum += metric.get().value();
            }
        }
        return sum;
    }
}
