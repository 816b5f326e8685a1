package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

/**
 * A predicate bound to a schema: columns resolved, types checked, and compiled once into three evaluators that
 * agree with each other: row at a time ({@link #test}, the reference), columnar in bulk ({@link #select}), and
 * statistics pruning ({@link #prune}). Immutable and thread-safe: bind once, evaluate from any number of threads.
 *
 * <p>Evaluation never throws for data-dependent reasons: a zero divisor, a BIGINT overflow or an out-of-range CAST
 * yields NULL, and a row is selected only when the predicate is TRUE (not NULL).
 *
 * <pre>{@code
 * BoundPredicate wide = Query.parse("CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5").where()
 *         .bind(MetadataSchema.imageNet());
 * Selection rows = wide.select(table);
 * boolean one = wide.test(table.row(0));
 * }</pre>
 */
public final class BoundPredicate {
    private final Expression expression;
    private final MetadataSchema schema;
    private final RowEvaluator rowEvaluator;
    private final ColumnarEvaluator columnarEvaluator;
    private final StatisticsEvaluator statisticsEvaluator;

    private BoundPredicate(Expression expression, Binder binder) {
        this.expression = expression;
        this.schema = binder.schema();
        this.rowEvaluator = new RowEvaluator(expression, binder);
        this.columnarEvaluator = new ColumnarEvaluator(expression, binder);
        this.statisticsEvaluator = new StatisticsEvaluator(expression, binder);
    }

    /** See {@link Expression#bind(MetadataSchema)}. */
    static BoundPredicate bind(Expression expression, MetadataSchema schema) {
        requireNonNull(expression, "expression is null");
        requireNonNull(schema, "schema is null");
        Binder binder = new Binder(schema);
        ColumnType type = binder.typeOf(expression);
        if (type != ColumnType.BOOLEAN) {
            throw TypeRules.mismatch("a WHERE clause must be a BOOLEAN predicate but "
                    + TypeRules.describe(expression, TypeRules.Kind.of(type)) + " is not: expected BOOLEAN but"
                    + " found " + type);
        }
        return new BoundPredicate(expression, binder);
    }

    /** The expression as written (column names and aliases as given). */
    public Expression expression() {
        return expression;
    }

    /** The schema this predicate was bound to; rows and tables must have it. */
    public MetadataSchema schema() {
        return schema;
    }

    /** Whether the predicate is TRUE for {@code row} (FALSE and NULL are both "no"). */
    public boolean test(MetadataRow row) {
        return Boolean.TRUE.equals(evaluate(row));
    }

    /** The predicate's three-valued result for {@code row}: TRUE, FALSE, or null for SQL NULL. */
    public Boolean evaluate(MetadataRow row) {
        requireNonNull(row, "row is null");
        checkSchema(row.schema(), "Row");
        return rowEvaluator.evaluate(row);
    }

    /** The ids of all rows of {@code table} where the predicate is TRUE, ascending. */
    public Selection select(ColumnarTable table) {
        return select(table, 0, table.rowCount(), Long.MAX_VALUE);
    }

    /**
     * The ids of the first {@code limit} rows in {@code [fromRow, toRow)} of {@code table} where the predicate is
     * TRUE, ascending.
     */
    public Selection select(ColumnarTable table, int fromRow, int toRow, long limit) {
        requireNonNull(table, "table is null");
        checkSchema(table.schema(), "Table");
        return columnarEvaluator.select(table, fromRow, toRow, limit);
    }

    /**
     * Whether a row group or page with these statistics can hold a row where the predicate is TRUE.
     * {@link PruneResult#ROWS_CANNOT_MATCH} is a guarantee; anything undecidable is
     * {@link PruneResult#ROWS_MIGHT_MATCH}.
     *
     * @throws PredicateException if the statistics' value types do not match the schema
     */
    public PruneResult prune(GroupStatistics statistics) {
        return statisticsEvaluator.prune(requireNonNull(statistics, "statistics is null"));
    }

    private void checkSchema(MetadataSchema other, String what) {
        if (other != schema && !other.equals(schema)) {
            throw new PredicateException("Schema mismatch: " + what + " has columns [" + other.describeColumns()
                    + "] but the predicate " + TypeRules.excerpt(expression) + " was bound to ["
                    + schema.describeColumns() + "]");
        }
    }

    @Override
    public String toString() {
        return expression.toString();
    }
}
