package io.layoutbench.api.layout;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * The requests a query will send, planned from cached metadata before any sample is read.
 *
 * <p>{@code metadataRequests} are the reads needed to load metadata (footers, page indexes, metadata tables);
 * empty when the client already has them cached (a warm run). {@code dataRequests} fetch the samples.
 *
 * <pre>{@code
 * RetrievalPlan plan = dataset.plan(Query.parse("human_label = 'cello'"), QueryOptions.defaults());
 * long bytes = plan.totalBytes();
 * }</pre>
 *
 * @param metadataRequests reads of metadata, in order
 * @param dataRequests     reads of sample bytes
 * @param samples          samples the query returns
 * @param payloadBytes     sum of the returned samples' sizes
 * @param metadataRounds   how many round trips the metadata reads take one after another (reads within a round
 *                         are sent together): {@code metadataRequests.size()} when each needs the one before
 * @param racedReads       whether optimized retrieval may race the data reads and a cold run's metadata reads (send
 *                         copies of each at once and drop the losers at the winner's first byte,
 *                         {@link QueryOptions#withHedging}): true where the reads go to the backend the dataset was
 *                         opened on, or to a store that races them itself below it
 *                         ({@link io.layoutbench.api.backend.SupportsRacedReads}: fac, at its nodes); false where a
 *                         layout reads through a store of its own that can do neither, whose reads are then hedged
 *                         late; the cost model prices what the plan says
 * @param requestsPerTask  how the data requests are sent: retrieval keeps read tasks in flight, not requests, and
 *                         sends a task's requests at once; each entry is how many consecutive data requests one task
 *                         sends (a row group's column chunks in paper-mode L3, a sample's fields in L1; none for a
 *                         task whose samples its metadata holds, as a query without payload reads). Empty when
 *                         every request is a task of its own (a list of ones is made empty); otherwise the entries
 *                         add up to {@code dataRequests.size()}. The cost model counts reads in flight by task, as
 *                         retrieval does
 */
public record RetrievalPlan(List<PlannedRequest> metadataRequests, List<PlannedRequest> dataRequests, long samples,
        long payloadBytes, int metadataRounds, boolean racedReads, List<Integer> requestsPerTask) {

    public RetrievalPlan {
        metadataRequests = List.copyOf(requireNonNull(metadataRequests, "metadataRequests is null"));
        dataRequests = List.copyOf(requireNonNull(dataRequests, "dataRequests is null"));
        requireNonNull(requestsPerTask, "requestsPerTask is null");
        long sum = 0;
        boolean oneEach = true;
        for (int t = 0; t < requestsPerTask.size(); t++) {
            Integer count = requestsPerTask.get(t);
            if (count == null || count < 0) {
                throw new IllegalArgumentException("requestsPerTask[" + t + "] is " + count
                        + ": a task sends 0 requests or more");
            }
            sum += count;
            oneEach &= count == 1;
        }
        if (!requestsPerTask.isEmpty() && sum != dataRequests.size()) {
            throw new IllegalArgumentException("requestsPerTask sends " + sum + " requests, but the plan has "
                    + dataRequests.size() + " data requests");
        }
        // One way to say "a request each": the same plan is one value, however it was built.
        requestsPerTask = oneEach ? List.of() : List.copyOf(requestsPerTask);
        if (samples < 0 || payloadBytes < 0) {
            throw new IllegalArgumentException("samples and payloadBytes must be >= 0: " + samples + ", "
                    + payloadBytes);
        }
        if (metadataRounds < 0 || metadataRounds > metadataRequests.size()
                || (metadataRounds == 0) != metadataRequests.isEmpty()) {
            throw new IllegalArgumentException("metadataRounds must be between 1 and the " + metadataRequests.size()
                    + " metadata requests (0 when there are none), got " + metadataRounds);
        }
    }

    /**
     * A plan whose data requests are each a task of their own.
     *
     * <pre>{@code
     * RetrievalPlan viaOwnStore = new RetrievalPlan(footers, chunkReads, 185, 18_000_000L, 2, false);   // hedged late
     * }</pre>
     */
    public RetrievalPlan(List<PlannedRequest> metadataRequests, List<PlannedRequest> dataRequests, long samples,
            long payloadBytes, int metadataRounds, boolean racedReads) {
        this(metadataRequests, dataRequests, samples, payloadBytes, metadataRounds, racedReads, List.of());
    }

    /** A plan whose data reads may be raced, each request a task of its own. */
    public RetrievalPlan(List<PlannedRequest> metadataRequests, List<PlannedRequest> dataRequests, long samples,
            long payloadBytes, int metadataRounds) {
        this(metadataRequests, dataRequests, samples, payloadBytes, metadataRounds, true);
    }

    /**
     * A plan whose data requests are sent in {@code tasks}, each task's requests at once; its data reads may be
     * raced.
     *
     * <pre>{@code
     * // paper-mode L3: one task per row group, its column chunks sent together
     * RetrievalPlan plan = RetrievalPlan.ofTasks(footerReads, List.of(rowGroup0Chunks, rowGroup1Chunks), 185,
     *         113_000_000L, 2);
     * plan.requestsPerTask();   // [7, 7]
     * }</pre>
     */
    public static RetrievalPlan ofTasks(List<PlannedRequest> metadataRequests, List<List<PlannedRequest>> tasks,
            long samples, long payloadBytes, int metadataRounds) {
        requireNonNull(tasks, "tasks is null");
        List<PlannedRequest> data = new ArrayList<>();
        List<Integer> perTask = new ArrayList<>(tasks.size());
        for (int t = 0; t < tasks.size(); t++) {
            List<PlannedRequest> task = requireNonNull(tasks.get(t), "tasks[" + t + "] is null");
            data.addAll(task);
            perTask.add(task.size());
        }
        return new RetrievalPlan(metadataRequests, data, samples, payloadBytes, metadataRounds, true, perTask);
    }

    /**
     * The data requests grouped as retrieval sends them: one unmodifiable list per task, in order.
     *
     * <pre>{@code
     * int tasks = plan.dataTasks().size();   // each sends its requests at once
     * }</pre>
     */
    public List<List<PlannedRequest>> dataTasks() {
        if (requestsPerTask.isEmpty()) {
            return dataRequests.stream().map(List::of).toList();
        }
        List<List<PlannedRequest>> tasks = new ArrayList<>(requestsPerTask.size());
        int from = 0;
        for (int count : requestsPerTask) {
            tasks.add(dataRequests.subList(from, from + count));
            from += count;
        }
        return List.copyOf(tasks);
    }

    /**
     * This plan with its data reads hedged late, never raced.
     *
     * <pre>{@code
     * RetrievalPlan viaOwnStore = l3Plan.withoutRacedReads();   // a layout whose store cannot drop a loser early
     * }</pre>
     */
    public RetrievalPlan withoutRacedReads() {
        return new RetrievalPlan(metadataRequests, dataRequests, samples, payloadBytes, metadataRounds, false,
                requestsPerTask);
    }

    /** A plan whose metadata reads each wait for the one before, and whose data reads may be raced. */
    public RetrievalPlan(List<PlannedRequest> metadataRequests, List<PlannedRequest> dataRequests, long samples,
            long payloadBytes) {
        this(metadataRequests, dataRequests, samples, payloadBytes, metadataRequests.size());
    }

    /** All requests, metadata first. */
    public List<PlannedRequest> allRequests() {
        return java.util.stream.Stream.concat(metadataRequests.stream(), dataRequests.stream()).toList();
    }

    /** Bytes all requests transfer. */
    public long totalBytes() {
        return metadataRequests.stream().mapToLong(PlannedRequest::bytes).sum()
                + dataRequests.stream().mapToLong(PlannedRequest::bytes).sum();
    }

    /** Number of requests. */
    public int totalRequests() {
        return metadataRequests.size() + dataRequests.size();
    }
}
