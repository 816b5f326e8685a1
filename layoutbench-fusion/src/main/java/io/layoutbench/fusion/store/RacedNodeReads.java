package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.layouts.retrieval.RacedReads;

/**
 * How a raced view of a FAC store ({@link FacBackend#withRacedReads}) sends its reads to the nodes: each block read
 * raced alone to its node ({@link RacedReads#over}), below the view's unit cache, so that the reads which share a unit
 * share one raced node read; and a location map read from several of its replicas at once, the first to answer
 * kept ({@link ManifestStore}).
 *
 * <p>Each copy of a block read after the first is counted as a request and as a hedged one: a copy of the store's
 * request that sent it, as a client racing that request would count it. A location map's copies are not counted, as
 * the map's read is not: the store's own, below the requests it serves.
 */
final class RacedNodeReads {
    private final NetworkProfile network;
    private final RequestMetrics copies;

    /**
     * @param network the network the races are weighed on
     * @param metrics the store's request metrics, where the copies are counted
     */
    RacedNodeReads(NetworkProfile network, RequestMetrics metrics) {
        this.network = network;
        this.copies = new CopiesAsRequests(metrics);
    }

    /**
     * What a location map read is weighed at: the map of a 64 MB part file with 16 KiB checksum units is about 60 KB
     * (the {@code fac} layout's at mini; a metadata file's, 400 bytes), and its size is not known before it is read.
     */
    static final long MANIFEST_READ_BYTES = 64 << 10;

    /** {@code node} with its ranged reads raced. */
    ObjectBackend over(ObjectBackend node) {
        return RacedReads.over(node, network, copies);
    }

    /** How many of a location map's {@code replicas} to read at once: 1 when a race would not pay. */
    int manifestCopies(int replicas) {
        return Math.max(1, Math.min(replicas, HedgeDelay.racedCopiesAlone(network, MANIFEST_READ_BYTES)));
    }

    /**
     * Counts each copy a race sends as a request of its own, besides a hedged one ({@link
     * RequestMetrics#onHedgedRequest}: the backend that sends a duplicate reports it as a request too). The nodes'
     * reads are not counted into the store's metrics, so their copies would go uncounted as requests.
     */
    private record CopiesAsRequests(RequestMetrics metrics) implements RequestMetrics {
        @Override
        public void onRequestStarted(RequestKind kind) {
            metrics.onRequestStarted(kind);
        }

        @Override
        public void onFirstByte(RequestKind kind, long nanosSinceStart) {
            metrics.onFirstByte(kind, nanosSinceStart);
        }

        @Override
        public void onBytesReceived(RequestKind kind, long bytes) {
            metrics.onBytesReceived(kind, bytes);
        }

        @Override
        public void onHedgedRequest(RequestKind kind) {
            metrics.onRequestStarted(kind);
            metrics.onHedgedRequest(kind);
        }
    }
}
