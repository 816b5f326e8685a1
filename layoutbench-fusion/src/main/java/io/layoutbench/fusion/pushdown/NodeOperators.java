package io.layoutbench.fusion.pushdown;

import java.util.concurrent.CompletableFuture;

/**
 * Where the {@link PushdownEngine} runs the operators it pushes down: on the storage node that holds each chunk. The
 * engine sends every operator of a stage before it waits for any, so an implementation over the network runs them
 * side by side.
 *
 * <ul>
 *   <li>{@link LocalNodeOperators}: every node in this process, one operator at a time, timed; the network is the
 *       engine's {@link ClusterModel}. What {@code fusion bench} reports without a cluster.
 *   <li>{@code FlightNodeOperators} (layoutbench-fusion-cluster): storage-node servers over Arrow Flight, each running
 *       the operators on the blocks it holds; a node that cannot be reached is replaced by a stand-in, which rebuilds
 *       the chunk from k blocks of its stripe (degraded pushdown).
 * </ul>
 *
 * <pre>{@code
 * try (NodeOperators operators = LocalNodeOperators.of(store)) {
 *     PushdownResult r = new PushdownEngine(store, ClusterModel.paper(), operators)
 *             .execute("lineitem.parquet", "SELECT COUNT(*) FROM lineitem WHERE l_quantity < 2", PushdownMode.FUSION);
 * }
 * }</pre>
 */
public interface NodeOperators extends AutoCloseable {

    /**
     * Runs {@code operation} on {@code node}, the node holding (most of) the chunk, or on a stand-in when it cannot.
     * The future fails with the library's storage errors: a chunk that cannot be read even rebuilt fails the query.
     */
    CompletableFuture<NodeReply> run(int node, ChunkOperation operation);

    /**
     * Query {@code queryId} ended (answered or failed): what its operators left on the nodes, such as decoded chunks
     * kept for an operator the plan then did not send, may go. The engine calls it once per query.
     */
    default void finish(String queryId) {
    }

    @Override
    default void close() {
    }
}
