package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.ColumnRef;
import io.layoutbench.api.predicate.Expression;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.PredicateParseException;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.SelectStatement;

import java.util.ArrayList;
import java.util.List;

/**
 * A query over one Parquet object, in the S3 Select subset of SQL: {@code SELECT items FROM name [WHERE predicate]
 * [LIMIT n]}, where items are {@code *}, columns, or the aggregates {@code COUNT(*)}, {@code COUNT}, {@code SUM},
 * {@code MIN}, {@code MAX} and {@code AVG} of a column, and the predicate is the project's predicate language
 * ({@link Query}). The text is parsed as a {@link SelectStatement}, so errors give the position in the statement;
 * GROUP BY and ORDER BY parse there but are refused here: pushdown does not run them. Columns and aggregates cannot
 * be mixed without GROUP BY. DATE columns read as ISO strings ({@code l_shipdate < '1995-01-01'}), which order as
 * the dates do (the schema the object's columns give says STRING).
 *
 * <pre>{@code
 * SelectQuery q = SelectQuery.parse(
 *         "SELECT l_extendedprice FROM lineitem WHERE l_quantity < 5 AND l_shipmode = 'AIR'", schema);
 * }</pre>
 *
 * @param items the SELECT list, {@code *} expanded; columns as the schema spells them
 * @param from  the name after FROM (the object is chosen by the caller; the name is kept for messages)
 * @param where the WHERE predicate and LIMIT; {@code TRUE} without a WHERE clause
 */
public record SelectQuery(List<SelectItem> items, String from, Query where) {

    public SelectQuery {
        items = List.copyOf(requireNonNull(items, "items is null"));
        requireNonNull(from, "from is null");
        requireNonNull(where, "where is null");
        if (items.isEmpty()) {
            throw new IllegalArgumentException("A query selects at least one item");
        }
        long aggregates = items.stream().filter(i -> i instanceof SelectItem.Aggregate).count();
        if (aggregates != 0 && aggregates != items.size()) {
            throw new IllegalArgumentException("Cannot mix columns and aggregates in " + items
                    + ": that needs GROUP BY, which is not supported");
        }
    }

    /** Whether the items are aggregates (then the result is one row). */
    public boolean isAggregate() {
        return items.get(0) instanceof SelectItem.Aggregate;
    }

    /**
     * Parses {@code sql} against {@code schema} (the object's columns).
     *
     * @throws PredicateParseException naming the position and what was expected, the unknown column with the known
     *                                 ones, the aggregate that needs a number, or the column that is not aggregated
     * @throws PredicateException      for GROUP BY or ORDER BY, which pushdown does not run
     */
    public static SelectQuery parse(String sql, MetadataSchema schema) {
        requireNonNull(sql, "sql is null");
        requireNonNull(schema, "schema is null");
        SelectStatement statement = SelectStatement.parse(sql, schema);
        if (!statement.groupBy().isEmpty() || !statement.orderBy().isEmpty()) {
            throw new PredicateException((statement.groupBy().isEmpty() ? "ORDER BY" : "GROUP BY")
                    + " is not supported by pushdown, which runs SELECT items FROM name [WHERE predicate] [LIMIT n]: "
                    + sql);
        }
        List<SelectItem> items = new ArrayList<>();
        for (SelectStatement.Item item : statement.items()) {
            if (item instanceof SelectStatement.AllColumns) {
                schema.columns().forEach(c -> items.add(new SelectItem.ColumnItem(c.name())));
            } else if (item instanceof SelectStatement.ColumnItem c) {
                items.add(new SelectItem.ColumnItem(column(c.column(), schema)));
            } else {
                SelectStatement.Aggregate a = (SelectStatement.Aggregate) item;
                items.add(new SelectItem.Aggregate(a.function(), a.argument().map(e -> column(e, schema))));
            }
        }
        return new SelectQuery(items, statement.from(), statement.where());
    }

    /** The column's name as the schema spells it ({@code PRICE} and aliases as {@code price}). */
    private static String column(Expression expression, MetadataSchema schema) {
        if (!(expression instanceof ColumnRef ref)) {
            throw new PredicateException("Pushdown selects and aggregates columns, not expressions such as "
                    + expression);
        }
        return schema.column(ref.name()).name();
    }

    /** SQL that parses back to this query. */
    @Override
    public String toString() {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < items.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(items.get(i).label());
        }
        sql.append(" FROM ").append(from);
        String predicate = where.where().toString();
        if (!predicate.equalsIgnoreCase("TRUE")) {
            sql.append(" WHERE ").append(predicate);
        }
        where.limit().ifPresent(limit -> sql.append(" LIMIT ").append(limit));
        return sql.toString();
    }
}
