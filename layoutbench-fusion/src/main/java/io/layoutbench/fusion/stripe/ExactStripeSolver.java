package io.layoutbench.fusion.stripe;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * The optimum of the stripe-construction problem as the Fusion paper states it (its ILP, solved there with Gurobi):
 * assign every item to one of k bins of some stripe, no bin holding more than the largest item, minimising the sum
 * over stripes of their fullest bin. Found by depth-first branch and bound, for small inputs.
 *
 * <p><b>Search.</b> Items are placed largest first, each into a bin of an open stripe or alone into a new stripe,
 * cheapest placement (least growth of the stripe's block size, then least room left) first. Bins of a stripe with
 * equal loads, and stripes with equal loads, are interchangeable, so only one of each is tried. The incumbent starts
 * as the better answer of the two {@link RefinedFacStripeConstructor} settings. A node is cut when its bound reaches the incumbent.
 *
 * <p><b>Bound.</b> With block sizes {@code c_j} so far, the room left in bins is {@code S}, and the items still to
 * place add up to {@code R}. Growing a stripe's block size by one byte, or opening a stripe with a block size of one
 * byte, makes k bytes of room, so any completion costs at least {@code ceil((R - S) / k)} more, and at least the
 * cheapest placement of the next item. (Over a whole search this alone is just the data over k; the search is what
 * makes the items indivisible.)
 *
 * <p><b>Budget.</b> The search stops after a number of nodes. Then the answer is the best assignment found, not
 * proven optimal, with a lower bound: the same search over only the largest {@code L} items, each leaf valued by the
 * bound above for the rest, proves that no assignment costs less than its cheapest leaf; {@code L} grows while the
 * budget lasts. Stateless and thread-safe.
 *
 * <pre>{@code
 * ExactStripeSolver.Result result = new ExactStripeSolver(10_000_000).solve(sizes, 6);
 * if (result.optimal()) { ... } else { long atLeast = result.lowerBound(); }
 * }</pre>
 */
public final class ExactStripeSolver implements StripeConstructor {

    /** This solver's name. */
    public static final String NAME = "optimal";
    /** Nodes searched by default before giving up on a proof. */
    public static final long DEFAULT_NODE_BUDGET = 20_000_000L;

    private final long nodeBudget;

    /** A solver that searches at most {@code nodeBudget} nodes per run. */
    public ExactStripeSolver(long nodeBudget) {
        if (nodeBudget < 1) {
            throw new IllegalArgumentException("The node budget must be at least 1, got " + nodeBudget);
        }
        this.nodeBudget = nodeBudget;
    }

    /**
     * What the search found.
     *
     * @param best       the best assignment found
     * @param optimal    whether {@code best} is proven optimal
     * @param lowerBound no assignment has a smaller {@link StripeAssignment#blockSizeSum()}; equal to the best's when
     *                   optimal
     * @param nodes      nodes searched, over all runs
     */
    public record Result(StripeAssignment best, boolean optimal, long lowerBound, long nodes) {
        public Result {
            requireNonNull(best, "best is null");
        }

        /** The lower bound as an {@link StripeAssignment#extraOverhead() extra overhead}. */
        public double lowerBoundExtraOverhead() {
            long data = best.dataBytes();
            return data == 0 ? 0 : (double) best.dataBlocks() * lowerBound / data - 1;
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public StripeAssignment construct(long[] sizes, int dataBlocks) {
        return solve(sizes, dataBlocks).best();
    }

    /** Searches for the optimum of {@code sizes} in stripes of {@code dataBlocks} bins. */
    public Result solve(long[] sizes, int dataBlocks) {
        requireNonNull(sizes, "sizes is null");
        StripeConstructors.checkInput(sizes, dataBlocks);
        StripeAssignment refined = StripeConstructors.facRefined().construct(sizes, dataBlocks);
        StripeAssignment thorough = StripeConstructors.facRefinedThorough().construct(sizes, dataBlocks);
        StripeAssignment start = thorough.blockSizeSum() < refined.blockSizeSum() ? thorough : refined;
        return solve(sizes, dataBlocks, start, nodeBudget, true);
    }

    /**
     * Searches from the incumbent {@code start}; with {@code bound} false, returns as soon as the full search ends
     * or runs out of budget, without the lower-bound searches.
     */
    static Result solve(long[] sizes, int dataBlocks, StripeAssignment start, long nodeBudget, boolean bound) {
        return solve(sizes, dataBlocks, start, nodeBudget, bound,
                Arrays.stream(sizes).max().orElse(0));
    }

    /** As above, with bins of at most {@code capacity} bytes (at least the largest item). */
    static Result solve(long[] sizes, int dataBlocks, StripeAssignment start, long nodeBudget, boolean bound,
            long capacity) {
        if (sizes.length == 0) {
            return new Result(start, true, 0, 0);
        }
        int[] order = StripeConstructors.bySizeDescending(sizes);
        long total = Arrays.stream(sizes).sum();
        long trivial = Math.max(ceilDiv(total, dataBlocks), sizes[order[0]]);
        if (start.blockSizeSum() <= trivial) {
            return new Result(start, true, start.blockSizeSum(), 0);
        }
        Search full = new Search(sizes, order, dataBlocks, order.length, start.blockSizeSum(), nodeBudget, capacity);
        boolean complete = full.run();
        long nodes = full.nodes;
        StripeAssignment best = full.bestBins == null ? start
                : StripeAssignment.trusted(sizes.clone(), dataBlocks, full.bestBins);
        if (complete) {
            return new Result(best, true, best.blockSizeSum(), nodes);
        }
        long lowerBound = trivial;
        for (int depth = Math.min(4, order.length); bound && depth < order.length; depth += 4) {
            Search partial = new Search(sizes, order, dataBlocks, depth, best.blockSizeSum(), nodeBudget, capacity);
            boolean done = partial.run();
            nodes += partial.nodes;
            if (!done) {
                break;
            }
            lowerBound = Math.max(lowerBound, partial.bestValue);
        }
        return new Result(best, lowerBound >= best.blockSizeSum(), Math.min(lowerBound, best.blockSizeSum()), nodes);
    }

    static long ceilDiv(long a, long b) {
        return a <= 0 ? 0 : (a + b - 1) / b;
    }

    /**
     * One depth-first search over the largest {@code depth} items. When {@code depth} is less than the number of
     * items, a leaf is valued either by the lower bound (for proofs) or, with {@code greedyLeaves}, by placing the
     * other items best-fit and taking the cost (for a heuristic that searches only the large items).
     */
    static final class Search {
        private final long[] sizes;
        private final int[] order;
        private final long[] s;
        private final long[] remaining;
        private final int k;
        private final int depth;
        private final boolean greedyLeaves;
        private final long capacity;
        private final long budget;
        private final long[][] loads;
        private final long[] caps;
        private final int[] placedStripe;
        private final int[] placedBin;
        private final long[][] optionDeltas;
        private final long[][] optionRoom;
        private final int[][] optionTargets;
        private int stripes;
        long nodes;
        long bestValue;
        int[][][] bestBins;

        Search(long[] sizes, int[] order, int k, int depth, long incumbent, long budget, long capacity) {
            this(sizes, order, k, depth, incumbent, budget, capacity, false);
        }

        Search(long[] sizes, int[] order, int k, int depth, long incumbent, long budget, long capacity,
                boolean greedyLeaves) {
            this.sizes = sizes;
            this.order = order;
            int n = order.length;
            this.s = new long[n];
            for (int i = 0; i < n; i++) {
                s[i] = sizes[order[i]];
            }
            this.remaining = new long[n + 1];
            for (int i = n - 1; i >= 0; i--) {
                remaining[i] = remaining[i + 1] + s[i];
            }
            this.k = k;
            this.depth = depth;
            this.greedyLeaves = greedyLeaves;
            this.capacity = capacity;
            this.budget = budget;
            this.loads = new long[n][k];
            this.caps = new long[n];
            this.placedStripe = new int[n];
            this.placedBin = new int[n];
            // Options at depth i: a bin of each of at most i open stripes, or a new stripe.
            this.optionDeltas = new long[depth][];
            this.optionRoom = new long[depth][];
            this.optionTargets = new int[depth][];
            for (int i = 0; i < depth; i++) {
                int most = i * k + 1;
                optionDeltas[i] = new long[most];
                optionRoom[i] = new long[most];
                optionTargets[i] = new int[most];
            }
            this.bestValue = incumbent;
        }

        /** Whether the search finished within the budget. */
        boolean run() {
            try {
                place(0, 0);
                return true;
            } catch (BudgetExhausted e) {
                return false;
            }
        }

        private long bound(int i, long cost) {
            long room = 0;
            for (int j = 0; j < stripes; j++) {
                for (int b = 0; b < k; b++) {
                    room += caps[j] - loads[j][b];
                }
            }
            return cost + ceilDiv(remaining[i] - room, k);
        }

        private void place(int i, long cost) {
            if (++nodes > budget) {
                throw BudgetExhausted.INSTANCE;
            }
            long bound = bound(i, cost);
            if (bound >= bestValue) {
                return;
            }
            if (i == depth) {
                if (depth == order.length) {
                    bestValue = bound;
                    bestBins = snapshot();
                } else if (greedyLeaves) {
                    completeGreedily(i, cost);
                } else {
                    bestValue = bound;
                }
                return;
            }
            long size = s[i];
            long[] deltas = optionDeltas[i];
            long[] roomLeft = optionRoom[i];
            int[] targets = optionTargets[i];
            int options = 0;
            for (int j = 0; j < stripes; j++) {
                if (sameAsEarlierStripe(j)) {
                    continue;
                }
                for (int b = 0; b < k; b++) {
                    long load = loads[j][b] + size;
                    if (load > capacity || sameAsEarlierBin(j, b)) {
                        continue;
                    }
                    long delta = Math.max(0, load - caps[j]);
                    options = insert(deltas, roomLeft, targets, options, delta, Math.max(caps[j], load) - load,
                            j * k + b);
                }
            }
            options = insert(deltas, roomLeft, targets, options, size, 0, -1);
            for (int o = 0; o < options; o++) {
                long delta = deltas[o];
                if (cost + delta >= bestValue) {
                    break;   // options are sorted by delta
                }
                int target = targets[o];
                if (target < 0) {
                    int j = stripes++;
                    Arrays.fill(loads[j], 0);
                    loads[j][0] = size;
                    caps[j] = size;
                    placedStripe[i] = j;
                    placedBin[i] = 0;
                    place(i + 1, cost + size);
                    stripes--;
                } else {
                    int j = target / k;
                    int b = target % k;
                    long oldCap = caps[j];
                    loads[j][b] += size;
                    caps[j] = Math.max(oldCap, loads[j][b]);
                    placedStripe[i] = j;
                    placedBin[i] = b;
                    place(i + 1, cost + delta);
                    loads[j][b] -= size;
                    caps[j] = oldCap;
                }
            }
        }

        /**
         * Places items {@code from ..} best-fit (the bin, in any open stripe, with the least room left that holds the
         * item without growing; else the cheapest growth or a new stripe), keeps the result if it beats the best,
         * and undoes the placements.
         */
        private void completeGreedily(int from, long cost) {
            int openAtStart = stripes;
            long[][] savedLoads = new long[stripes][];
            long[] savedCaps = new long[stripes];
            for (int j = 0; j < stripes; j++) {
                savedLoads[j] = loads[j].clone();
                savedCaps[j] = caps[j];
            }
            long total = cost;
            for (int i = from; i < order.length && total < bestValue; i++) {
                long size = s[i];
                int bestStripe = -1;
                int bestBin = -1;
                long bestDelta = size;   // a new stripe
                long bestRoom = Long.MAX_VALUE;
                for (int j = 0; j < stripes; j++) {
                    for (int b = 0; b < k; b++) {
                        long load = loads[j][b] + size;
                        if (load > capacity) {
                            continue;
                        }
                        long delta = Math.max(0, load - caps[j]);
                        long room = Math.max(caps[j], load) - load;
                        if (delta < bestDelta || delta == bestDelta && room < bestRoom) {
                            bestDelta = delta;
                            bestRoom = room;
                            bestStripe = j;
                            bestBin = b;
                        }
                    }
                }
                if (bestStripe < 0) {
                    bestStripe = stripes++;
                    Arrays.fill(loads[bestStripe], 0);
                    caps[bestStripe] = 0;
                    bestBin = 0;
                }
                loads[bestStripe][bestBin] += size;
                caps[bestStripe] = Math.max(caps[bestStripe], loads[bestStripe][bestBin]);
                placedStripe[i] = bestStripe;
                placedBin[i] = bestBin;
                total += bestDelta;
            }
            if (total < bestValue) {
                bestValue = total;
                bestBins = snapshot();
            }
            stripes = openAtStart;
            for (int j = 0; j < openAtStart; j++) {
                System.arraycopy(savedLoads[j], 0, loads[j], 0, k);
                caps[j] = savedCaps[j];
            }
        }

        /** Inserts an option keeping the arrays sorted by (delta, room left); returns the new count. */
        private static int insert(long[] deltas, long[] room, int[] targets, int count, long delta, long roomLeft,
                int target) {
            int p = count;
            while (p > 0 && (deltas[p - 1] > delta || deltas[p - 1] == delta && room[p - 1] > roomLeft)) {
                deltas[p] = deltas[p - 1];
                room[p] = room[p - 1];
                targets[p] = targets[p - 1];
                p--;
            }
            deltas[p] = delta;
            room[p] = roomLeft;
            targets[p] = target;
            return count + 1;
        }

        private boolean sameAsEarlierBin(int j, int b) {
            for (int e = 0; e < b; e++) {
                if (loads[j][e] == loads[j][b]) {
                    return true;
                }
            }
            return false;
        }

        private boolean sameAsEarlierStripe(int j) {
            for (int e = 0; e < j; e++) {
                if (caps[e] == caps[j] && sameLoads(loads[e], loads[j])) {
                    return true;
                }
            }
            return false;
        }

        private boolean sameLoads(long[] a, long[] b) {
            long sumA = 0;
            long sumB = 0;
            for (int q = 0; q < k; q++) {
                sumA += a[q];
                sumB += b[q];
            }
            if (sumA != sumB) {
                return false;
            }
            long[] x = a.clone();
            long[] y = b.clone();
            Arrays.sort(x);
            Arrays.sort(y);
            return Arrays.equals(x, y);
        }

        private int[][][] snapshot() {
            int[][] counts = new int[stripes][k];
            for (int i = 0; i < order.length; i++) {
                counts[placedStripe[i]][placedBin[i]]++;
            }
            int[][][] bins = new int[stripes][k][];
            for (int j = 0; j < stripes; j++) {
                for (int b = 0; b < k; b++) {
                    bins[j][b] = new int[counts[j][b]];
                    counts[j][b] = 0;
                }
            }
            for (int i = 0; i < order.length; i++) {
                int j = placedStripe[i];
                int b = placedBin[i];
                bins[j][b][counts[j][b]++] = order[i];
            }
            return bins;
        }
    }

    private static final class BudgetExhausted extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final BudgetExhausted INSTANCE = new BudgetExhausted();

        private BudgetExhausted() {
            super("node budget exhausted", null, false, false);
        }
    }
}
