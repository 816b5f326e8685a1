package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench --dataset}: the speech scales and queries are checked against the speech corpus, not ImageNet's. */
class SpeechBenchArgumentsTest {

    @TempDir
    Path dataDir;

    @Test
    void unknownDatasetListsTheKnownOnes() {
        CliRunner result = CliRunner.run("bench", "--data-dir", dataDir.toString(), "--dataset", "video");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("--dataset").contains("'video'")
                .contains("imagenet, speech");
    }

    @Test
    void speechScalesAreTheSpeechCorpusOnes() {
        CliRunner full = CliRunner.run("bench", "--data-dir", dataDir.toString(), "--dataset", "speech", "--scale",
                "full");
        CliRunner small = CliRunner.run("bench", "--data-dir", dataDir.toString(), "--scale", "small");

        assertThat(full.exitCode()).isEqualTo(2);
        assertThat(full.errLines()).singleElement().asString().contains("--scale").contains("'full'")
                .contains("tiny, mini, small, medium");
        assertThat(small.exitCode()).as("small is a speech scale only").isEqualTo(2);
        assertThat(small.errLines()).singleElement().asString().contains("'small'")
                .contains("tiny, mini, medium, full");
    }

    @Test
    void speechQueriesAreS1ToS10() {
        CliRunner result = CliRunner.run("bench", "--data-dir", dataDir.toString(), "--dataset", "speech",
                "--scale", "tiny", "--queries", "S1,Q3");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .contains("Unknown speech query 'Q3'; known queries: S1 .. S10");
    }

    @Test
    void helpNamesTheSpeechDataset() {
        CliRunner result = CliRunner.run("bench", "--help");

        assertThat(result.exitCode()).isZero();
        String help = result.out().replaceAll("\\s+", " ");
        assertThat(help).contains("--dataset=DATASET").contains("S1 .. S10 with --dataset speech")
                .contains("With bench --dataset speech: tiny (20 clips, 7 MB)");
    }
}
