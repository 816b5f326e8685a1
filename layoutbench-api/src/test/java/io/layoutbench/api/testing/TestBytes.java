package io.layoutbench.api.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Deterministic test content: the byte at {@code offset} of an object is a function of a seed string (usually the
 * key) and the offset, so any range can be generated or verified without keeping the object in memory, and a
 * range read from the wrong offset or the wrong object is caught.
 *
 * <pre>{@code
 * backend.put("a.bin", TestBytes.stream("a.bin", 24 << 20), 24 << 20);
 * ByteBuffer got = backend.readRange("a.bin", ByteRange.of(1000, 50));
 * TestBytes.verify("a.bin", 1000, got);   // AssertionError naming the first wrong byte
 * }</pre>
 *
 * <p>Thread-safe: it has no state.
 */
public final class TestBytes {

    private TestBytes() {
    }

    /** The byte at {@code offset} of the content seeded by {@code seed}. */
    public static byte at(String seed, long offset) {
        return mix(seedOf(seed), offset);
    }

    /** {@code length} bytes of the content seeded by {@code seed}, starting at offset 0. */
    public static byte[] of(String seed, int length) {
        return of(seed, 0, length);
    }

    /** {@code length} bytes of the content seeded by {@code seed}, starting at {@code offset}. */
    public static byte[] of(String seed, long offset, int length) {
        long s = seedOf(seed);
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = mix(s, offset + i);
        }
        return bytes;
    }

    /** A stream of exactly {@code length} bytes of the content seeded by {@code seed}, generated as it is read. */
    public static InputStream stream(String seed, long length) {
        return new GeneratedStream(seedOf(seed), length, Long.MAX_VALUE);
    }

    /**
     * A stream of the content seeded by {@code seed} that throws an {@link IOException} once {@code failAfter}
     * bytes have been read, to simulate a source failing in the middle of an upload.
     */
    public static InputStream failingAfter(String seed, long failAfter) {
        return new GeneratedStream(seedOf(seed), Long.MAX_VALUE, failAfter);
    }

    /**
     * Checks that the remaining bytes of {@code actual} are the content seeded by {@code seed} from
     * {@code offset}, without moving the buffer's position.
     *
     * @throws AssertionError naming the seed and the first wrong offset
     */
    public static void verify(String seed, long offset, ByteBuffer actual) {
        long s = seedOf(seed);
        int start = actual.position();
        int length = actual.remaining();
        for (int i = 0; i < length; i++) {
            byte expected = mix(s, offset + i);
            byte got = actual.get(start + i);
            if (got != expected) {
                throw new AssertionError("Content of '" + seed + "' differs at offset " + (offset + i)
                        + " (byte " + i + " of a " + length + "-byte buffer read from offset " + offset
                        + "): expected " + expected + ", got " + got);
            }
        }
    }

    private static long seedOf(String seed) {
        long h = 0xcbf29ce484222325L;
        for (byte b : seed.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ b) * 0x100000001b3L;
        }
        return h;
    }

    // A cheap 64-bit mixer (the SplitMix64 finaliser): neighbouring offsets and seeds give unrelated bytes.
    private static byte mix(long seed, long offset) {
        long z = seed + offset * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (byte) (z ^ (z >>> 31));
    }

    private static final class GeneratedStream extends InputStream {
        private final long seed;
        private final long length;
        private final long failAfter;
        private long position;

        GeneratedStream(long seed, long length, long failAfter) {
            this.seed = seed;
            this.length = length;
            this.failAfter = failAfter;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (position >= failAfter) {
                throw new IOException("Simulated failure of the source stream after " + failAfter + " bytes");
            }
            if (position >= length) {
                return -1;
            }
            int n = (int) Math.min(len, Math.min(length, failAfter) - position);
            for (int i = 0; i < n; i++) {
                buffer[off + i] = mix(seed, position + i);
            }
            position += n;
            return n;
        }
    }
}
