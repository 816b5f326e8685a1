package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.Retrier;
import io.layoutbench.api.backend.TransientStorageException;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.fusion.pushdown.ChunkOperation;
import io.layoutbench.fusion.pushdown.NodeOperators;
import io.layoutbench.fusion.pushdown.NodeReply;
import io.layoutbench.fusion.store.FacOptions;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushdown on storage-node servers: each {@link ChunkOperation} runs on the {@link StorageNodeServer} that holds the
 * chunk, over Arrow Flight, side by side with the others of its stage. The node reads the chunk from its own blocks
 * (and the pieces other nodes hold), decodes it, runs the operator and streams back the result, so the coordinator
 * receives bitmaps, selected values, group keys and partials rather than chunks.
 *
 * <p><b>Nodes down.</b> An operator whose node cannot be reached (connection refused, or no answer within the call
 * deadline, after the client's retries) is sent to the next node that answers, which rebuilds the chunk from k blocks
 * of its stripe (degraded pushdown); with more than n - k blocks of a stripe lost the query fails with the stand-in's
 * {@code StripeUnavailableException}, naming the stripe and the nodes. A node found unreachable is passed over for the
 * rest of that query ({@link ChunkOperation#queryId()}), so its later operators go to a stand-in at once rather than
 * each waiting for its own failed attempts; the next query tries it again (a restarted node serves again). A node that
 * answers but cannot read the chunk rebuilds it itself. Other failures (a malformed request, a decoding error) fail the
 * query at once.
 *
 * <p>The nodes must be given in the store's order (node i of every manifest is element i), with the prefix the
 * store's blocks have on them and the store's options. Thread-safe.
 *
 * <pre>{@code
 * try (FlightNodeOperators operators = FlightNodeOperators.open(cluster.nodes(), "", FacOptions.defaults());
 *      FacBackend store = FacBackend.create(nodes, FacOptions.defaults(), true)) {
 *     PushdownResult r = new PushdownEngine(store, ClusterModel.paper(), operators)
 *             .execute("lineitem.parquet", "SELECT COUNT(*) FROM lineitem WHERE l_quantity < 2", PushdownMode.FUSION);
 * }
 * }</pre>
 */
public final class FlightNodeOperators implements NodeOperators {

    private static final Logger LOG = LoggerFactory.getLogger(FlightNodeOperators.class);
    /** Queries whose unreachable nodes are remembered: the last few, which may run at once. */
    private static final int QUERIES_REMEMBERED = 64;

    private final NodeProtocol.Store store;
    private final List<FlightNodeBackend> clients;
    /** Per query, the nodes found unreachable during it, passed over for the rest of it. */
    private final Map<String, Set<Integer>> unreachable = new LinkedHashMap<>();

    private FlightNodeOperators(NodeProtocol.Store store, List<FlightNodeBackend> clients) {
        this.store = store;
        this.clients = clients;
    }

    /**
     * Operators on the servers at {@code nodes}.
     *
     * @param nodes   every node of the store, in its order ({@code flight://host:port})
     * @param prefix  the key prefix of the store's blocks on each node, without the trailing {@code /}; "" for none
     * @param options the store's options
     * @throws IllegalArgumentException if a URI is not {@code flight://host:port}
     */
    public static FlightNodeOperators open(List<URI> nodes, String prefix, FacOptions options) {
        return open(nodes, prefix, options, FlightNodeBackend.Options.defaults());
    }

    /**
     * Operators on the servers at {@code nodes}, their calls made with {@code client}: its call timeout bounds one
     * operator on one node (reading, decoding and evaluating a chunk, and sending the result).
     */
    public static FlightNodeOperators open(List<URI> nodes, String prefix, FacOptions options,
            FlightNodeBackend.Options client) {
        requireNonNull(nodes, "nodes is null");
        requireNonNull(client, "client is null");
        requireNonNull(prefix, "prefix is null");
        requireNonNull(options, "options is null");
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("Operators need at least one node");
        }
        List<FlightNodeBackend> clients = new ArrayList<>();
        try {
            for (URI node : nodes) {
                clients.add(new FlightNodeBackend(node, client, RequestMetrics.NONE));
            }
        } catch (RuntimeException e) {
            clients.forEach(FlightNodeBackend::close);
            throw e;
        }
        return new FlightNodeOperators(new NodeProtocol.Store(nodes, prefix, options.toMap()), List.copyOf(clients));
    }

    @Override
    public CompletableFuture<NodeReply> run(int node, ChunkOperation operation) {
        requireNonNull(operation, "operation is null");
        if (node < 0 || node >= clients.size()) {
            throw new IllegalArgumentException("No node " + node + " among " + clients.size());
        }
        Set<Integer> passOver = unreachable(operation.queryId());
        int first = 0;
        while (first + 1 < clients.size() && passOver.contains((node + first) % clients.size())) {
            first++;
        }
        return attempt(node, first, operation);
    }

    /** Sends {@code operation} to the {@code tried}-th node after {@code home}; past an unreachable one, the next. */
    private CompletableFuture<NodeReply> attempt(int home, int tried, ChunkOperation operation) {
        int node = (home + tried) % clients.size();
        String what = operation + " on node " + node + " (" + store.nodes().get(node) + ")";
        CompletableFuture<NodeReply> reply;
        try {
            reply = clients.get(node).operate(new NodeProtocol.OperateRequest(store, node, operation), what)
                    .thenApply(bytes -> NodeReply.decode(node, bytes));
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return reply.exceptionallyCompose(error -> {
            Throwable cause = Retrier.unwrap(error);
            if (cause instanceof TransientStorageException && tried + 1 < clients.size()) {
                unreachable(operation.queryId()).add(node);
                LOG.debug("{} failed, node {} stands in: {}", what, (home + tried + 1) % clients.size(),
                        cause.getMessage());
                return attempt(home, tried + 1, operation);
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    /** The nodes found unreachable during query {@code queryId}. */
    private Set<Integer> unreachable(String queryId) {
        synchronized (unreachable) {
            Set<Integer> nodes = unreachable.computeIfAbsent(queryId, q -> ConcurrentHashMap.newKeySet());
            if (unreachable.size() > QUERIES_REMEMBERED) {
                Iterator<String> eldest = unreachable.keySet().iterator();
                eldest.next();
                eldest.remove();
            }
            return nodes;
        }
    }

    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public void close() {
        clients.forEach(FlightNodeBackend::close);
    }

    @Override
    public String toString() {
        return "FlightNodeOperators" + store.nodes();
    }
}
