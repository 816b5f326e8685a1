package io.layoutbench.api.layout;

/**
 * The order in which a query hands out samples.
 *
 * <pre>{@code
 * QueryOptions fastest = QueryOptions.defaults().withOrder(ResultOrder.COMPLETION);
 * }</pre>
 */
public enum ResultOrder {
    /** Dataset order: the order samples were written. Deterministic; a slow read holds up later samples. */
    DATASET,
    /** The order reads complete. Fastest to first sample; not deterministic. */
    COMPLETION
}
