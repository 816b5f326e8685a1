package io.layoutbench.api.backend;

import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.NetworkProfile;

/**
 * An {@link ObjectBackend} built over other backends (an erasure-coded store over its storage nodes) that races the
 * round trips it sends to them itself. A client that races copies of a read above such a store gains nothing: the
 * store answers its small reads from units it reads once for all of them (so the copies wait on one node read), and
 * it cannot drop a losing copy at its first byte. So a client that would race a read's copies asks this view for the
 * races instead, and the store races each read it sends to a node below, where a copy is a node read of its own.
 *
 * <p>The view is for the same unit of work as this backend (a query's view, {@link ObjectBackend#withMetrics}): it
 * shares what this one shares among its reads. Each read it sends below is raced as a single read on an idle link is
 * ({@link io.layoutbench.api.network.HedgeDelay#racedCopiesAlone}), where the backend below signals first bytes
 * ({@link SupportsFirstByteSignal}); each copy after the first is counted as a hedged request of {@code metrics}
 * where it copies a request of this backend's. Meant for reads that go one round at a time (a cold query's
 * metadata); for a batch that retrieval has chosen to race ({@link io.layoutbench.api.network.HedgeDelay#racedCopies}),
 * {@link #withRacedReads(NetworkProfile, RequestMetrics, int)} races every read below with the batch's copies.
 *
 * <pre>{@code
 * ObjectBackend metadataReads = store instanceof SupportsRacedReads racing
 *         ? racing.withRacedReads(NetworkProfiles.get("t3.medium"), queryMetrics) : store;
 * }</pre>
 */
public interface SupportsRacedReads {

    /**
     * This backend, with the reads it sends to the backends below it raced on {@code network}; this backend itself
     * where it cannot race them: racing cannot shorten reads on that network, or a backend below does not signal
     * first bytes. A caller that gets this backend back reads as from any backend that does not race (retrieval
     * hedges its reads late).
     *
     * @param metrics where each copy after the first of a request of this backend's is counted as a hedged request
     */
    ObjectBackend withRacedReads(NetworkProfile network, RequestMetrics metrics);

    /**
     * This backend, with every read it sends to the backends below it raced as {@code copies} copies at once: what
     * retrieval asks for a batch it races ({@link io.layoutbench.api.network.HedgeDelay#racedCopies} chose the count
     * for the batch's reads), sending each of the batch's reads once through the view. This backend itself where it
     * cannot race them, as there.
     *
     * <pre>{@code
     * ObjectBackend batchReads = racing.withRacedReads(network, queryMetrics, 3);
     * }</pre>
     *
     * @param copies copies of each read below, at least 2
     * @throws IllegalArgumentException if {@code copies} is below 2
     */
    ObjectBackend withRacedReads(NetworkProfile network, RequestMetrics metrics, int copies);
}
