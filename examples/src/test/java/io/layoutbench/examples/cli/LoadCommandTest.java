package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.loader.LoaderState;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code layoutbench load} from outside: a stopped rank resumed from its state file yields exactly the
 * uninterrupted rest; a rank killed with SIGKILL mid-epoch resumes from the last state it wrote; {@code load bench}
 * runs and finds every resumed tail equal.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LoadCommandTest {

    private static final Pattern SAVED = Pattern.compile("State saved after (\\d+) samples");

    @TempDir
    static Path dir;

    private String dataDir;

    @BeforeAll
    void ingest() {
        dataDir = dir.resolve("data").toString();
        CliRunner ingest = CliRunner.run("ingest", "--scale", "tiny", "--layouts", "l2,l3", "--data-dir", dataDir);
        assertThat(ingest.exitCode()).as(ingest.err()).isZero();
    }

    private List<String> load(String... args) throws Exception {
        Path list = Files.createTempFile(dir, "list-", ".txt");
        List<String> command = new ArrayList<>(List.of("load", "--scale", "tiny", "--data-dir", dataDir, "--profile",
                "none", "--list", list.toString()));
        command.addAll(List.of(args));
        CliRunner run = CliRunner.run(command.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        return Files.readAllLines(list);
    }

    @Test
    void aStoppedRankResumesWithTheUninterruptedRest() throws Exception {
        String[] job = {"--layout", "l3", "--rank", "2", "--world-size", "3", "--seed", "5", "--epoch", "1",
            "--where", "filesize_bytes > 100000"};
        List<String> uninterrupted = load(job);
        Path state = dir.resolve("stopped.state");
        List<String> head = load(concat(job, "--stop-after", "61", "--state-out", state.toString()));
        assertThat(head).isEqualTo(uninterrupted.subList(0, 61));
        assertThat(LoaderState.read(state).position()).isEqualTo(61);
        List<String> tail = load("--resume", state.toString(), "--batch-size", "7", "--prefetch", "1MB");
        assertThat(tail).isEqualTo(uninterrupted.subList(61, uninterrupted.size()));
        assertThat(uninterrupted).doesNotHaveDuplicates();
    }

    @Test
    void aRankKilledMidEpochResumesFromTheLastStateItWrote() throws Exception {
        String[] job = {"--layout", "l2", "--rank", "0", "--world-size", "2", "--seed", "9", "--shuffle-block", "0",
            "--shuffle-buffer", "64"};
        List<String> uninterrupted = load(job);
        Path state = dir.resolve("killed.state");
        Path killedList = dir.resolve("killed.txt");
        // A real process, reading through the simulated t3.medium network one small block at a time (a read-ahead of
        // one byte allows one block), so that it is
        // still reading when killed; it saves its state every 8 samples and says so on standard output. Its order
        // is the one read without a network model: blocks do not depend on the network.
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), LayoutBenchCli.class.getName(), "load",
                "--scale", "tiny", "--data-dir", dataDir, "--profile", "t3.medium", "--prefetch", "1",
                "--batch-size", "4", "--state-every", "8", "--state-out", state.toString(), "--list",
                killedList.toString()));
        command.addAll(List.of(job));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        long killedAfter = -1;
        List<String> output = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.add(line);
                Matcher saved = SAVED.matcher(line);
                if (saved.find() && Long.parseLong(saved.group(1)) >= 40) {
                    process.destroyForcibly();   // SIGKILL: no shutdown hook, no flush, no last state
                    killedAfter = Long.parseLong(saved.group(1));
                    break;
                }
            }
        }
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(killedAfter).as(String.join("\n", output)).isPositive();
        assertThat(process.exitValue()).as("killed, not finished").isNotZero();

        LoaderState last = LoaderState.read(state);
        long position = last.position();
        assertThat(position).isGreaterThanOrEqualTo(killedAfter).isLessThan(uninterrupted.size());
        // What the killed process listed up to its last state is the uninterrupted head ...
        assertThat(Files.readAllLines(killedList).subList(0, (int) position))
                .isEqualTo(uninterrupted.subList(0, (int) position));
        // ... and a new process resumed from that state lists exactly the rest.
        List<String> resumed = load("--resume", state.toString());
        assertThat(resumed).isEqualTo(uninterrupted.subList((int) position, uninterrupted.size()));
    }

    @Test
    void threeRanksStoppedMidEpochAreResumedByTwo() throws Exception {
        String[] job = {"--layout", "l2", "--seed", "3", "--epoch", "2", "--where", "width > 400"};
        List<String> rests = new ArrayList<>();
        List<String> states = new ArrayList<>();
        for (int rank = 0; rank < 3; rank++) {
            String[] mine = concat(job, "--rank", "" + rank, "--world-size", "3");
            List<String> all = load(mine);
            Path state = dir.resolve("three-" + rank + ".state");
            load(concat(mine, "--stop-after", "" + (10 * rank + 5), "--state-out", state.toString()));
            rests.addAll(all.subList(10 * rank + 5, all.size()));
            states.add(state.toString());
        }
        List<String> resumed = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            resumed.addAll(load("--resume-elastic", String.join(",", states), "--rank", "" + rank, "--world-size",
                    "2"));
        }
        assertThat(resumed).isEqualTo(rests);
    }

    @Test
    void theLoadBenchRunsItsSectionsAndEveryResumedTailIsTheSame() {
        CliRunner bench = CliRunner.run("load", "bench", "--scale", "tiny", "--data-dir", dataDir, "--profile",
                "none", "--sections", "split,resume,cache", "--world-sizes", "1,3");
        assertThat(bench.exitCode()).as(bench.err()).isZero();
        assertThat(bench.out()).contains("Split:").contains("Resume:").contains("Cache:").contains("yes")
                .doesNotContain(" NO");
        CliRunner unknown = CliRunner.run("load", "bench", "--scale", "tiny", "--data-dir", dataDir,
                "--sections", "speed");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.errLines()).singleElement().asString().contains("speed").contains("split");
    }

    @Test
    void aBadStateFileIsOneLineNamingTheKey() throws Exception {
        Path state = dir.resolve("bad.state");
        Files.writeString(state, "format=1\nresult=x\n");
        CliRunner run = CliRunner.run("load", "--scale", "tiny", "--data-dir", dataDir, "--resume", state.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().contains("bad.state").contains("no key");
    }

    private static String[] concat(String[] first, String... more) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }
}
