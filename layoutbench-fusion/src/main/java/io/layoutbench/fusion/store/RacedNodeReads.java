package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.SupportsFirstByteSignal;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.layouts.retrieval.RacedReads;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * How a raced view of a FAC store ({@link FacBackend#withRacedReads}) sends its reads to the nodes: each block read
 * raced to its node ({@link RacedReads#first}), below the view's unit cache, so that the reads which share a unit
 * share one raced node read; and a location map read from several of its replicas at once, the first to answer
 * kept ({@link ManifestStore}). A block read gets the copies it was made with (a batch that retrieval races), or, for
 * reads that go a round at a time, as many as a single read on an idle link is raced with
 * ({@link HedgeDelay#racedCopiesAlone}). A node that does not signal first bytes is read once.
 *
 * <p>Each copy of a block read after the first is counted as a request and as a hedged one: a copy of the store's
 * request that sent it, as a client racing that request would count it. A location map's copies are not counted, as
 * the map's read is not: the store's own, below the requests it serves.
 */
final class RacedNodeReads {

    /**
     * What a location map read is weighed at: the map of a 64 MB part file with 16 KiB checksum units is about 60 KB
     * (the {@code fac} layout's at mini; a metadata file's, 400 bytes), and its size is not known before it is read.
     */
    static final long MANIFEST_READ_BYTES = 64 << 10;

    private final NetworkProfile network;
    private final RequestMetrics copiesCounted;
    /** Copies of every block read; 0: each weighed alone. */
    private final int copies;

    /**
     * @param network the network the races are weighed on
     * @param metrics the store's request metrics, where the copies are counted
     * @param copies  copies of every block read, or 0 to weigh each alone
     */
    RacedNodeReads(NetworkProfile network, RequestMetrics metrics, int copies) {
        this.network = network;
        this.copiesCounted = new CopiesAsRequests(metrics);
        this.copies = copies;
    }

    /** {@code range} of {@code key} on {@code node}, raced. */
    CompletableFuture<ByteBuffer> readRange(ObjectBackend node, String key, ByteRange range) {
        // A batch's copies, but not for a read over the bandwidth-delay product (a lazily read blob, read after its
        // batch): the link bounds it, not a latency draw.
        int count = copies > 0 && range.length() <= network.bandwidthDelayProduct() ? copies
                : HedgeDelay.racedCopiesAlone(network, range.length());
        if (count < 2 || !(node instanceof SupportsFirstByteSignal signalling)) {
            return node.readRangeAsync(key, range);
        }
        Function<Runnable, CompletableFuture<ByteBuffer>> copy =
                onFirstByte -> signalling.readRangeAsync(key, range, onFirstByte);
        return RacedReads.first(Collections.nCopies(count, copy), copiesCounted, RequestKind.RANGE_GET);
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
