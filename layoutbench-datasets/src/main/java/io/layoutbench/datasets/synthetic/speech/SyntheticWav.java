package io.layoutbench.datasets.synthetic.speech;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.datasets.synthetic.Hashing;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A RIFF/WAVE file of 16-bit mono PCM at 16 kHz, generated on read: a voiced buzz (a speaker's fundamental and two
 * harmonics, and a formant-like tone) under a syllable-rate envelope, with a little white noise. Cheap to make, not
 * silent, not compressible to nothing, and every byte is a pure function of the clip's key and its offset, so any
 * range is generated on its own in O(length) and nothing is kept between reads.
 *
 * <p>The 44-byte header is the canonical one: {@code RIFF}, {@code WAVE}, a 16-byte {@code fmt } chunk (PCM, 1
 * channel, 16,000 Hz, 32,000 bytes/s, block align 2, 16 bits) and the {@code data} chunk. Arithmetic is integer
 * (the sine table is built with StrictMath), so the bytes are the same on every JVM. Thread-safe.
 */
final class SyntheticWav implements Blob {

    static final int HEADER_BYTES = 44;
    private static final int BYTES_PER_SAMPLE = 2;

    private static final int TABLE_BITS = 12;
    private static final int TABLE_MASK = (1 << TABLE_BITS) - 1;
    /** Phases are fixed point: table index in the high bits, 20 bits of fraction. */
    private static final int FRACTION_BITS = 20;
    private static final short[] SINE = sineTable();

    private final long key;
    private final int samples;
    private final long[] increments;
    private final long envelopeIncrement;

    /**
     * @param key     what decides the noise and the tones' detail: one per clip
     * @param samples number of PCM samples
     * @param pitchHz the voice's fundamental
     */
    SyntheticWav(long key, int samples, double pitchHz) {
        if (samples < 0) {
            throw new IllegalArgumentException("A clip cannot have " + samples + " samples");
        }
        this.key = key;
        this.samples = samples;
        double formant = 400 + 500 * SpeechPlan.unit(Hashing.mix64(key, 1));
        // |sin| repeats twice per period: half the syllable rate of 3.5 to 5 per second.
        double syllables = 3.5 + 1.5 * SpeechPlan.unit(Hashing.mix64(key, 2));
        this.increments = new long[] {increment(pitchHz), increment(2 * pitchHz), increment(3 * pitchHz),
            increment(formant)};
        this.envelopeIncrement = increment(syllables / 2);
    }

    /** Size of a WAV file of {@code samples} samples. */
    static long sizeOf(int samples) {
        return HEADER_BYTES + (long) BYTES_PER_SAMPLE * samples;
    }

    @Override
    public long size() {
        return sizeOf(samples);
    }

    @Override
    public ByteBuffer read(long offset, int length) {
        Blob.checkRange(offset, length, size(), this);
        ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        long end = offset + length;
        long at = offset;
        if (at < HEADER_BYTES) {
            ByteBuffer header = header();
            int headerEnd = (int) Math.min(end, HEADER_BYTES);
            out.put(header.slice((int) at, headerEnd - (int) at));
            at = headerEnd;
        }
        if (at < end && ((at - HEADER_BYTES) & 1) == 1) {
            out.put((byte) (pcm((at - HEADER_BYTES) >>> 1) >> 8));
            at++;
        }
        for (; at + 1 < end; at += BYTES_PER_SAMPLE) {
            out.putShort(pcm((at - HEADER_BYTES) >>> 1));
        }
        if (at < end) {
            out.put((byte) pcm((at - HEADER_BYTES) >>> 1));
        }
        return out.flip().asReadOnlyBuffer();
    }

    @Override
    public String toString() {
        return "synthetic WAV of " + samples + " samples";
    }

    private ByteBuffer header() {
        int dataBytes = BYTES_PER_SAMPLE * samples;
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.put(new byte[] {'R', 'I', 'F', 'F'}).putInt(HEADER_BYTES - 8 + dataBytes)
                .put(new byte[] {'W', 'A', 'V', 'E'})
                .put(new byte[] {'f', 'm', 't', ' '}).putInt(16)
                .putShort((short) 1)                                          // PCM
                .putShort((short) 1)                                          // mono
                .putInt(ClipDurations.SAMPLE_RATE)
                .putInt(ClipDurations.SAMPLE_RATE * BYTES_PER_SAMPLE)         // bytes per second
                .putShort((short) BYTES_PER_SAMPLE)                           // block align
                .putShort((short) (8 * BYTES_PER_SAMPLE))                     // bits per sample
                .put(new byte[] {'d', 'a', 't', 'a'}).putInt(dataBytes);
        return header.flip();
    }

    /** Sample {@code t}: about -13 dBFS at the envelope's peaks, plus noise at about -42 dBFS. */
    private short pcm(long t) {
        int envelope = Math.abs(SINE[phase(t, envelopeIncrement)]);
        long voice = 4L * SINE[phase(t, increments[0])] + 2L * SINE[phase(t, increments[1])]
                + SINE[phase(t, increments[2])] + 2L * SINE[phase(t, increments[3])];
        // At most 9 x 32,767 before the envelope: a fortieth of that peaks near 7,400.
        long shaped = (voice * envelope >> 15) / 40;
        int noise = (int) (Hashing.mix64(key + t) >>> 55) - 256;
        return (short) (shaped + noise);
    }

    private static int phase(long t, long increment) {
        return (int) ((t * increment) >>> FRACTION_BITS) & TABLE_MASK;
    }

    private static long increment(double hz) {
        return Math.round(hz * (1L << (TABLE_BITS + FRACTION_BITS)) / ClipDurations.SAMPLE_RATE);
    }

    private static short[] sineTable() {
        short[] table = new short[1 << TABLE_BITS];
        for (int i = 0; i < table.length; i++) {
            table[i] = (short) Math.round(32_767 * StrictMath.sin(2 * StrictMath.PI * i / table.length));
        }
        return table;
    }
}
