package io.layoutbench.examples.userdata;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.examples.cli.ChildJvm;
import io.layoutbench.examples.cli.ChildJvm.Output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A 256 MiB sample, read 1 MiB at an offset, costs about 1 MiB in every layout, and nothing holds it in memory:
 * each layout writes a dataset holding it (a {@code Blob.ofFile} of a local file) through the file backend and
 * reads it back in a JVM of its own with a {@value #HEAP_MB} MB heap ({@link LargeSampleRun}). A heap that size has
 * no room for a 256 MiB array beside anything else, so the run completing shows that neither the write nor the
 * read ever held the sample whole; the heap left after the write and a collection is checked too.
 *
 * <p>With default query options (fields of 64 MiB or more lazily read) the query reads none of the field; a read
 * of {@value #LENGTH} bytes at offset {@value #OFFSET} returns the file's bytes and transfers at most
 * {@value #MAX_BYTES} bytes (1.1 MB), both as counted at the backend (below the query's metrics, see
 * {@link TransferCounter}) and in the query's own statistics; a stream over the whole field has the file's CRC32C
 * and transfers about the field's size.
 *
 * <p>l3 keeps its default {@code blob-threshold} (64 MiB), so the field lies out of line in the part's blob file;
 * fac takes the same default. fac cannot meet 1.1 MB and its bound is looser: the FAC store checks a CRC32C per
 * checksum unit of every block (16 KiB in the fac layout, 64 KiB at most) and so reads whole units, up to one more at
 * each end of the range, from the nodes: at most {@value #LENGTH} + 2 x 64 KiB ({@value #FAC_MAX_BYTES} bytes).
 * Its query statistics count the logical read, {@value #LENGTH} bytes.
 *
 * <p>The file is {@value #SAMPLE_MB} MiB of seeded pseudo-random bytes, each MiB different, so that a read at the
 * wrong offset or of the wrong object cannot match, and no store compresses it away.
 */
class LargeSamplePartialReadTest {

    static final int HEAP_MB = 256;
    static final int SAMPLE_MB = 256;
    static final long OFFSET = 100_000_000;
    static final int LENGTH = 1 << 20;
    static final long MAX_BYTES = 1_100_000;
    static final long FAC_MAX_BYTES = LENGTH + 2 * (64 << 10);
    static final long RETAINED_HEAP_BYTES = 32L << 20;

    @TempDir
    static Path dir;

    static Path file;
    static long crc32c;

    @BeforeAll
    static void writeTheLargeFile() throws IOException {
        file = dir.resolve("large.mp4");
        CRC32C crc = new CRC32C();
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int i = 0; i < SAMPLE_MB; i++) {
                new SplittableRandom(i).nextBytes(block);
                crc.update(block);
                out.write(block);
            }
        }
        crc32c = crc.getValue();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"l1", "l2", "l3", "fac"})
    void aPartOfALargeFieldCostsAboutItsBytesAndNothingHoldsItWhole(String layout, @TempDir Path data)
            throws Exception {
        // Each layout's dataset (256 MiB to 427 MiB, fac) is deleted after its run: a CI disk may be small.
        Output run = ChildJvm.run(dir, List.of("-Xmx" + HEAP_MB + "m", "-XX:ActiveProcessorCount=2"),
                LargeSampleRun.class, 10, layout, file.toString(), data.toString(), Long.toString(OFFSET),
                Integer.toString(LENGTH));

        assertThat(run.exitCode()).as("the write and the read with a %d MB heap: %s", HEAP_MB, run.err()).isZero();
        Map<String, String> seen = facts(run.out());
        assertThat(seen).containsEntry("query.samples", "2").containsEntry("field.size", Long.toString(SAMPLE_MB
                << 20)).containsEntry("field.inMemory", "false");
        assertThat(Long.parseLong(seen.get("query.bytes"))).as("bytes the query read: none of the large field")
                .isLessThan(LENGTH);
        assertThat(seen).containsEntry("partial.length", Integer.toString(LENGTH))
                .containsEntry("partial.equal", "true");
        long bound = layout.equals("fac") ? FAC_MAX_BYTES : MAX_BYTES;
        assertThat(Long.parseLong(seen.get("partial.bytes"))).as("bytes the backend returned for a %d-byte read",
                LENGTH).isBetween((long) LENGTH, bound);
        assertThat(Long.parseLong(seen.get("partial.stats.bytes"))).as("the read's bytes in the query's statistics")
                .isBetween((long) LENGTH, bound);
        assertThat(Long.parseLong(seen.get("stream.crc32c"))).as("CRC32C of the field read as a stream")
                .isEqualTo(crc32c);
        assertThat(Long.parseLong(seen.get("stream.bytes"))).as("bytes the backend returned for the whole stream")
                .isBetween((long) SAMPLE_MB << 20, (long) (SAMPLE_MB << 20) * 101 / 100);
        assertThat(Long.parseLong(seen.get("write.heap.after.gc"))).as("heap the write left behind")
                .isLessThan(RETAINED_HEAP_BYTES);
    }

    /** The {@code name=value} lines {@link LargeSampleRun} printed. */
    private static Map<String, String> facts(String out) {
        Map<String, String> facts = new HashMap<>();
        for (String line : out.lines().toList()) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                facts.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        return facts;
    }
}
