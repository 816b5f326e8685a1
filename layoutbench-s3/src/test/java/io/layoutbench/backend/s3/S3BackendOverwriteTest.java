package io.layoutbench.backend.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.testing.OverwriteRace;
import io.layoutbench.api.testing.TestBytes;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * S3 overwrites are atomic: a reader racing them gets the old object or the new one, whole, never one version's
 * length with another's bytes. Holds end to end: through the embedded server's store and through reads the backend
 * splits into several GETs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class S3BackendOverwriteTest {

    private static final String KEY = "swap.bin";

    private S3Backend backend;

    @BeforeEach
    void open() {
        backend = new S3Backend(SharedS3Server.freshUri("overwrite"),
                SharedS3Server.options().withPartSize(S3Options.MIN_PART_SIZE), RequestMetrics.NONE);
    }

    @AfterEach
    void close() {
        backend.close();
    }

    @Test
    void wholeReadsOfASmallObjectSeeOneVersion() throws Exception {
        // Two versions of different sizes, so that a length from one with bytes from the other shows.
        int sizeA = 64 * 1024;
        int sizeB = 48 * 1024;
        race(300, i -> i % 2 == 0 ? TestBytes.of("a", sizeA) : TestBytes.of("b", sizeB), () -> {
            ByteBuffer got = backend.readAll(KEY);
            assertThat(got.remaining()).isIn(sizeA, sizeB);
            TestBytes.verify(got.remaining() == sizeA ? "a" : "b", 0, got);
        });
    }

    @Test
    void rangeReadsSplitIntoSeveralGetsSeeOneVersion() throws Exception {
        // Three parts per read: each part is its own GET, and an overwrite may land between them.
        int size = (int) (3 * S3Options.MIN_PART_SIZE - 1000);
        ByteRange range = ByteRange.between(500, size - 500);
        race(12, i -> TestBytes.of(i % 2 == 0 ? "a" : "b", size), () -> {
            ByteBuffer got = backend.readRange(KEY, range);
            assertThat(got.remaining()).isEqualTo((int) range.length());
            String version = got.get(0) == TestBytes.at("a", range.offset()) ? "a" : "b";
            TestBytes.verify(version, range.offset(), got);
        });
    }

    @Test
    void wholeReadsOfAnObjectOfSeveralPartsSeeOneVersion() throws Exception {
        // Later parts are pinned to the first part's ETag: an overwrite in between restarts the read.
        int sizeA = (int) (2 * S3Options.MIN_PART_SIZE + 4096);
        int sizeB = (int) (3 * S3Options.MIN_PART_SIZE - 4096);
        race(12, i -> i % 2 == 0 ? TestBytes.of("a", sizeA) : TestBytes.of("b", sizeB), () -> {
            ByteBuffer got = backend.readAll(KEY);
            assertThat(got.remaining()).isIn(sizeA, sizeB);
            TestBytes.verify(got.remaining() == sizeA ? "a" : "b", 0, got);
        });
    }

    /** Writes {@code writes} versions of {@link #KEY} while three readers run {@code read} until the last lands. */
    private void race(int writes, Function<Integer, byte[]> version, Runnable read) throws Exception {
        backend.put(KEY, version.apply(0));
        OverwriteRace.run(writes, i -> backend.put(KEY, version.apply(i)), read);
    }
}
