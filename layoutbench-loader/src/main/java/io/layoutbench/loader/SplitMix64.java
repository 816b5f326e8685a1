package io.layoutbench.loader;

/**
 * SplitMix64 (Steele, Lea and Flood), written out so that a seed gives the same shuffles on every JVM and version:
 * {@link java.util.Random} and {@link java.util.SplittableRandom} promise no stable sequence across releases, and a
 * loader's order must not change when a training job moves to another JDK mid-run.
 */
final class SplitMix64 {

    private long state;

    SplitMix64(long seed) {
        this.state = seed;
    }

    /** A generator for the values {@code parts}, mixed so that nearby values give unrelated streams. */
    static SplitMix64 of(long... parts) {
        long seed = 0x6a09e667f3bcc909L;
        for (long part : parts) {
            seed = mix(seed ^ mix(part + 0x9e3779b97f4a7c15L));
        }
        return new SplitMix64(seed);
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    long nextLong() {
        state += 0x9e3779b97f4a7c15L;
        return mix(state);
    }

    /** Uniform in [0, bound), without modulo bias (rejection on 31-bit draws, as {@code Random.nextInt}). */
    int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be > 0, got " + bound);
        }
        while (true) {
            int bits = (int) (nextLong() >>> 33);
            int value = bits % bound;
            if (bits - value + (bound - 1) >= 0) {
                return value;
            }
        }
    }

    /** The state, to continue this sequence elsewhere. */
    long state() {
        return state;
    }
}
