package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.fusion.store.FacBackend;

import java.util.concurrent.CompletableFuture;

/**
 * Every storage node's operators in this process, run at once on the caller's thread, one at a time, and timed:
 * Fusion with its network modelled ({@link ClusterModel}). The node of a reply is the chunk's; when its block could
 * not be read (the node is down) and the chunk was rebuilt, the reply is the next node's, which stood in.
 *
 * <pre>{@code
 * PushdownEngine engine = new PushdownEngine(store, ClusterModel.paper(), LocalNodeOperators.of(store));
 * }</pre>
 */
public final class LocalNodeOperators implements NodeOperators {

    private final ChunkOperator operator;
    private final int nodeCount;

    private LocalNodeOperators(FacBackend store) {
        this.operator = new ChunkOperator(store, ChunkOperator.DEFAULT_KEEP_BYTES);
        this.nodeCount = store.nodes().size();
    }

    /** The operators of {@code store}'s nodes, reading through {@code store}. */
    public static LocalNodeOperators of(FacBackend store) {
        return new LocalNodeOperators(requireNonNull(store, "store is null"));
    }

    @Override
    public CompletableFuture<NodeReply> run(int node, ChunkOperation operation) {
        try {
            NodeReply reply = operator.run(node, operation);
            return CompletableFuture.completedFuture(reply.degraded() ? reply.ranOn((node + 1) % nodeCount) : reply);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void finish(String queryId) {
        operator.release(queryId);
    }
}
