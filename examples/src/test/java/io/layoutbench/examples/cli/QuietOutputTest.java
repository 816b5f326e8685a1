package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.examples.cli.ChildJvm.Output;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line prints its progress, its tables and real warnings, and no library's log noise. Runs
 * {@link LayoutBenchCli#main} in a JVM of its own, as {@code ./layoutbench} does, because logging is configured
 * there, and reads everything the process wrote to standard output and standard error.
 */
class QuietOutputTest {

    /** What library logging and picocli's own warnings look like on the console. */
    private static final List<String> NOISE = List.of("WARN org.apache", "INFO org.", "InternalParquetRecordWriter",
            "picocli");

    @TempDir
    Path dir;

    @Test
    void aTinyBenchPrintsNoLibraryLogs() throws Exception {
        // 16 KB L3 row groups: most tiny images are over three times that, which is what makes parquet-java warn
        // "Too much memory used" (as fac's 512 KiB row groups do with the larger images of mini).
        Output run = runCli("bench", "--scale", "tiny", "--profile", "none", "--layouts", "l1,l2,l3",
                "--queries", "Q1,Q3", "--no-charts", "--data-dir", dir.resolve("data").toString(),
                "--layout-option", "l3.row-group-size=16KB");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("l1: ingested 1030 samples", "l3: ingested 1030 samples");
        assertThat(run.out()).contains("Warm runs (scale tiny, profile none, backend file)", "Cold runs", "Q3 ",
                "l3/optimized");
        assertNoNoise(run);
    }

    @Test
    void fusionBenchHelpPrintsNoPicocliWarning() throws Exception {
        Output help = runCli("fusion", "bench", "--help");

        assertThat(help.exitCode()).as(help.err()).isZero();
        assertThat(help.out()).contains("at 1% selectivity");
        assertNoNoise(help);
    }

    private static void assertNoNoise(Output output) {
        for (String line : (output.out() + "\n" + output.err()).lines().toList()) {
            assertThat(line).as("a line of output").doesNotContain(NOISE);
        }
    }

    /** Runs {@code layoutbench args} in a new JVM on this test's class path and waits for it to end. */
    private Output runCli(String... args) throws IOException, InterruptedException {
        return ChildJvm.run(dir, List.of("-Xmx1g"), LayoutBenchCli.class, 10, args);
    }
}
