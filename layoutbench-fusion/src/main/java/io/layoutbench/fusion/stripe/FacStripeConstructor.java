package io.layoutbench.fusion.stripe;

import static java.util.Objects.requireNonNull;

/**
 * The Fusion paper's stripe construction, its Algorithm 1, exactly. Items are sorted by size, largest first (equal
 * sizes by index). While items are left: open a stripe of k empty bins, put the largest unassigned item alone in the
 * first bin, which fixes the stripe's block size; then scan the other unassigned items in order and put each into
 * the least occupied bin other than the first where it fits (lowest index among equals), skipping it when it fits
 * nowhere. Seal the stripe.
 *
 * <p>The paper's "least occupied bin where the item fits" is the least occupied bin, when the item fits there: all
 * bins of a stripe have the same capacity, so it has the most room. A scan stops early once the most room left in
 * the stripe is smaller than the smallest unassigned item. Time O(stripes x items); stateless and thread-safe.
 */
public final class FacStripeConstructor implements StripeConstructor {

    /** This constructor's name. */
    public static final String NAME = "fac";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public StripeAssignment construct(long[] sizes, int dataBlocks) {
        requireNonNull(sizes, "sizes is null");
        StripeConstructors.checkInput(sizes, dataBlocks);
        int[] order = StripeConstructors.bySizeDescending(sizes);
        return StripeAssignment.trusted(sizes.clone(), dataBlocks, pack(sizes, order, dataBlocks));
    }

    /** Algorithm 1 over the items {@code order} (sorted by size, descending): bins[stripe][bin] of item indices. */
    static int[][][] pack(long[] sizes, int[] order, int k) {
        int n = order.length;
        // A doubly linked list of unassigned positions in order, with sentinels -1 (head) and n (tail).
        int[] next = new int[n + 1];
        int[] prev = new int[n + 1];
        for (int p = 0; p < n; p++) {
            next[p] = p + 1;
            prev[p + 1] = p;
        }
        int head = n == 0 ? n : 0;
        prev[0] = -1;
        IntBins stripes = new IntBins(k);
        long[] loads = new long[k];
        while (head != n) {
            int first = head;
            head = unlink(first, next, prev, head);
            long cap = sizes[order[first]];
            stripes.openStripe();
            stripes.add(0, order[first]);
            java.util.Arrays.fill(loads, 0);
            loads[0] = cap;
            for (int p = head; p != n; ) {
                int following = next[p];
                int bin = leastOccupied(loads);
                if (bin < 0) {
                    break;   // k = 1: the first bin is the only one
                }
                long size = sizes[order[p]];
                if (loads[bin] + size <= cap) {
                    loads[bin] += size;
                    stripes.add(bin, order[p]);
                    head = unlink(p, next, prev, head);
                    bin = leastOccupied(loads);
                }
                int smallest = prev[n];
                if (smallest < 0 || cap - loads[bin] < sizes[order[smallest]]) {
                    break;   // no unassigned item fits anywhere any more
                }
                p = following;
            }
        }
        return stripes.toArray();
    }

    /** The least occupied bin other than the first (lowest index among equals), or -1 when k is 1. */
    private static int leastOccupied(long[] loads) {
        int best = -1;
        for (int b = 1; b < loads.length; b++) {
            if (best < 0 || loads[b] < loads[best]) {
                best = b;
            }
        }
        return best;
    }

    private static int unlink(int p, int[] next, int[] prev, int head) {
        int after = next[p];
        int before = prev[p];
        if (before >= 0) {
            next[before] = after;
        }
        prev[after] = before;
        return p == head ? after : head;
    }
}
