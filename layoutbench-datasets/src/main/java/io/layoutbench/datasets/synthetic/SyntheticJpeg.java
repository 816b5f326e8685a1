package io.layoutbench.datasets.synthetic;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * Bytes shaped like a baseline JPEG file, of an exact length, from a seed: SOI, an APP0 JFIF segment, a DQT table,
 * an SOF0 frame header carrying the real width and height (so header readers such as
 * {@link io.layoutbench.datasets.image.ImageHeaders} see the sample's dimensions), an SOS scan header, a pseudorandom
 * scan body and EOI. The body is incompressible, like real entropy-coded data, so compression in a layout or a
 * network path cannot flatter the benchmark. It is not decodable as an image.
 *
 * <p>The body never contains the byte {@code 0xFF}, so a marker scanner never mistakes it for a marker (a real
 * encoder stuffs {@code 0xFF 0x00} instead).
 *
 * <pre>{@code
 * byte[] jpeg = SyntheticJpeg.generate(42L, 500, 375, 110_000);
 * assert jpeg.length == 110_000 && (jpeg[0] & 0xFF) == 0xFF && (jpeg[1] & 0xFF) == 0xD8;
 * }</pre>
 *
 * <p>Stateless and thread-safe; generation is O(length), several GB/s on one core.
 */
public final class SyntheticJpeg {

    private static final byte[] APP0 = {
            (byte) 0xFF, (byte) 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
            0x00, 0x00};
    /** The example luminance table of ITU-T T.81 Annex K, in zigzag order, quality 50. */
    private static final byte[] LUMINANCE = {
            16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37, 29, 40,
            58, 51, 61, 60, 57, 51, 56, 55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87, 95, 98, 103, 104,
            103, 62, 77, 113, 121, 112, 100, 120, 92, 101, 103, 99};
    private static final byte[] SOS = {
            (byte) 0xFF, (byte) 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00};

    private static final int SOF0_LENGTH = 19;
    private static final int DQT_LENGTH = 2 + 2 + 1 + 64;

    /** Bytes before the scan body. */
    public static final int HEADER_LENGTH = 2 + APP0.length + DQT_LENGTH + SOF0_LENGTH + SOS.length;
    /** Smallest length {@link #generate} accepts: header and EOI with an empty body. */
    public static final int MIN_LENGTH = HEADER_LENGTH + 2;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final long LOW_7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH = 0x8080808080808080L;

    private SyntheticJpeg() {
    }

    /**
     * A new array of {@code length} bytes.
     *
     * @throws IllegalArgumentException if the length is below {@link #MIN_LENGTH} or a side is not in 1..65535
     */
    public static byte[] generate(long seed, int width, int height, int length) {
        if (length < MIN_LENGTH) {
            throw new IllegalArgumentException("A synthetic JPEG needs at least " + MIN_LENGTH + " bytes, not "
                    + length);
        }
        byte[] out = new byte[length];
        fill(out, seed, width, height);
        return out;
    }

    /** Fills all of {@code target} with a synthetic JPEG of its length. */
    public static void fill(byte[] target, long seed, int width, int height) {
        if (width < 1 || width > 0xFFFF || height < 1 || height > 0xFFFF) {
            throw new IllegalArgumentException("JPEG sides must be 1..65535 pixels, not " + width + "x" + height);
        }
        if (target.length < MIN_LENGTH) {
            throw new IllegalArgumentException("A synthetic JPEG needs at least " + MIN_LENGTH + " bytes, not "
                    + target.length);
        }
        int at = 0;
        target[at++] = (byte) 0xFF;
        target[at++] = (byte) 0xD8;
        System.arraycopy(APP0, 0, target, at, APP0.length);
        at += APP0.length;
        target[at++] = (byte) 0xFF;
        target[at++] = (byte) 0xDB;
        target[at++] = 0;
        target[at++] = (byte) (DQT_LENGTH - 2);
        target[at++] = 0;
        System.arraycopy(LUMINANCE, 0, target, at, LUMINANCE.length);
        at += LUMINANCE.length;
        byte[] sof = {(byte) 0xFF, (byte) 0xC0, 0x00, 0x11, 0x08, (byte) (height >>> 8), (byte) height,
                (byte) (width >>> 8), (byte) width, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00};
        System.arraycopy(sof, 0, target, at, sof.length);
        at += sof.length;
        System.arraycopy(SOS, 0, target, at, SOS.length);
        at += SOS.length;
        int end = target.length - 2;
        fillBody(target, at, end, seed);
        target[end] = (byte) 0xFF;
        target[end + 1] = (byte) 0xD9;
    }

    private static void fillBody(byte[] target, int from, int to, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int at = from;
        for (; at + Long.BYTES <= to; at += Long.BYTES) {
            LONGS.set(target, at, withoutFF(random.nextLong()));
        }
        if (at < to) {
            long last = withoutFF(random.nextLong());
            for (; at < to; at++, last >>>= 8) {
                target[at] = (byte) last;
            }
        }
    }

    /** Turns every 0xFF byte of {@code x} into 0xFE, eight bytes at a time. */
    private static long withoutFF(long x) {
        // A byte is 0xFF exactly when its low seven bits plus one carry into bit 7 and bit 7 was already set; the
        // low-7 sum never carries into the next byte.
        long ff = ((x & LOW_7) + ONES) & x & HIGH;
        return x ^ (ff >>> 7);
    }
}
