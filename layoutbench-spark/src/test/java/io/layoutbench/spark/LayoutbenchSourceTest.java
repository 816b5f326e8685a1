package io.layoutbench.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spike: the tiny synthetic ImageNet read through Spark in every layout; filters pushed down. */
class LayoutbenchSourceTest {

    @TempDir
    static Path dir;

    static SparkSession spark;
    static String backend;

    @BeforeAll
    static void writeAndStart() {
        backend = "file:" + dir.toAbsolutePath();
        try (ObjectBackend store = ObjectBackends.open(backend)) {
            for (String layout : List.of("l1", "l2", "l3")) {
                try (DatasetWriter writer = StorageLayouts.get(layout).create(store, "tiny/" + layout,
                        SyntheticImageNet.of(ImageNetScale.TINY, 42, false).schema(), Map.of())) {
                    Iterator<Sample> samples = SyntheticImageNet.of(ImageNetScale.TINY, 42, false).iterator();
                    samples.forEachRemaining(writer::add);
                    writer.commit();
                }
            }
        }
        spark = SparkSession.builder().master("local[2]").appName("layoutbench")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static Dataset<Row> read(String layout) {
        return spark.read().format("layoutbench").option("layout", layout).option("backend", backend)
                .option("partition-bytes", String.valueOf(8L << 20)).load("tiny/" + layout);
    }

    @Test
    void everyLayoutReadsWholeAndFiltered() {
        for (String layout : List.of("l1", "l2", "l3")) {
            Dataset<Row> all = read(layout);
            assertThat(all.count()).as(layout).isEqualTo(1030);
            assertThat(all.filter("label = 'cello'").count()).as(layout).isEqualTo(4);
            assertThat(all.filter("width >= 1024 AND height >= 1024").select("filename").count()).as(layout)
                    .isPositive();
            List<Row> cellos = all.filter("label = 'cello'").select("filename", "data").collectAsList();
            assertThat(cellos).hasSize(4).allSatisfy(row -> assertThat((byte[]) row.get(1)).isNotEmpty());
            assertThat(all.rdd().getNumPartitions()).as(layout).isGreaterThan(1);
        }
    }
}
