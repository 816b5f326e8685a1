package io.layoutbench.layouts.l2;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RangeCoalescer;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.predicate.Selection;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * L2's planner, shared by its datasets (over the metadata table) and its model (over {@link TarPacking}'s
 * placement): the matching samples grouped by shard in dataset order; paper mode reads each with its own ranged
 * GET; optimized mode merges a shard's ranges that lie within the coalescing gap, lowered to keep the query's read
 * budget ({@link RangeCoalescer#gapWithinBudget}) and capped at {@link RangeCoalescer#maxMergedBytesFor}.
 *
 * <pre>{@code
 * L2Reads.Plan plan = L2Reads.plan(matches, locations, QueryOptions.defaults());
 * for (L2Reads.Read read : plan.reads()) { ... read.request() serves read.rows() ... }
 * }</pre>
 */
final class L2Reads {

    private L2Reads() {
    }

    /**
     * Where every item of a dataset lies: an item is a sample's data (one payload field) or one field of a sample
     * (several), numbered in dataset order.
     */
    interface Locations {
        /** The shard holding item {@code item}. */
        int shard(int item);

        /** Where item {@code item}'s data starts in its shard. */
        long offset(int item);

        /** Bytes of item {@code item}'s data. */
        long size(int item);

        /** The object key of shard {@code shard}. */
        String shardKey(int shard);
    }

    /**
     * One request and the items it serves.
     *
     * @param request a ranged GET of one shard
     * @param items   the items whose data it holds, in dataset order
     */
    record Read(PlannedRequest request, int[] items) {
        Read {
            requireNonNull(request, "request is null");
            requireNonNull(items, "items is null");
        }
    }

    /**
     * The reads of one query.
     *
     * @param reads        in dataset order
     * @param payloadBytes sum of the matching samples' sizes
     */
    record Plan(List<Read> reads, long payloadBytes) {
        /** The requests alone. */
        List<PlannedRequest> requests() {
            return reads.stream().map(Read::request).toList();
        }
    }

    /** Plans reading {@code rows} (the query's matches in dataset order, LIMIT applied; one item each). */
    static Plan plan(Selection rows, Locations locations, QueryOptions options) {
        return plan(rows.toArray(), locations, options);
    }

    /** {@link #plan(int[], Locations, QueryOptions, long)} at the gap their own read budget allows. */
    static final long OWN_GAP = -1;

    /** Plans reading {@code items} (in dataset order), coalescing with the gap their own read budget allows. */
    static Plan plan(int[] items, Locations locations, QueryOptions options) {
        return plan(items, locations, options, OWN_GAP);
    }

    /**
     * The coalescing gap a read of {@code items} uses in optimized mode: the derived gap, lowered to keep the read
     * budget over these items (0 in paper mode).
     */
    static long gap(int[] items, Locations locations, QueryOptions options) {
        return gap(Runs.of(items, locations), options);
    }

    private static long gap(Runs runs, QueryOptions options) {
        if (options.mode() != RetrievalMode.OPTIMIZED) {
            return 0;
        }
        return RangeCoalescer.gapWithinBudget(runs.ranges(), RangeCoalescer.gapFor(options),
                options.maxReadAmplification());
    }

    /**
     * Plans reading {@code items} (in dataset order), coalescing across gaps of at most {@code gap} bytes, or
     * ({@link #OWN_GAP}) the gap their own read budget allows.
     */
    static Plan plan(int[] items, Locations locations, QueryOptions options, long gap) {
        boolean merge = options.mode() == RetrievalMode.OPTIMIZED;
        long maxMerged = RangeCoalescer.maxMergedBytesFor(options);
        // Items come in dataset order and shards were written in that order: a shard's items are one run.
        Runs runs = Runs.of(items, locations);
        long merging = gap < 0 ? gap(runs, options) : gap;
        List<Read> reads = new ArrayList<>();
        long payload = 0;
        for (int r = 0; r < runs.members().size(); r++) {
            int[] members = runs.members().get(r);
            List<ByteRange> ranges = runs.ranges().get(r);
            for (ByteRange range : ranges) {
                payload += range.length();
            }
            String key = locations.shardKey(locations.shard(members[0]));
            if (merge) {
                for (RangeCoalescer.Merged merged : RangeCoalescer.coalesce(ranges, merging, maxMerged)) {
                    int[] served = merged.members().stream().mapToInt(m -> members[m]).toArray();
                    reads.add(new Read(new PlannedRequest(RequestKind.RANGE_GET, key, merged.range()), served));
                }
            } else {
                for (int j = 0; j < members.length; j++) {
                    reads.add(new Read(new PlannedRequest(RequestKind.RANGE_GET, key, ranges.get(j)),
                            new int[] {members[j]}));
                }
            }
        }
        return new Plan(reads, payload);
    }

    /** The runs of items in one shard, and their byte ranges. */
    private record Runs(List<int[]> members, List<List<ByteRange>> ranges) {
        static Runs of(int[] items, Locations locations) {
            List<int[]> members = new ArrayList<>();
            List<List<ByteRange>> ranges = new ArrayList<>();
            int i = 0;
            while (i < items.length) {
                int shard = locations.shard(items[i]);
                int end = i;
                List<ByteRange> run = new ArrayList<>();
                while (end < items.length && locations.shard(items[end]) == shard) {
                    run.add(ByteRange.of(locations.offset(items[end]), locations.size(items[end])));
                    end++;
                }
                members.add(Arrays.copyOfRange(items, i, end));
                ranges.add(run);
                i = end;
            }
            return new Runs(members, ranges);
        }
    }
}
