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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
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
 * List<URI> nodes = cluster.uris().stream().map(URI::create).toList();   // a ClusterFile's nodes, in order
 * try (FlightNodeOperators operators = FlightNodeOperators.open(nodes, "", FacOptions.defaults());
 *      FacBackend store = FacBackend.create(nodes.stream().map(u -> ObjectBackends.open(u.toString())).toList(),
 *              FacOptions.defaults(), true)) {
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
        return attempt(node, 0, operation);
    }

    /**
     * Sends {@code operation} to the first node from the {@code tried}-th after {@code home} on that is not passed
     * over in its query; past an unreachable one, the next. Every node passed over: the last one is tried anyway.
     */
    private CompletableFuture<NodeReply> attempt(int home, int tried, ChunkOperation operation) {
        Set<Integer> passOver = unreachable(operation.queryId());
        while (tried + 1 < clients.size() && passOver.contains((home + tried) % clients.size())) {
            tried++;
        }
        int node = (home + tried) % clients.size();
        int next = tried + 1;
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
            if (isUnreachable(cause) && next < clients.size()) {
                passOver.add(node);
                LOG.debug("{} failed, the next node stands in: {}", what, cause.getMessage());
                return attempt(home, next, operation);
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    /**
     * Whether {@code failure} says the node could not be reached: refused, gone, or silent past the call's deadline
     * (after the client's retries). A node that answered that its own storage is throttled or failed transiently is
     * up: its operator fails rather than moving the load to another node.
     */
    private static boolean isUnreachable(Throwable failure) {
        if (!(failure instanceof TransientStorageException transientFailure) || transientFailure.isThrottled()) {
            return false;
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof FlightRuntimeException flight) {
                CallStatus status = flight.status();
                return status.code() == FlightStatusCode.TIMED_OUT || status.code() == FlightStatusCode.UNAVAILABLE
                        && (status.metadata() == null || !status.metadata().containsKey(NodeProtocol.BACKEND_FAULT));
            }
        }
        return true;   // failed before a call was made (the connection)
    }

    @Override
    public void finish(String queryId) {
        synchronized (unreachable) {
            unreachable.remove(queryId);
        }
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
    public void close() {
        clients.forEach(FlightNodeBackend::close);
    }

    @Override
    public String toString() {
        return "FlightNodeOperators" + store.nodes();
    }
}
