package io.layoutbench.fusion.pushdown;

/**
 * How a {@link PushdownEngine} runs a query.
 *
 * <pre>{@code
 * engine.execute("lineitem.parquet", sql, PushdownMode.FUSION);
 * }</pre>
 */
public enum PushdownMode {
    /**
     * Fusion, choosing its {@link QueryPlan} per query: with the pushdown plan, filters run on the nodes holding the
     * filtered chunks and return bitmaps, each projection is pushed down when the {@link CostEquation} says so, else
     * its chunk is fetched compressed, and aggregates return partials; with the fetch plan, chosen when the filter
     * round would not pay for itself, the chunks are fetched whole and everything is evaluated at the coordinator.
     */
    FUSION,
    /** Fusion as the paper runs it: always the pushdown plan, never the fetch plan (an ablation). */
    PAPER,
    /** Like {@link #PAPER}, but every projection is pushed down whatever the cost equation says (an ablation). */
    PUSH_ALL,
    /**
     * The paper's baseline: the coordinator fetches the column chunks the query needs (the footer says where they
     * are), reassembling them from the blocks that hold them, and evaluates everything itself.
     */
    BASELINE
}
