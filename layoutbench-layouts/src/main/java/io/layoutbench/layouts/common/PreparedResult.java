package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.PreparedQuery;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.ResultRange;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.retrieval.ReadTask;
import io.layoutbench.layouts.retrieval.StreamingRetrieval;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A query's matches, found once by a layout, and the reads of any ranges of them. A layout supplies
 * {@link #reads(List, long)}: the tasks reading the samples at the ranges' positions, coalesced across gaps of at
 * most the given bytes, and {@link #gap(List)}: the gap a read of some ranges may use within the read budget. A
 * read of ranges uses their own gap, as an optimized query of exactly those samples would; a view
 * ({@link #asPartsOf}) uses the gap of its scope. Units are the tasks of a read of the whole result.
 *
 * <pre>{@code
 * return new PreparedResult(backend, resultId(query, options), options, table.loadRequests(), 1, rows.size(), bytes) {
 *     protected long gap(List<ResultRange> ranges) { ... RangeCoalescer.gapWithinBudget over their ranges ... }
 *     protected Reads reads(List<ResultRange> ranges, long gap) { ... tasks for rows at those positions ... }
 * };
 * }</pre>
 */
public abstract class PreparedResult implements PreparedQuery {

    private final ObjectBackend backend;
    private final String resultId;
    private final QueryOptions options;
    private final List<PlannedRequest> coldMetadataRequests;
    private final int metadataRounds;
    private final long samples;
    private final long payloadBytes;
    private volatile Units units;

    /**
     * @param backend              the dataset's backend (reads count into a metrics view of it)
     * @param coldMetadataRequests the metadata reads a client with empty caches makes for the query
     * @param metadataRounds       round trips they take one after another
     * @param samples              samples in the result
     * @param payloadBytes         sum of their sizes
     */
    protected PreparedResult(ObjectBackend backend, String resultId, QueryOptions options,
            List<PlannedRequest> coldMetadataRequests, int metadataRounds, long samples, long payloadBytes) {
        this.backend = requireNonNull(backend, "backend is null");
        this.resultId = requireNonNull(resultId, "resultId is null");
        this.options = requireNonNull(options, "options is null");
        this.coldMetadataRequests = List.copyOf(coldMetadataRequests);
        this.metadataRounds = metadataRounds;
        this.samples = samples;
        this.payloadBytes = payloadBytes;
    }

    /** {@link #reads(List, long)}'s gap for "the gap their own read budget allows", found in the same pass. */
    public static final long OWN_GAP = -1;

    /**
     * The tasks reading the result's samples at the positions of {@code ranges} (checked: ascending, apart, within
     * the result, not empty), in position order, ranges of one object coalesced across gaps of at most {@code gap}
     * bytes in optimized mode (or, for {@link #OWN_GAP}, the gap {@link #gap(List)} would give), and the sum of
     * those samples' sizes.
     */
    protected abstract Reads reads(List<ResultRange> ranges, long gap);

    /**
     * The coalescing gap a read of {@code ranges} (checked, not empty) may use: the one the query's options derive,
     * lowered to keep the read budget over these ranges; 0 in paper mode or where nothing is coalesced.
     */
    protected abstract long gap(List<ResultRange> ranges);

    /** The tasks of {@code ranges} at their own gap. */
    protected final Reads reads(List<ResultRange> ranges) {
        return reads(ranges, OWN_GAP);
    }

    /**
     * Tasks and what their samples weigh.
     *
     * @param tasks        in position order
     * @param payloadBytes sum of the sizes of the samples they return
     */
    public record Reads(List<ReadTask> tasks, long payloadBytes) {
        public Reads {
            tasks = List.copyOf(tasks);
        }
    }

    /** The tasks of the whole result: what a plain query runs. */
    public final List<ReadTask> allTasks() {
        return reads(all()).tasks();
    }

    @Override
    public String resultId() {
        return resultId;
    }

    @Override
    public QueryOptions options() {
        return options;
    }

    @Override
    public long samples() {
        return samples;
    }

    @Override
    public long payloadBytes() {
        return payloadBytes;
    }

    @Override
    public int unitCount() {
        return units().starts.length;
    }

    @Override
    public long unitStart(int unit) {
        return units().starts[unit];
    }

    @Override
    public long unitBytes(int unit) {
        return units().bytes[unit];
    }

    @Override
    public RetrievalPlan plan(List<ResultRange> ranges) {
        return plan(ranges, OWN_GAP);
    }

    @Override
    public SampleStream read(List<ResultRange> ranges) {
        return read(ranges, OWN_GAP);
    }

    @Override
    public PreparedQuery asPartsOf(List<ResultRange> scope) {
        List<ResultRange> checked = ResultRange.checkSorted(scope, samples);
        long gap = checked.isEmpty() ? 0 : gap(checked);
        PreparedResult whole = this;
        return new PreparedQuery() {
            @Override
            public String resultId() {
                return whole.resultId();
            }

            @Override
            public QueryOptions options() {
                return whole.options();
            }

            @Override
            public long samples() {
                return whole.samples();
            }

            @Override
            public long payloadBytes() {
                return whole.payloadBytes();
            }

            @Override
            public int unitCount() {
                return whole.unitCount();
            }

            @Override
            public long unitStart(int unit) {
                return whole.unitStart(unit);
            }

            @Override
            public long unitBytes(int unit) {
                return whole.unitBytes(unit);
            }

            @Override
            public RetrievalPlan plan(List<ResultRange> ranges) {
                return whole.plan(ranges, gap);
            }

            @Override
            public SampleStream read(List<ResultRange> ranges) {
                return whole.read(ranges, gap);
            }

            @Override
            public PreparedQuery asPartsOf(List<ResultRange> otherScope) {
                return whole.asPartsOf(otherScope);
            }
        };
    }

    /** The plan of a read of {@code ranges} at {@code gap}, or at their own gap ({@link #OWN_GAP}). */
    private RetrievalPlan plan(List<ResultRange> ranges, long gap) {
        List<ResultRange> checked = ResultRange.checkSorted(ranges, samples);
        Reads reads = tasks(checked, gap);
        List<List<PlannedRequest>> data = new ArrayList<>(reads.tasks().size());
        long count = 0;
        for (ReadTask task : reads.tasks()) {
            data.add(task.requests());
            count += task.sampleCount();
        }
        return RetrievalPlan.ofTasks(coldMetadataRequests, data, count, reads.payloadBytes(), metadataRounds);
    }

    /** A read of {@code ranges} at {@code gap}, or at their own gap ({@link #OWN_GAP}). */
    private SampleStream read(List<ResultRange> ranges, long gap) {
        List<ResultRange> checked = ResultRange.checkSorted(ranges, samples);
        QueryMetrics metrics = new QueryMetrics();
        metrics.start();
        // Position order, whatever order the query was prepared with: a reader of ranges pairs samples with
        // positions (a loader's cache and shuffle buffer do).
        return StreamingRetrieval.start(backend.withMetrics(metrics), tasks(checked, gap).tasks(),
                options.withOrder(ResultOrder.DATASET), metrics);
    }

    private Reads tasks(List<ResultRange> checked, long gap) {
        if (checked.isEmpty()) {
            return new Reads(List.of(), 0);
        }
        return reads(checked, gap);
    }

    /** Streams {@code tasks} through {@code metered}, which counts into {@code metrics}, in the query's order. */
    public SampleStream run(ObjectBackend metered, List<ReadTask> tasks, QueryMetrics metrics) {
        return StreamingRetrieval.start(metered, tasks, options, metrics);
    }

    private Units units() {
        Units computed = units;
        if (computed == null) {
            List<ReadTask> tasks = samples == 0 ? List.of() : allTasks();
            long[] starts = new long[tasks.size()];
            long[] bytes = new long[tasks.size()];
            long position = 0;
            int count = 0;
            for (ReadTask task : tasks) {
                if (task.sampleCount() == 0) {
                    continue;
                }
                starts[count] = position;
                bytes[count++] = task.bytes();
                position += task.sampleCount();
            }
            computed = new Units(java.util.Arrays.copyOf(starts, count), java.util.Arrays.copyOf(bytes, count));
            units = computed;
        }
        return computed;
    }

    private record Units(long[] starts, long[] bytes) {
    }

    /** The rows of {@code rows} at the positions of {@code ranges} (positions index {@code rows}). */
    public static Selection pick(Selection rows, List<ResultRange> ranges) {
        long count = 0;
        for (ResultRange range : ranges) {
            count += range.size();
        }
        int[] picked = new int[Math.toIntExact(count)];
        int next = 0;
        for (ResultRange range : ranges) {
            for (long p = range.from(); p < range.to(); p++) {
                picked[next++] = rows.get((int) p);
            }
        }
        return Selection.of(picked);
    }

    /**
     * A prepared result over fixed tasks that cannot be planned in part: a read of some ranges runs every task
     * holding one of their positions and drops the samples outside them. For layouts whose tasks are small; the
     * layouts shipped plan reads of exactly the samples asked for instead.
     *
     * @param sampleSizes the size of each sample of the result, in order
     */
    public static PreparedResult ofTasks(ObjectBackend backend, String resultId, QueryOptions options,
            List<PlannedRequest> coldMetadataRequests, int metadataRounds, List<ReadTask> tasks, long[] sampleSizes) {
        List<ReadTask> all = List.copyOf(tasks);
        long samples = all.stream().mapToLong(ReadTask::sampleCount).sum();
        if (samples != sampleSizes.length) {
            throw new IllegalArgumentException("The tasks return " + samples + " samples but " + sampleSizes.length
                    + " sizes were given");
        }
        long payloadBytes = java.util.Arrays.stream(sampleSizes).sum();
        return new PreparedResult(backend, resultId, options, coldMetadataRequests, metadataRounds, samples,
                payloadBytes) {
            @Override
            protected long gap(List<ResultRange> ranges) {
                return 0;   // the tasks are fixed
            }

            @Override
            protected Reads reads(List<ResultRange> ranges, long gap) {
                long bytes = 0;
                for (ResultRange range : ranges) {
                    for (long p = range.from(); p < range.to(); p++) {
                        bytes += sampleSizes[(int) p];
                    }
                }
                if (ranges.size() == 1 && ranges.get(0).from() == 0 && ranges.get(0).to() == samples) {
                    return new Reads(all, bytes);
                }
                List<ReadTask> picked = new ArrayList<>();
                long start = 0;
                int r = 0;
                for (ReadTask task : all) {
                    long end = start + task.sampleCount();
                    while (r < ranges.size() && ranges.get(r).to() <= start) {
                        r++;
                    }
                    if (r < ranges.size() && ranges.get(r).from() < end) {
                        picked.add(new Slice(task, start, ranges.subList(r, ranges.size())));
                    }
                    start = end;
                }
                return new Reads(picked, bytes);
            }
        };
    }

    /** A task returning only its samples at positions within some ranges; {@code start} is its first position. */
    private static final class Slice implements ReadTask {
        private final ReadTask task;
        private final boolean[] keep;
        private final int kept;

        Slice(ReadTask task, long start, List<ResultRange> ranges) {
            this.task = task;
            this.keep = new boolean[task.sampleCount()];
            int count = 0;
            for (ResultRange range : ranges) {
                if (range.from() >= start + keep.length) {
                    break;
                }
                for (long p = Math.max(start, range.from()); p < Math.min(start + keep.length, range.to()); p++) {
                    keep[(int) (p - start)] = true;
                    count++;
                }
            }
            this.kept = count;
        }

        @Override
        public List<PlannedRequest> requests() {
            return task.requests();
        }

        @Override
        public int sampleCount() {
            return kept;
        }

        @Override
        public CompletableFuture<List<Sample>> run(ObjectBackend backend) {
            return task.run(backend).thenApply(samples -> {
                List<Sample> picked = new ArrayList<>(kept);
                for (int i = 0; i < samples.size(); i++) {
                    if (keep[i]) {
                        picked.add(samples.get(i));
                    }
                }
                return picked;
            });
        }
    }
}
