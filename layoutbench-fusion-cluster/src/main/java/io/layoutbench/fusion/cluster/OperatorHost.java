package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.fusion.pushdown.ChunkOperator;
import io.layoutbench.fusion.pushdown.NodeReply;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;
import io.layoutbench.fusion.store.PrefixedBackend;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A storage node's side of pushdown: runs the chunk operators a coordinator sends ({@link NodeProtocol#OPERATE}) on
 * the blocks of the FAC store the request names. Per store (and this node's place in it) it opens a
 * {@link FacBackend} whose node {@code self} is this server's own backend, read directly, and whose other nodes are
 * Flight clients of their servers: a chunk whose pieces lie on other nodes is completed from them, and one whose
 * block here is lost or damaged is rebuilt from k blocks of its stripe, as any FAC read is. A stand-in for a node
 * that is down runs the operator so, rebuilding the chunk (degraded pushdown).
 *
 * <p>The last {@value #STORES} stores are kept open, with their manifests, footers and the decoded chunks a query
 * keeps between its operators ({@link ChunkOperator}). Thread-safe.
 */
final class OperatorHost implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OperatorHost.class);
    private static final int STORES = 4;
    /**
     * Reads from peers are tried once: a block a peer cannot serve is rebuilt from other blocks of its stripe at once
     * (the FAC read's own fallback) rather than after the client's retries and their backoff, which a dead peer would
     * cost every chunk that has a piece on it.
     */
    private static final FlightNodeBackend.Options PEER_OPTIONS = FlightNodeBackend.Options.defaults()
            .withRetryPolicy(FlightNodeBackend.Options.defaults().retryPolicy().withMaxAttempts(1));

    private final ObjectBackend local;
    private final String name;
    private final Map<StoreKey, Hosted> stores = new LinkedHashMap<>(8, 0.75f, true);
    private boolean closed;

    OperatorHost(ObjectBackend local, String name) {
        this.local = requireNonNull(local, "local is null");
        this.name = name;
    }

    /** Runs the request's operator as node {@code self} of its store. */
    NodeReply run(NodeProtocol.OperateRequest request) {
        Hosted hosted = acquire(request.store(), request.self());
        try {
            return hosted.operator().run(request.self(), request.operation());
        } finally {
            release(hosted);
        }
    }

    /**
     * The store, opened if needed (no I/O: its clients connect on first use), held for one operator: a store dropped
     * from the last {@value #STORES} is closed once its last operator ends, not under it.
     */
    private Hosted acquire(NodeProtocol.Store store, int self) {
        StoreKey key = new StoreKey(store, self);
        synchronized (stores) {
            if (closed) {
                throw new IllegalStateException(name + " is shutting down");
            }
            Hosted hosted = stores.get(key);
            if (hosted == null) {
                hosted = open(store, self);
                stores.put(key, hosted);
                if (stores.size() > STORES) {
                    Iterator<Hosted> eldest = stores.values().iterator();
                    Hosted dropped = eldest.next();
                    eldest.remove();
                    dropped.dropped = true;
                    if (dropped.users == 0) {
                        dropped.close();
                    }
                }
            }
            hosted.users++;
            return hosted;
        }
    }

    private void release(Hosted hosted) {
        synchronized (stores) {
            hosted.users--;
            if (hosted.dropped && hosted.users == 0) {
                hosted.close();
            }
        }
    }

    private Hosted open(NodeProtocol.Store store, int self) {
        List<ObjectBackend> nodes = new ArrayList<>();
        List<ObjectBackend> peers = new ArrayList<>();
        try {
            for (int i = 0; i < store.nodes().size(); i++) {
                if (i == self) {
                    nodes.add(store.prefix().isEmpty() ? local : PrefixedBackend.of(local, store.prefix()));
                } else {
                    ObjectBackend peer = new FlightNodeBackend(store.nodes().get(i), PEER_OPTIONS,
                            RequestMetrics.NONE);
                    peers.add(peer);
                    nodes.add(store.prefix().isEmpty() ? peer : PrefixedBackend.of(peer, store.prefix()));
                }
            }
            // The store does not own its nodes: this server's backend is the server's; the peers are closed here.
            FacBackend fac = FacBackend.create(nodes, FacOptions.fromMap(store.options()), false);
            LOG.debug("{}: node {} of the FAC store over {}", name, self, store.nodes());
            return new Hosted(fac, new ChunkOperator(fac, ChunkOperator.DEFAULT_KEEP_BYTES), peers);
        } catch (RuntimeException e) {
            peers.forEach(ObjectBackend::close);
            throw e;
        }
    }

    @Override
    public void close() {
        synchronized (stores) {
            closed = true;
            // The server closes this once its calls ended, so no operator holds a store now.
            stores.values().forEach(Hosted::close);
            stores.clear();
        }
    }

    private record StoreKey(NodeProtocol.Store store, int self) {
    }

    /** A store open on this node; its counts are guarded by the stores' lock. */
    private static final class Hosted {
        private final FacBackend store;
        private final ChunkOperator operator;
        private final List<ObjectBackend> peers;
        private int users;
        private boolean dropped;

        Hosted(FacBackend store, ChunkOperator operator, List<ObjectBackend> peers) {
            this.store = store;
            this.operator = operator;
            this.peers = peers;
        }

        ChunkOperator operator() {
            return operator;
        }

        void close() {
            store.close();
            peers.forEach(ObjectBackend::close);
        }
    }
}
