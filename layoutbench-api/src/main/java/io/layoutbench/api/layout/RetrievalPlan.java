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
 */
public record RetrievalPlan(List<PlannedRequest> metadataRequests, List<PlannedRequest> dataRequests, long samples,
        long payloadBytes, int metadataRounds) {

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

    /** A plan whose metadata reads each wait for the one before. */
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
