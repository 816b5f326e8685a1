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
     * Fusion: filters run on the nodes holding the filtered chunks and return bitmaps; each projection is pushed down
     * when the {@link CostEquation} says so, else its chunk is fetched compressed; aggregates return partials.
     */
    FUSION,
    /** Like {@link #FUSION}, but every projection is pushed down whatever the cost equation says (an ablation). */
    PUSH_ALL,
    /**
     * The paper's baseline: the coordinator fetches the column chunks the query needs (the footer says where they
     * are), reassembling them from the blocks that hold them, and evaluates everything itself.
     */
    BASELINE
}
