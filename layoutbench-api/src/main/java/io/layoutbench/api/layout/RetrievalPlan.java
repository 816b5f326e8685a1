package io.layoutbench.api.layout;

import static java.util.Objects.requireNonNull;

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
 *                         opened on, false where a layout reads through a store of its own that cannot drop a loser
 *                         early (fac, over its erasure-coded nodes), whose reads are hedged late; the cost model
 *                         prices what the plan says
 */
public record RetrievalPlan(List<PlannedRequest> metadataRequests, List<PlannedRequest> dataRequests, long samples,
        long payloadBytes, int metadataRounds, boolean racedReads) {

    public RetrievalPlan {
        metadataRequests = List.copyOf(requireNonNull(metadataRequests, "metadataRequests is null"));
        dataRequests = List.copyOf(requireNonNull(dataRequests, "dataRequests is null"));
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

    /** A plan whose data reads may be raced. */
    public RetrievalPlan(List<PlannedRequest> metadataRequests, List<PlannedRequest> dataRequests, long samples,
            long payloadBytes, int metadataRounds) {
        this(metadataRequests, dataRequests, samples, payloadBytes, metadataRounds, true);
    }

    /**
     * This plan with its data reads hedged late, never raced.
     *
     * <pre>{@code
     * RetrievalPlan viaOwnStore = l3Plan.withoutRacedReads();   // a layout whose store cannot drop a loser early
     * }</pre>
     */
    public RetrievalPlan withoutRacedReads() {
        return new RetrievalPlan(metadataRequests, dataRequests, samples, payloadBytes, metadataRounds, false);
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
