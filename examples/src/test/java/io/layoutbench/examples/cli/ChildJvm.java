package io.layoutbench.examples.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class in a JVM of its own, on this test's class path, for tests that look at what a whole process
 * does: what it prints on either stream, how much memory it takes.
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    /** What a finished process wrote, and its exit code. */
    public record Output(int exitCode, String out, String err) {
    }

    /**
     * Runs {@code main} with {@code jvmOptions} and {@code args}, its output kept in files under {@code dir}, and
     * waits for it to end (at most {@code timeoutMinutes}: a bound for a hung process only; no assertion depends
     * on time).
     */
    public static Output run(Path dir, List<String> jvmOptions, Class<?> main, int timeoutMinutes, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "stdout-", ".txt");
        Path err = Files.createTempFile(dir, "stderr-", ".txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE).start();
        process.getOutputStream().close();
        if (!process.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(main.getSimpleName() + " " + String.join(" ", args) + " did not finish in "
                    + timeoutMinutes + " minutes");
        }
        return new Output(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
