package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.layout.StorageLayouts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;

/** Wrong command lines fail with exit code 2 and one line on standard error, before any work is done. */
class CliArgumentErrorsTest {

    @TempDir
    Path dataDir;

    @Test
    void unknownLayoutListsTheKnownOnes() {
        CliRunner result = CliRunner.run("bench", "--data-dir", dataDir.toString(), "--layouts", "l1,l9");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).hasSize(1);
        assertThat(result.err()).contains("Unknown layout 'l9'")
                .contains("known layouts: " + String.join(", ", StorageLayouts.names()));
        assertThat(result.out()).isEmpty();
    }

    @Test
    void badScaleListsTheKnownOnes() {
        CliRunner result = CliRunner.run("bench", "--data-dir", dataDir.toString(), "--scale", "huge");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .contains("--scale").contains("'huge'").contains("tiny, mini, medium, full");
    }

    @Test
    void badProfileListsTheKnownOnes() {
        CliRunner result = CliRunner.run("bench", "--data-dir", dataDir.toString(), "--profile", "m5.huge");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .contains("--profile").contains("'m5.huge'").contains("t3.medium").contains("none");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-3"})
    void repsBelowOneAreRejected(String reps) {
        CliRunner result = CliRunner.run("bench", "--data-dir", dataDir.toString(), "--reps", reps);

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("--reps must be at least 1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bench", "query"})
    void aReadBudgetBelowOneIsRejected(String command) {
        CliRunner result = command.equals("bench")
                ? CliRunner.run("bench", "--data-dir", dataDir.toString(), "--max-read-amplification", "0.5")
                : CliRunner.run("query", "--data-dir", dataDir.toString(), "--where", "width > 0",
                        "--max-read-amplification", "NaN");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .contains("--max-read-amplification must be at least 1").contains(command.equals("bench") ? "0.5"
                        : "NaN");
    }

    @ParameterizedTest
    @ValueSource(strings = {"lots", "0", "-64MB"})
    void aByteBudgetThatIsNoSizeIsAUsageError(String size) {
        CliRunner result = CliRunner.run("bench", "--data-dir", dataDir.toString(), "--max-buffered", size);

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("--max-buffered").contains(size);
    }

    @Test
    void theMemoryBackendCountsTheReadsAQueryHoldsInFlightBesideTheData() {
        long heap = Runtime.getRuntime().maxMemory();
        // tiny's 1,000 samples of 110 KB fit in any test heap; a budget of half the heap does not, as a read in
        // flight can take twice its size.
        CliRunner result = CliRunner.run("bench", "--data-dir", dataDir.toString(), "--backend", "mem", "--scale",
                "tiny", "--layouts", "l1", "--max-buffered", Long.toString(heap / 2));

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("--backend mem").contains("in flight")
                .contains("--max-buffered");
    }

    @Test
    void unknownQueryAndModeAndBackendAreUsageErrors() {
        assertThat(CliRunner.run("bench", "--data-dir", dataDir.toString(), "--queries", "Q12"))
                .satisfies(r -> assertThat(r.exitCode()).isEqualTo(2))
                .satisfies(r -> assertThat(r.errLines()).singleElement().asString().contains("Q12"));
        assertThat(CliRunner.run("bench", "--data-dir", dataDir.toString(), "--mode", "fast"))
                .satisfies(r -> assertThat(r.exitCode()).isEqualTo(2))
                .satisfies(r -> assertThat(r.errLines()).singleElement().asString()
                        .contains("optimized, paper, both"));
        assertThat(CliRunner.run("bench", "--data-dir", dataDir.toString(), "--backend", "ftp"))
                .satisfies(r -> assertThat(r.exitCode()).isEqualTo(2))
                .satisfies(r -> assertThat(r.errLines()).singleElement().asString()
                        .contains("Unknown backend 'ftp'"));
    }

    @Test
    void unknownOptionIsOneLine() {
        CliRunner result = CliRunner.run("bench", "--sclae", "tiny");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("--sclae");
    }

    @Test
    void queryBeforeIngestSaysWhatToRun() {
        CliRunner result = CliRunner.run("query", "--data-dir", dataDir.toString(), "--scale", "tiny",
                "--where", "human_label = 'cello'", "--profile", "none");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .contains("ingest it first: layoutbench ingest --scale tiny");
    }

    @Test
    void runtimeErrorsAreOneLineWithExitCodeOneAndStackTraceOnlyWhenVerbose() throws Exception {
        Path notADirectory = Files.writeString(dataDir.resolve("plain-file"), "x");

        CliRunner quiet = CliRunner.run("generate", "--scale", "tiny", "--out", notADirectory.toString());

        assertThat(quiet.exitCode()).isEqualTo(1);
        assertThat(quiet.errLines()).hasSize(2);
        assertThat(quiet.errLines().get(0)).startsWith("layoutbench generate: ").contains("plain-file");
        assertThat(quiet.errLines().get(1)).contains("--verbose");

        CliRunner verbose = CliRunner.run("generate", "--verbose", "--scale", "tiny", "--out",
                notADirectory.toString());

        assertThat(verbose.exitCode()).isEqualTo(1);
        assertThat(verbose.err()).contains("\tat ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bench", "generate", "ingest", "query", "advise"})
    void everyCommandHasHelp(String command) {
        CliRunner result = CliRunner.run(command, "--help");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).startsWith("Usage: layoutbench " + command);
        assertThat(result.err()).isEmpty();
    }

    @Test
    void noCommandPrintsUsageWithExitCodeTwo() {
        CliRunner result = CliRunner.run();

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("Usage: layoutbench").contains("bench");
    }
}
