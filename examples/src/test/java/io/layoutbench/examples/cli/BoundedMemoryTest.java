package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.layoutbench.examples.cli.ChildJvm.Output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A query's process stays within its heap limit plus the JVM's own memory, in every layout and mode, however large
 * its reads: each case runs {@code layoutbench query} in a JVM of its own with a {@value #HEAP_MB} MB heap and checks
 * the process's peak resident size (Linux's {@code VmHWM}) against {@value #HEAP_MB} MB plus
 * {@value #ALLOWANCE_MB} MB.
 *
 * <p>The dataset is {@value #SAMPLES} samples of {@value #SAMPLE_MB} MiB, so every layout reads ranges of 24 MiB or
 * more (l3's paper mode whole row groups of two samples): when the file backend read a range with one
 * {@code FileChannel} call, each I/O thread kept a temporary direct buffer of that size, up to 144 MiB outside the
 * heap, and these queries failed with "Cannot reserve ... bytes of direct buffer memory" (or, fac optimized,
 * reached a resident size of 296 MB).
 *
 * <p>The allowance is what a JVM holds besides the heap, measured with {@code -XX:NativeMemoryTracking} on this
 * query: G1's own structures (remembered sets, card table, marking bitmaps: about 45 MB for a 128 MB heap),
 * metaspace and the class space (about 30 MB), the code cache and the JIT compilers' arenas (about 20 MB), the JVM's
 * and the C library's code and the shared class archive (about 30 MB, counted as resident when touched), thread
 * stacks (a few MB for some 60 threads), and direct buffers: at most 256 KiB for each of the file backend's 16 I/O
 * threads (4 MB) and a little for the JDK. That adds to about 130 MB committed, of which the queries here touch
 * 40 to 100 MB beyond the heap they use (170 to 225 MB resident in all); 128 MB leaves room for other JVM builds
 * and still fails the unsliced reads. {@code -XX:ActiveProcessorCount=2} keeps the garbage collector's and
 * compilers' thread counts, and their memory, the same on any machine.
 */
class BoundedMemoryTest {

    static final int HEAP_MB = 128;
    static final int ALLOWANCE_MB = 128;
    static final int SAMPLES = 6;
    static final int SAMPLE_MB = 24;
    static final int WIDE_SAMPLES = 1700;
    static final int WIDE_SAMPLE_KB = 80;

    @TempDir
    static Path dir;

    static Path data;

    @BeforeAll
    static void ingestAFewLargeSamples() throws IOException {
        Path files = Files.createDirectories(dir.resolve("files"));
        StringBuilder manifest = new StringBuilder("path,label,width,height\n");
        SplittableRandom random = new SplittableRandom(SAMPLES);
        byte[] bytes = new byte[SAMPLE_MB << 20];
        for (int i = 0; i < SAMPLES; i++) {
            random.nextBytes(bytes);   // random, so that no layout's compression makes the reads small
            try (OutputStream out = Files.newOutputStream(files.resolve("s" + i + ".bin"))) {
                out.write(bytes);
            }
            manifest.append("files/s").append(i).append(".bin,label").append(i % 2).append(",640,480\n");
        }
        Path csv = Files.writeString(dir.resolve("manifest.csv"), manifest.toString());
        data = dir.resolve("data");
        CliRunner ingest = CliRunner.run("ingest", "--manifest", csv.toString(), "--name", "large",
                "--layouts", "l1,l2,l3,fac", "--profile", "none", "--data-dir", data.toString());
        assertThat(ingest.exitCode()).as(ingest.err()).isZero();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"l1, paper", "l1, optimized", "l2, paper", "l2, optimized", "l3, paper", "l3, optimized",
            "fac, paper", "fac, optimized"})
    void theProcessStaysWithinItsHeapLimitPlusTheJvmsOwnMemory(String layout, String mode) throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "the resident size is read from Linux's /proc");

        Output run = runQuery("--dataset", "large", "--layout", layout, "--mode", mode,
                "--where", "filesize_bytes > 0", "--profile", "none", "--data-dir", data.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("Samples:  " + SAMPLES + " ");
        Map<String, Long> peaks = peaks(run.err());
        assertThat(peaks.get("rss")).as("peak resident bytes of %s %s (heap limit %d MB; peaks %s)", layout, mode,
                HEAP_MB, peaks).isBetween(1L, (long) (HEAP_MB + ALLOWANCE_MB) << 20);
    }

    /**
     * L3's paper mode reads a whole row group, one request per column chunk. Here that is a row group of 128 MB
     * ({@value #WIDE_SAMPLES} samples of {@value #WIDE_SAMPLE_KB} KiB, in a file of 139 MB) under a 128 MB heap: read
     * into one array, it failed with "Java heap space" (the jar of 2026-12-03, before streamed reads). Streamed and
     * decoded page by page, the query holds a page at a time and the samples it returns (138 MB resident).
     */
    @Test
    void l3PaperModeReadsARowGroupLargerThanItsHeap() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "the resident size is read from Linux's /proc");
        Path files = Files.createDirectories(dir.resolve("wide-files"));
        StringBuilder manifest = new StringBuilder("path,label,width,height\n");
        SplittableRandom random = new SplittableRandom(WIDE_SAMPLES);
        byte[] bytes = new byte[WIDE_SAMPLE_KB << 10];
        for (int i = 0; i < WIDE_SAMPLES; i++) {
            random.nextBytes(bytes);
            Files.write(files.resolve("w" + i + ".bin"), bytes);
            manifest.append("wide-files/w").append(i).append(".bin,label").append(i % 50).append(",640,480\n");
        }
        Path csv = Files.writeString(dir.resolve("wide.csv"), manifest.toString());
        CliRunner ingest = CliRunner.run("ingest", "--manifest", csv.toString(), "--name", "wide", "--layouts", "l3",
                "--layout-option", "l3.file-size=256MB", "--profile", "none", "--data-dir", data.toString());
        assertThat(ingest.exitCode()).as(ingest.err()).isZero();

        Output run = runQuery("--dataset", "wide", "--layout", "l3", "--layout-option", "l3.file-size=256MB",
                "--mode", "paper", "--where", "label = 'label7'", "--profile", "none", "--data-dir", data.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("Samples:  " + WIDE_SAMPLES / 50 + " ");
        Map<String, Long> peaks = peaks(run.err());
        assertThat(peaks.get("rss")).as("peak resident bytes (heap limit %d MB; peaks %s)", HEAP_MB, peaks)
                .isBetween(1L, (long) (HEAP_MB + ALLOWANCE_MB) << 20);
    }

    /** The line {@link PeakMemoryCli} printed, as a map of name to bytes. */
    private static Map<String, Long> peaks(String err) {
        String line = err.lines().filter(l -> l.startsWith(PeakMemoryCli.PREFIX)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + PeakMemoryCli.PREFIX + "line in: " + err));
        Map<String, Long> peaks = new HashMap<>();
        for (String pair : line.substring(PeakMemoryCli.PREFIX.length()).trim().split(" ")) {
            String[] nameAndValue = pair.split("=");
            peaks.put(nameAndValue[0], Long.parseLong(nameAndValue[1]));
        }
        return peaks;
    }

    /** Runs {@code layoutbench query args} in a new JVM with a {@value #HEAP_MB} MB heap and waits for it. */
    private static Output runQuery(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("query"));
        command.addAll(List.of(args));
        return ChildJvm.run(dir, List.of("-Xmx" + HEAP_MB + "m", "-XX:ActiveProcessorCount=2"), PeakMemoryCli.class,
                5, command.toArray(String[]::new));
    }
}
