package io.layoutbench.fusion.stripe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Growing stripes of k growing bins of item indices, for the algorithms of this package. Not thread-safe. */
final class IntBins {
    private final int k;
    private final List<int[][]> stripes = new ArrayList<>();
    private final List<int[]> counts = new ArrayList<>();

    IntBins(int k) {
        this.k = k;
    }

    void openStripe() {
        int[][] bins = new int[k][];
        for (int b = 0; b < k; b++) {
            bins[b] = new int[2];
        }
        stripes.add(bins);
        counts.add(new int[k]);
    }

    /** Adds {@code item} to bin {@code bin} of the last stripe. */
    void add(int bin, int item) {
        int[][] bins = stripes.get(stripes.size() - 1);
        int[] count = counts.get(counts.size() - 1);
        if (count[bin] == bins[bin].length) {
            bins[bin] = Arrays.copyOf(bins[bin], bins[bin].length * 2);
        }
        bins[bin][count[bin]++] = item;
    }

    int[][][] toArray() {
        int[][][] result = new int[stripes.size()][k][];
        for (int s = 0; s < stripes.size(); s++) {
            for (int b = 0; b < k; b++) {
                result[s][b] = Arrays.copyOf(stripes.get(s)[b], counts.get(s)[b]);
            }
        }
        return result;
    }
}
