package io.layoutbench.fusion.pushdown;

/**
 * The aggregates a {@link SelectQuery} may compute. Each is pushed down per column chunk: a storage node returns a
 * partial (count, sum, minimum, maximum) of the rows the filter selected, and the coordinator merges the partials.
 *
 * <pre>{@code
 * SelectQuery q = SelectQuery.parse("SELECT COUNT(*), AVG(l_discount) FROM lineitem WHERE l_quantity < 24", schema);
 * }</pre>
 */
public enum AggregateFunction {
    /** Rows selected; {@code COUNT(column)} counts the non-NULL values of the column. */
    COUNT,
    /** Sum of a numeric column; NULL over no rows. */
    SUM,
    /** Smallest value; NULL over no rows. */
    MIN,
    /** Largest value; NULL over no rows. */
    MAX,
    /** Mean of a numeric column, as a DOUBLE; NULL over no rows. */
    AVG;

    /** Whether the function needs a numeric column. */
    public boolean needsNumbers() {
        return this == SUM || this == AVG;
    }
}
