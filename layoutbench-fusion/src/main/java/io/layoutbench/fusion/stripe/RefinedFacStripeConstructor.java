package io.layoutbench.fusion.stripe;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Algorithm 1 ({@link FacStripeConstructor}) followed by a refinement pass, this library's attempt to beat the paper
 * at close to its speed. Never worse than Algorithm 1, since the pass only accepts improvements.
 *
 * <p><b>The pass.</b> Sort the stripes by block size and take each stripe with the next smaller one (and more, with
 * a larger {@code span}). Their items, together, are packed again by {@link ExactStripeSolver}'s branch and bound,
 * limited to {@code pairBudget} nodes, searching the placements of the {@value #SEARCHED_ITEMS} largest items and
 * placing the smaller ones best-fit at each leaf, and starting from the two stripes as they are; the bins keep
 * Algorithm 1's capacity, the largest item. Whatever packing (one stripe, two, or more) has a smaller sum of block
 * sizes replaces the pair. Pairs that cannot gain (their sum of block sizes already equals their items over k, or
 * their largest item) are skipped. Passes repeat until one changes nothing, at most {@code maxPasses} times.
 *
 * <p>Why it helps: Algorithm 1 fixes every stripe's block size to its largest item and spends the small items early,
 * so late stripes of similar-sized items waste room, and no block ever holds two large items. The repacking lets a
 * stripe grow past its largest item to hold pairs of items (a 62 MB and a 25 MB chunk beside an 87 MB one), and moves
 * small items to where they close gaps. Stateless and thread-safe.
 */
public final class RefinedFacStripeConstructor implements StripeConstructor {

    /** This constructor's name with the default settings. */
    public static final String NAME = "fac-refined";
    /** The name of {@link StripeConstructors#facRefinedThorough()}. */
    public static final String THOROUGH_NAME = "fac-refined-thorough";
    /** Default nodes of the branch and bound per pair of stripes. */
    public static final int DEFAULT_PAIR_BUDGET = 100;
    /** Default stripes each stripe is paired with: the next smaller one. */
    public static final int DEFAULT_SPAN = 1;
    /** Default most passes. */
    public static final int DEFAULT_MAX_PASSES = 2;
    /** The largest items of a pair that the search places; the rest, smaller, are placed best-fit. */
    static final int SEARCHED_ITEMS = 24;

    private final int pairBudget;
    private final int span;
    private final int maxPasses;
    private final String name;

    /** The refinement with the default budget, span and passes. */
    public RefinedFacStripeConstructor() {
        this(DEFAULT_PAIR_BUDGET, DEFAULT_SPAN, DEFAULT_MAX_PASSES, NAME);
    }

    /** The refinement with explicit settings, for studies of its speed and quality. */
    public RefinedFacStripeConstructor(int pairBudget, int span, int maxPasses) {
        this(pairBudget, span, maxPasses, NAME + "(" + pairBudget + "," + span + "," + maxPasses + ")");
    }

    RefinedFacStripeConstructor(int pairBudget, int span, int maxPasses, String name) {
        if (pairBudget < 1 || span < 1 || maxPasses < 0) {
            throw new IllegalArgumentException("pairBudget and span must be >= 1 and maxPasses >= 0, got "
                    + pairBudget + ", " + span + ", " + maxPasses);
        }
        this.pairBudget = pairBudget;
        this.span = span;
        this.maxPasses = maxPasses;
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public StripeAssignment construct(long[] sizes, int dataBlocks) {
        requireNonNull(sizes, "sizes is null");
        StripeConstructors.checkInput(sizes, dataBlocks);
        long[] copy = sizes.clone();
        int[] order = StripeConstructors.bySizeDescending(copy);
        int[][][] fac = FacStripeConstructor.pack(copy, order, dataBlocks);
        if (dataBlocks == 1 || fac.length < 2) {
            return StripeAssignment.trusted(copy, dataBlocks, fac);
        }
        long capacity = copy[order[0]];
        List<Stripe> stripes = new ArrayList<>(fac.length);
        for (int[][] bins : fac) {
            stripes.add(new Stripe(copy, bins));
        }
        for (int pass = 0; pass < maxPasses; pass++) {
            if (!refine(copy, dataBlocks, capacity, stripes)) {
                break;
            }
        }
        int[][][] result = new int[stripes.size()][][];
        for (int s = 0; s < stripes.size(); s++) {
            result[s] = stripes.get(s).bins;
        }
        return StripeAssignment.trusted(copy, dataBlocks, result);
    }

    /** One pass; whether it improved anything. */
    private boolean refine(long[] sizes, int k, long capacity, List<Stripe> stripes) {
        stripes.sort((a, b) -> Long.compare(b.blockSize, a.blockSize));
        boolean improved = false;
        for (int i = 0; i < stripes.size(); i++) {
            for (int d = 1; d <= span && i + d < stripes.size(); d++) {
                Stripe a = stripes.get(i);
                Stripe b = stripes.get(i + d);
                long current = a.blockSize + b.blockSize;
                long floor = Math.max(ExactStripeSolver.ceilDiv(a.load + b.load, k),
                        Math.max(a.largestItem, b.largestItem));
                if (current <= floor) {
                    continue;
                }
                List<Stripe> better = repack(sizes, k, capacity, a, b, current);
                if (better != null) {
                    stripes.remove(i + d);
                    stripes.remove(i);
                    stripes.addAll(i, better);
                    improved = true;
                }
            }
        }
        return improved;
    }

    /** The items of {@code a} and {@code b} packed with a smaller sum of block sizes, or null. */
    private List<Stripe> repack(long[] sizes, int k, long capacity, Stripe a, Stripe b, long current) {
        int[] items = new int[a.itemCount + b.itemCount];
        int n = 0;
        for (Stripe stripe : List.of(a, b)) {
            for (int[] bin : stripe.bins) {
                for (int item : bin) {
                    items[n++] = item;
                }
            }
        }
        long[] local = new long[n];
        for (int q = 0; q < n; q++) {
            local[q] = sizes[items[q]];
        }
        int[] order = StripeConstructors.bySizeDescending(local);
        int depth = Math.min(n, SEARCHED_ITEMS);
        ExactStripeSolver.Search search = new ExactStripeSolver.Search(local, order, k, depth, current,
                Math.max(pairBudget, 2L * depth), capacity, true);
        search.run();
        if (search.bestBins == null) {
            return null;
        }
        List<Stripe> result = new ArrayList<>(search.bestBins.length);
        for (int[][] bins : search.bestBins) {
            int[][] global = new int[k][];
            for (int bin = 0; bin < k; bin++) {
                global[bin] = Arrays.stream(bins[bin]).map(q -> items[q]).toArray();
            }
            result.add(new Stripe(sizes, global));
        }
        return result;
    }

    /** A stripe's bins with its block size, load and largest item. */
    private static final class Stripe {
        final int[][] bins;
        final long blockSize;
        final long load;
        final long largestItem;
        final int itemCount;

        Stripe(long[] sizes, int[][] bins) {
            this.bins = bins;
            long max = 0;
            long total = 0;
            long largest = 0;
            int count = 0;
            for (int[] bin : bins) {
                long binLoad = 0;
                for (int item : bin) {
                    binLoad += sizes[item];
                    largest = Math.max(largest, sizes[item]);
                }
                count += bin.length;
                max = Math.max(max, binLoad);
                total += binLoad;
            }
            this.blockSize = max;
            this.load = total;
            this.largestItem = largest;
            this.itemCount = count;
        }
    }
}
