package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.OptionalLong;

/**
 * A {@link Query} bound to a schema: its predicate compiled for row, columnar and statistics evaluation, plus the
 * LIMIT. Immutable and thread-safe; bind once, evaluate many times from any thread.
 *
 * <pre>{@code
 * BoundQuery q1 = Query.parse("human_label = 'streetcar' LIMIT 1").bind(MetadataSchema.imageNet());
 * Selection first = q1.select(table);            // LIMIT applied in row order
 * if (q1.prune(rowGroupStats) == PruneResult.ROWS_CANNOT_MATCH) { ... skip the row group ... }
 * }</pre>
 *
 * @param query     the query as parsed
 * @param predicate its WHERE clause, bound
 */
public record BoundQuery(Query query, BoundPredicate predicate) {

    public BoundQuery {
        requireNonNull(query, "query is null");
        requireNonNull(predicate, "predicate is null");
        if (!query.where().equals(predicate.expression())) {
            throw new IllegalArgumentException("Predicate " + predicate.expression() + " is not the WHERE clause of "
                    + query);
        }
    }

    /** The schema the query was bound to. */
    public MetadataSchema schema() {
        return predicate.schema();
    }

    /** The LIMIT, if any. */
    public OptionalLong limit() {
        return query.limit();
    }

    /** The ids of the rows of {@code table} that match, in row order, at most LIMIT of them. */
    public Selection select(ColumnarTable table) {
        return predicate.select(table, 0, table.rowCount(), limitOrMax());
    }

    /**
     * Like {@link #select(ColumnarTable)} over rows {@code [fromRow, toRow)} only, for callers that have pruned
     * the rest (row groups, shards). The LIMIT applies within the range.
     */
    public Selection select(ColumnarTable table, int fromRow, int toRow) {
        return predicate.select(table, fromRow, toRow, limitOrMax());
    }

    /** Whether {@code row} satisfies the WHERE clause (LIMIT is the caller's business row by row). */
    public boolean test(MetadataRow row) {
        return predicate.test(row);
    }

    /** Whether a row group or page with these statistics can hold a matching row. */
    public PruneResult prune(GroupStatistics statistics) {
        return predicate.prune(statistics);
    }

    private long limitOrMax() {
        return query.limit().orElse(Long.MAX_VALUE);
    }

    @Override
    public String toString() {
        return query.toString();
    }
}
