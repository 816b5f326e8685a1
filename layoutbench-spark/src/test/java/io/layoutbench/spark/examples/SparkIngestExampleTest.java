package io.layoutbench.spark.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.StorageLayouts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example runs as documented: an image folder ingested through Spark into L2, then a filtered read. */
class SparkIngestExampleTest {

    @TempDir
    Path images;

    @TempDir
    Path store;

    @Test
    void ingestsTheFolderAndReadsTheCellos() throws Exception {
        SparkIngestExample.demoFolder(images);
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            SparkIngestExample.main(new String[] {images.toString(), store.toString()});
        } finally {
            System.setOut(out);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("Ingested 1030 images").contains("cello/");
        try (ObjectBackend backend = ObjectBackends.open("file:" + store.toAbsolutePath());
                Dataset dataset = StorageLayouts.get("l2").open(backend, "images/l2")) {
            assertThat(dataset.summary().sampleCount()).isEqualTo(1030);
        }
    }
}
