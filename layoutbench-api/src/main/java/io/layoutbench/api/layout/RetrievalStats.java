package io.layoutbench.api.layout;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.metrics.MetricsSnapshot;

import java.time.Duration;

/**
 * What a finished (or closed) retrieval did.
 *
 * <pre>{@code
 * try (SampleStream samples = dataset.query(query, options)) {
 *     samples.forEachRemaining(sink);
 *     RetrievalStats stats = samples.stats();
 *     double overhead = (double) stats.transfer().bytesReceived() / stats.payloadBytes();
 * }
 * }</pre>
 *
 * @param samples           samples handed out
 * @param payloadBytes      sum of their sizes
 * @param transfer          requests, bytes received and time to first byte, counted where bytes flowed
 * @param timeToFirstSample from the query's start to the first sample handed out; zero if none
 * @param wallTime          from the query's start to its end
 */
public record RetrievalStats(long samples, long payloadBytes, MetricsSnapshot transfer, Duration timeToFirstSample,
        Duration wallTime) {
    public RetrievalStats {
        requireNonNull(transfer, "transfer is null");
        requireNonNull(timeToFirstSample, "timeToFirstSample is null");
        requireNonNull(wallTime, "wallTime is null");
    }
}
