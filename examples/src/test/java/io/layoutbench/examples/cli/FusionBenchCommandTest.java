package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fusion bench} end to end on a tiny lineitem: it generates, stores, measures and writes its tables. */
class FusionBenchCommandTest {

    @Test
    void measuresFusionAgainstTheBaseline(@TempDir Path dir) throws Exception {
        Path tables = dir.resolve("fusion.md");
        CliRunner run = CliRunner.run("fusion", "bench", "--scale-factor", "0.002", "--row-group-rows", "3000",
                "--runs", "1", "--only", "tpch", "--work-dir", dir.toString(), "--markdown", tables.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("Fusion store: FAC", "| Q1 |", "| Q6 |");
        assertThat(Files.readString(tables)).contains("| Q6 |", "traffic ratio", "| plan |",
                "median cut, 95% interval", "Plans chosen", "- Q6: ");
        assertThat(run.out()).as("no interval from a single run").contains("| n/a |");
        // A second run reuses the generated file and the stored objects.
        assertThat(CliRunner.run("fusion", "bench", "--scale-factor", "0.002", "--row-group-rows", "3000",
                "--runs", "1", "--only", "tpch", "--work-dir", dir.toString()).out()).doesNotContain("Generating");
    }

    @Test
    void aMissingClusterIsSaidBeforeLineitemIsGenerated(@TempDir Path dir) {
        CliRunner run = CliRunner.run("fusion", "bench", "--cluster", dir.resolve("none").toString(),
                "--work-dir", dir.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("No cluster in").contains("cluster.properties");
        assertThat(run.out()).doesNotContain("Generating");
    }

    @Test
    void anUnknownPartIsAnError(@TempDir Path dir) {
        CliRunner run = CliRunner.run("fusion", "bench", "--only", "everything", "--work-dir", dir.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--only").contains("micro, sweep or tpch");
    }
}
