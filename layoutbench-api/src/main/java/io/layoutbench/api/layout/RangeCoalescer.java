package io.layoutbench.api.layout;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.network.NetworkProfile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Merges byte ranges that lie close together into fewer, larger requests, as object-store readers do: one request
 * costs tens of milliseconds of latency, so reading a small gap is cheaper than a second request. The break-even
 * gap is first-byte latency x bandwidth ({@link #breakEvenGap}); in dollars, a GET costs as much as
 * {@code getPrice / transferPricePerByte} bytes ({@link #breakEvenGapForCost}).
 *
 * <pre>{@code
 * List<RangeCoalescer.Merged> requests = RangeCoalescer.coalesce(
 *         List.of(ByteRange.of(0, 100), ByteRange.of(150, 50), ByteRange.of(10_000, 10)), 64, 1 << 20);
 * // two requests: [0, 200) serving ranges 0 and 1, and [10000, 10010) serving range 2
 * }</pre>
 *
 * <p>Thread-safe: it has no state.
 */
public final class RangeCoalescer {

    private RangeCoalescer() {
    }

    /**
     * The gap at which reading through costs as much time as a new request: first-byte latency x per-connection
     * bandwidth.
     *
     * @param firstByteSeconds    median time to first byte of a request
     * @param bytesPerSecond      per-connection throughput
     */
    public static long breakEvenGap(double firstByteSeconds, double bytesPerSecond) {
        if (!(firstByteSeconds >= 0) || !(bytesPerSecond > 0)) {
            throw new IllegalArgumentException("Need firstByteSeconds >= 0 and bytesPerSecond > 0, got "
                    + firstByteSeconds + " and " + bytesPerSecond);
        }
        double gap = firstByteSeconds * bytesPerSecond;
        return gap >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) gap;
    }

    /**
     * The gap at which reading through costs as many dollars as a new request: GET price / transfer price per byte.
     *
     * @param dollarsPerGet   price of one GET (S3 Standard: 0.0004 / 1000)
     * @param dollarsPerByte  price of one transferred byte (0.09 / 1e9)
     */
    public static long breakEvenGapForCost(double dollarsPerGet, double dollarsPerByte) {
        if (!(dollarsPerGet >= 0) || !(dollarsPerByte > 0)) {
            throw new IllegalArgumentException("Need dollarsPerGet >= 0 and dollarsPerByte > 0, got "
                    + dollarsPerGet + " and " + dollarsPerByte);
        }
        return (long) (dollarsPerGet / dollarsPerByte);
    }

    /**
     * One request: the range to fetch and the positions, in the caller's list, of the ranges it serves.
     *
     * @param range   the bytes to fetch
     * @param members indices into the list given to {@link #coalesce}, ascending by offset
     */
    public record Merged(ByteRange range, List<Integer> members) {

        public Merged {
            requireNonNull(range, "range is null");
            members = List.copyOf(requireNonNull(members, "members is null"));
        }
    }

    /** Largest merged read optimized retrieval ever sends (AWS suggests 8-16 MB byte ranges). */
    public static final long DEFAULT_MAX_MERGED_BYTES = 16L << 20;

    /**
     * The largest merged read for a query: {@link #DEFAULT_MAX_MERGED_BYTES}, but (at least 64 KiB) no larger than
     * <ul>
     *   <li>what one connection receives in a first-byte latency ({@code latency x perConnection}, 1.73 MB on the
     *       presets): a larger read spends longer on its one connection than the latency a second request would
     *       cost, so two reads side by side finish sooner (at mini, 4.5 MB reads made L2's Q4 1.4x slower than
     *       reads of 1 MiB);</li>
     *   <li>what the byte budget lets reads of that size fill the link with. Reads of s bytes fill it with the
     *       bandwidth-delay product plus {@code s x peak / perConnection} bytes in flight
     *       ({@link QueryOptions#readsInFlight}), so the budget holds them up to
     *       {@code s = (maxBufferedBytes - BDP) x perConnection / peak}: 4.5 MB on t3.medium with 64 MiB. Larger
     *       reads would leave the budget room for too few requests in flight, and the fewer, larger reads then run
     *       slower than the unmerged ones (seen at c8gb.large: 16 MB reads made Q8 3.6x slower). A query capped
     *       below that many reads may use its share of the budget, {@code maxBufferedBytes / maxConcurrency}. A
     *       budget below the bandwidth-delay product (c8gb.large: 75 MB) fills the link with no read size; merged
     *       reads then keep the budget's share of {@link QueryOptions#UNLIMITED_NETWORK_READS} reads (1 MiB of
     *       64 MiB), as
     *       they did before concurrency came from the network (64 KiB reads there made Q4 1.5x slower).</li>
     * </ul>
     * Over a network with no latency: the budget's share of {@link QueryOptions#UNLIMITED_NETWORK_READS} reads.
     */
    public static long maxMergedBytesFor(QueryOptions options) {
        NetworkProfile network = options.network();
        double budget = options.maxBufferedBytes();
        double peak = network.host().burstBytesPerSecond();
        double share;
        if (network.firstByteLatency().isZero() || Double.isInfinite(peak)) {
            share = budget / Math.min(options.maxConcurrency(), QueryOptions.UNLIMITED_NETWORK_READS);
        } else {
            double perConnection = network.connectionBytesPerSecond();
            double fillsLink = (budget - network.bandwidthDelayProduct()) * perConnection / peak;
            double withinLatency = network.firstByteLatency().toNanos() / 1e9 * perConnection;
            share = Math.min(withinLatency, fillsLink > 0 ? Math.max(fillsLink, budget / options.maxConcurrency())
                    : budget / Math.min(options.maxConcurrency(), QueryOptions.UNLIMITED_NETWORK_READS));
        }
        return (long) Math.max(64L << 10, Math.min(DEFAULT_MAX_MERGED_BYTES, share));
    }

    /**
     * The coalescing gap a query should use: the explicit {@link QueryOptions#coalesceGapBytes()}, or one derived
     * from its network and objective. For cost it is the GET price over the transfer price per byte (S3 Standard
     * prices). For time, with C requests in flight sharing the host's bandwidth B, a query takes about
     * {@code max(bytes / B, requests x latency / C)}: reading through a gap of g bytes costs {@code g / B}, a
     * separate request costs {@code latency / C}, so the break-even gap is {@code latency x B / C}, where each
     * connection's share {@code B / C} is capped by the per-connection throughput. B is the burst rate: a query
     * runs well within an instance's burst credit. A network with no latency gives 0: only touching ranges merge.
     */
    public static long gapFor(QueryOptions options) {
        if (options.coalesceGapBytes() != QueryOptions.DERIVED_GAP) {
            return options.coalesceGapBytes();
        }
        if (options.objective() == QueryOptions.Objective.COST) {
            Prices prices = Prices.s3Standard();
            return breakEvenGapForCost(prices.getPer1000() / 1000, prices.transferPerGb() / 1e9);
        }
        NetworkProfile network = options.network();
        double latency = network.firstByteLatency().toNanos() / 1e9;
        int connections = Math.max(1, Math.min(options.maxConcurrency(), network.maxConnections()));
        double share = Math.min(network.connectionBytesPerSecond(),
                network.host().burstBytesPerSecond() / connections);
        if (latency == 0 || Double.isInfinite(share)) {
            return 0;
        }
        return breakEvenGap(latency, share);
    }

    /**
     * The gap to coalesce a query's ranges with when it may read at most {@link QueryOptions#maxReadAmplification()}
     * times the bytes its ranges need: {@code maxGap}, lowered until the gaps it lets a query read through fit the
     * budget. Every merge saves one request whatever the gap's size, so spending the budget on the smallest gaps
     * first saves the most requests; that is a single threshold over all of the query's gaps.
     *
     * <pre>{@code
     * // ranges of 100 bytes with gaps of 10, 20 and 500 bytes; a 10% budget is 40 bytes
     * long gap = RangeCoalescer.gapWithinBudget(List.of(List.of(ByteRange.of(0, 100), ByteRange.of(110, 100),
     *         ByteRange.of(230, 100), ByteRange.of(830, 100))), 1 << 20, 1.1);   // 20: merges the first three
     * }</pre>
     *
     * @param rangesPerObject the ranges the query needs, one list per object (gaps only count within an object)
     * @param maxGap          the gap the objective favours ({@link #gapFor})
     * @param maxAmplification bytes read over the bytes needed, at most: 1 or more, or infinite
     * @return a gap between 0 and {@code maxGap}
     */
    public static long gapWithinBudget(List<List<ByteRange>> rangesPerObject, long maxGap, double maxAmplification) {
        requireNonNull(rangesPerObject, "rangesPerObject is null");
        if (maxGap < 0 || !(maxAmplification >= 1)) {
            throw new IllegalArgumentException("maxGap must be >= 0 and maxAmplification >= 1, got " + maxGap
                    + " and " + maxAmplification);
        }
        if (maxGap == 0 || maxAmplification == Double.POSITIVE_INFINITY) {
            return maxGap;
        }
        long needed = 0;
        long[] gaps = new long[16];
        int count = 0;
        for (List<ByteRange> ranges : rangesPerObject) {
            List<ByteRange> sorted = new ArrayList<>(requireNonNull(ranges, "a list of ranges is null"));
            sorted.sort(null);
            ByteRange span = null;
            for (ByteRange next : sorted) {
                if (span != null && next.offset() <= span.end()) {
                    span = span.span(next);         // overlapping or touching: one range, no gap to pay for
                    continue;
                }
                if (span != null) {
                    needed += span.length();
                    long gap = next.offset() - span.end();
                    if (gap <= maxGap) {
                        if (count == gaps.length) {
                            gaps = Arrays.copyOf(gaps, count * 2);
                        }
                        gaps[count++] = gap;
                    }
                }
                span = next;
            }
            if (span != null) {
                needed += span.length();
            }
        }
        double budget = (maxAmplification - 1) * needed;
        Arrays.sort(gaps, 0, count);
        long spent = 0;
        long threshold = 0;
        int i = 0;
        while (i < count) {
            // Gaps of one size are all read through or none is: the threshold cannot split them.
            long size = gaps[i];
            long group = 0;
            while (i < count && gaps[i] == size) {
                group += size;
                i++;
            }
            if (spent + group > budget) {
                break;
            }
            spent += group;
            threshold = size;
        }
        return threshold;
    }

    /**
     * Groups {@code ranges} into requests: sorted by offset, a range joins the current request when the gap to it
     * is at most {@code maxGap} bytes and the request stays within {@code maxMergedSize} bytes. Overlapping and
     * duplicate ranges are always served by one request, even past {@code maxMergedSize}: splitting them would read
     * their shared bytes twice. A range longer than {@code maxMergedSize} otherwise gets a request of its own.
     *
     * @return the requests, ascending by offset
     */
    public static List<Merged> coalesce(List<ByteRange> ranges, long maxGap, long maxMergedSize) {
        requireNonNull(ranges, "ranges is null");
        if (maxGap < 0 || maxMergedSize < 1) {
            throw new IllegalArgumentException("maxGap must be >= 0 and maxMergedSize positive, got " + maxGap
                    + " and " + maxMergedSize);
        }
        Integer[] order = new Integer[ranges.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            requireNonNull(ranges.get(i), "ranges contains null");
        }
        Arrays.sort(order, Comparator.comparing(ranges::get));
        List<Merged> merged = new ArrayList<>();
        ByteRange current = null;
        List<Integer> members = new ArrayList<>();
        for (int index : order) {
            ByteRange next = ranges.get(index);
            boolean overlaps = current != null && next.offset() < current.end();
            if (current != null && (overlaps || current.gapTo(next) <= maxGap
                    && Math.max(current.end(), next.end()) - current.offset() <= maxMergedSize)) {
                current = current.span(next);
            } else {
                if (current != null) {
                    merged.add(new Merged(current, members));
                }
                current = next;
                members = new ArrayList<>();
            }
            members.add(index);
        }
        if (current != null) {
            merged.add(new Merged(current, members));
        }
        return merged;
    }
}
