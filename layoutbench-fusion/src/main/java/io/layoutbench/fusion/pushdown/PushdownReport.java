package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;

/**
 * How one query ran: the network traffic, counted byte for byte, the modelled latency, and the decision taken for
 * each column chunk.
 *
 * <pre>{@code
 * PushdownReport report = engine.execute(key, sql, PushdownMode.FUSION).report();
 * System.out.println(report.latency().toMillis() + " ms, " + report.networkBytes() + " bytes");
 * }</pre>
 *
 * @param mode               how it ran
 * @param plan               the plan it ran with (pushdown or fetch), chosen per query, and why
 * @param rowGroups          row groups in the object
 * @param rowGroupsPruned    row groups skipped on footer statistics
 * @param bytesToCoordinator bytes the coordinator received: footer, bitmaps, projected values, partials, chunks
 * @param bytesToNodes       bytes the coordinator sent: operations and bitmaps
 * @param bytesBetweenNodes  bytes nodes read from other nodes: pieces of chunks and blocks to rebuild lost ones
 * @param rpcs               remote calls made
 * @param latency            modelled query latency: measured work plus the {@link ClusterModel}'s network time
 * @param workNanos          measured work of nodes and coordinator (decoding, filtering, projecting), summed
 * @param degradedChunks     chunks rebuilt from other blocks because their node was down
 * @param decisions          per chunk: what was pushed down and what was fetched
 * @param bytesPerNode       per node, the bytes its link carried: operations sent to it, what it returned (results,
 *                           chunks fetched from it) and the pieces and blocks it read from other nodes
 */
public record PushdownReport(PushdownMode mode, QueryPlan plan, int rowGroups, int rowGroupsPruned,
        long bytesToCoordinator, long bytesToNodes, long bytesBetweenNodes, long rpcs, Duration latency, long workNanos,
        int degradedChunks, List<ChunkDecision> decisions, List<Long> bytesPerNode) {

    public PushdownReport {
        requireNonNull(mode, "mode is null");
        requireNonNull(plan, "plan is null");
        requireNonNull(latency, "latency is null");
        decisions = List.copyOf(decisions);
        bytesPerNode = List.copyOf(bytesPerNode);
    }

    /** All bytes that crossed the network. */
    public long networkBytes() {
        return bytesToCoordinator + bytesToNodes + bytesBetweenNodes;
    }

    /** Projections pushed down, and projections whose chunk was fetched instead. */
    public long projectionsPushed() {
        return decisions.stream().filter(d -> d.operation().equals("project") && d.pushedDown()).count();
    }

    /** Projections whose chunk was fetched compressed because the cost equation said so. */
    public long projectionsFetched() {
        return decisions.stream().filter(d -> d.operation().equals("project") && !d.pushedDown()).count();
    }
}
