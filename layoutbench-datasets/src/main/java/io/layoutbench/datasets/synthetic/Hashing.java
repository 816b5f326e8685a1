package io.layoutbench.datasets.synthetic;

/**
 * Stateless 64-bit mixing and keyed permutations of index ranges: what makes a synthetic dataset a pure function
 * of (scale, seed, index) with no per-sample state. Shared by the synthetic sources ({@link SyntheticImageNet},
 * {@link io.layoutbench.datasets.synthetic.speech.SyntheticSpeech}); thread-safe.
 *
 * <pre>{@code
 * long key = Hashing.mix64(seed, 7);                  // a per-purpose key from the seed
 * double u = (Hashing.mix64(key, index) >>> 11) * 0x1.0p-53;   // uniform in [0, 1)
 * long slot = Hashing.permute(index, 1_000, key);     // a keyed shuffle of [0, 1000), one index at a time
 * }</pre>
 */
public final class Hashing {

    private Hashing() {
    }

    /** The SplitMix64 finalizer (Stafford variant 13): a bijection of 64-bit values with good avalanche. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Mixes two values into one key; order matters. */
    public static long mix64(long a, long b) {
        return mix64(mix64(a) + 0x9E3779B97F4A7C15L * (b + 1));
    }

    /**
     * The image of {@code index} under a keyed bijection of {@code [0, n)}: a four-round Feistel network over the
     * smallest even bit width that covers {@code n}, with cycle walking back into range. O(1) expected (at most four
     * walks on average) and no table, so shuffling 1.28 M indices needs no memory.
     */
    public static long permute(long index, long n, long key) {
        if (index < 0 || index >= n) {
            throw new IndexOutOfBoundsException("Index " + index + " out of range [0, " + n + ")");
        }
        if (n <= 2) {
            return n == 2 && (mix64(key) & 1) == 1 ? 1 - index : index;
        }
        int bits = 64 - Long.numberOfLeadingZeros(n - 1);
        int half = (bits + 1) / 2;
        long mask = (1L << half) - 1;
        long x = index;
        do {
            long left = x >>> half;
            long right = x & mask;
            for (int round = 0; round < 4; round++) {
                long next = left ^ (mix64(right ^ key, round) & mask);
                left = right;
                right = next;
            }
            x = (left << half) | right;
        } while (x >= n);
        return x;
    }
}
