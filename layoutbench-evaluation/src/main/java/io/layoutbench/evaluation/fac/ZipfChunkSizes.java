package io.layoutbench.evaluation.fac;

import java.util.SplittableRandom;

/**
 * Synthetic column-chunk sizes for the overhead study, as the Fusion paper describes them: "chunk sizes between 1MB
 * to 100MB, chosen from a Zipfian distribution" with exponent 0 (uniform), 0.5 or 0.99.
 *
 * <p>Exactly: a rank {@code r} in 1..100 is drawn with probability proportional to {@code r^-s}; the size is
 * {@code floor((1 + (r - 1 + u) * 0.99) MiB)} with {@code u} uniform in [0, 1), so rank r covers the r-th
 * hundredth of [1 MiB, 100 MiB) and sizes are spread within it rather than equal (equal sizes would pack
 * unrealistically well). Rank 1 (the smallest sizes) is the most likely when s > 0. Deterministic per seed.
 *
 * <pre>{@code
 * long[] sizes = new ZipfChunkSizes(0.99).draw(500, new SplittableRandom(42));
 * }</pre>
 */
public final class ZipfChunkSizes {

    /** Number of ranks. */
    public static final int RANKS = 100;
    private static final long MIB = 1L << 20;

    private final double exponent;
    private final double[] cumulative;

    /** Sizes with Zipf exponent {@code exponent} (0 is uniform). */
    public ZipfChunkSizes(double exponent) {
        if (!(exponent >= 0)) {
            throw new IllegalArgumentException("The Zipf exponent must be >= 0, got " + exponent);
        }
        this.exponent = exponent;
        this.cumulative = new double[RANKS];
        double total = 0;
        for (int r = 1; r <= RANKS; r++) {
            total += Math.pow(r, -exponent);
            cumulative[r - 1] = total;
        }
        for (int i = 0; i < RANKS; i++) {
            cumulative[i] /= total;
        }
    }

    /** The exponent. */
    public double exponent() {
        return exponent;
    }

    /** {@code count} sizes in bytes. */
    public long[] draw(int count, SplittableRandom random) {
        long[] sizes = new long[count];
        for (int i = 0; i < count; i++) {
            double u = random.nextDouble();
            int found = java.util.Arrays.binarySearch(cumulative, u);
            // The first rank whose cumulative weight is above u, 0-based.
            int index = Math.min(found >= 0 ? found + 1 : -found - 1, RANKS - 1);
            sizes[i] = (long) ((1 + (index + random.nextDouble()) * 0.99) * MIB);
        }
        return sizes;
    }
}
