package io.layoutbench.examples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** The example mains run to the end and print what they promise. */
class ExamplesSmokeTest {

    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream original;

    @BeforeEach
    void capture() {
        original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(original);
    }

    @Test
    void quickstartIngestsQueriesAndPredicts() throws Exception {
        Quickstart.main(new String[0]);

        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("Wrote 1030 samples").contains("cello").contains("Read 4 samples")
                .contains("On a t3.medium against S3 (cold)");
    }

    @Test
    void dataLoaderSplitsTheResultAcrossRanks() {
        DataLoaderExample.main(new String[0]);

        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("rank 0/4: 47 of 185 matching samples an epoch").contains("rank 3/4: 46 of 185")
                .contains("4 ranks read 185 samples, 185 distinct, of 185 matching: each once")
                .contains("checkpoint after 32 samples").contains("resumed, 15 samples more");
    }

    @Test
    void imageBatchesAreDecodedByTheLoadersWorkersAndHandedToArrow() throws Exception {
        ImageBatchesExample.main(new String[0]);

        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("batch  0: 24 images").contains("Epoch 0: 240 images decoded")
                .contains("Epoch 1, first batch as Arrow: 24 rows, columns [filename, label, width, height, jpg, cls]");
    }

    @Test
    void s3ExampleRunsAgainstTheEmbeddedServer() throws Exception {
        S3Example.main(new String[0]);

        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("Embedded S3 server at http://127.0.0.1:").contains("l2: 1030 samples")
                .containsPattern("optimized Q8 +185 samples");
    }

    @Test
    void ownDatasetExampleReadsSomeFieldsIndexesInPlaceAndReadsPartOfALargeField() throws Exception {
        OwnDatasetExample.main(new String[0]);

        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("Transcripts of the long clips:")
                .containsPattern("Indexed \\d+ shards in place: 20 samples with fields \\[wav, txt\\]")
                .contains("Read 1048576 bytes of a 96 MiB video at 40 MiB: 1048576 bytes moved");
    }
}
