package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.Arithmetic;
import io.layoutbench.api.predicate.Cast;
import io.layoutbench.api.predicate.ColumnRef;
import io.layoutbench.api.predicate.Expression;
import io.layoutbench.api.predicate.Expressions;
import io.layoutbench.api.predicate.Literal;
import io.layoutbench.api.predicate.Negate;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.PredicateParseException;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.SelectStatement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A query over one Parquet object: {@code SELECT items FROM name [WHERE predicate] [GROUP BY column, ...]
 * [ORDER BY item [ASC | DESC], ...] [LIMIT n]}, where items are {@code *}, columns, or the aggregates
 * {@code COUNT(*)}, {@code COUNT}, {@code SUM}, {@code MIN}, {@code MAX} and {@code AVG} of a column or of arithmetic
 * on columns, and the predicate is the project's predicate language ({@link Query}). The text is parsed as a
 * {@link SelectStatement}, so errors give the position in the statement. With aggregates or GROUP BY, the columns
 * selected must be GROUP BY keys. ORDER BY names items of the SELECT list (a column, or an aggregate as written);
 * it and LIMIT apply to the final result. Without ORDER BY, groups come in ascending order of their keys, NULLs
 * last. DATE columns read as ISO strings ({@code l_shipdate < '1995-01-01'}), which order as the dates do; DECIMAL
 * columns as DOUBLE in predicates (the schema the object's columns give says so) and exactly in results.
 *
 * <pre>{@code
 * SelectQuery q = SelectQuery.parse("SELECT l_returnflag, SUM(l_extendedprice * (1 - l_discount)) FROM lineitem"
 *         + " WHERE l_shipdate <= '1998-09-02' GROUP BY l_returnflag ORDER BY l_returnflag DESC", schema);
 * }</pre>
 *
 * @param items   the SELECT list, {@code *} expanded; columns as the schema spells them
 * @param from    the name after FROM (the object is chosen by the caller; the name is kept for messages)
 * @param where   the WHERE predicate and LIMIT; {@code TRUE} without a WHERE clause
 * @param groupBy the GROUP BY columns, as the schema spells them; empty without GROUP BY
 * @param orderBy the ORDER BY keys, as items of {@code items}; empty without ORDER BY
 */
public record SelectQuery(List<SelectItem> items, String from, Query where, List<String> groupBy,
        List<SortKey> orderBy) {

    public SelectQuery {
        items = List.copyOf(requireNonNull(items, "items is null"));
        requireNonNull(from, "from is null");
        requireNonNull(where, "where is null");
        groupBy = List.copyOf(requireNonNull(groupBy, "groupBy is null"));
        orderBy = List.copyOf(requireNonNull(orderBy, "orderBy is null"));
        if (items.isEmpty()) {
            throw new IllegalArgumentException("A query selects at least one item");
        }
        boolean aggregates = !groupBy.isEmpty() || items.stream().anyMatch(i -> i instanceof SelectItem.Aggregate);
        for (SelectItem item : items) {
            if (aggregates && item instanceof SelectItem.ColumnItem c
                    && groupBy.stream().noneMatch(k -> k.equalsIgnoreCase(c.column()))) {
                throw new IllegalArgumentException("Column " + c.column() + " is selected with aggregates but is not"
                        + " a GROUP BY key" + (groupBy.isEmpty() ? "" : " (" + String.join(", ", groupBy) + ")")
                        + ": select only GROUP BY keys beside aggregates");
            }
        }
        for (SortKey key : orderBy) {
            if (key.item() >= items.size()) {
                throw new IllegalArgumentException("ORDER BY key " + key + " is past the " + items.size()
                        + " items of the SELECT list");
            }
        }
    }

    /** A query without GROUP BY and ORDER BY. */
    public SelectQuery(List<SelectItem> items, String from, Query where) {
        this(items, from, where, List.of(), List.of());
    }

    /**
     * An ORDER BY key: an item of the SELECT list.
     *
     * <pre>{@code
     * new SelectQuery.SortKey(1, true);    // ORDER BY the second item, descending
     * }</pre>
     *
     * @param item       the index of the item in {@link #items()}
     * @param descending whether DESC was written
     */
    public record SortKey(int item, boolean descending) {
        public SortKey {
            if (item < 0) {
                throw new IllegalArgumentException("A sort key's item index cannot be negative: " + item);
            }
        }
    }

    /** Whether the query aggregates (aggregates or GROUP BY): then it returns one row per group, or one row. */
    public boolean isAggregate() {
        return isGrouped() || items.stream().anyMatch(i -> i instanceof SelectItem.Aggregate);
    }

    /** Whether the query has GROUP BY. */
    public boolean isGrouped() {
        return !groupBy.isEmpty();
    }

    /**
     * Parses {@code sql} against {@code schema} (the object's columns).
     *
     * @throws PredicateParseException naming the position and what was expected, the unknown column with the known
     *                                 ones, the aggregate that needs a number, the column that is neither grouped
     *                                 nor aggregated, or the GROUP BY item that is not a column
     * @throws PredicateException      for an ORDER BY key that is not in the SELECT list, naming it and where it is
     */
    public static SelectQuery parse(String sql, MetadataSchema schema) {
        requireNonNull(sql, "sql is null");
        requireNonNull(schema, "schema is null");
        SelectStatement statement = SelectStatement.parse(sql, schema);
        List<SelectItem> items = new ArrayList<>();
        for (SelectStatement.Item item : statement.items()) {
            if (item instanceof SelectStatement.AllColumns) {
                schema.columns().forEach(c -> items.add(new SelectItem.ColumnItem(c.name())));
            } else {
                items.add(item(item, schema));
            }
        }
        List<String> groupBy = statement.groupBy().stream().map(c -> schema.column(c.name()).name()).toList();
        List<SortKey> orderBy = new ArrayList<>();
        for (int k = 0; k < statement.orderBy().size(); k++) {
            SelectStatement.SortKey key = statement.orderBy().get(k);
            SelectItem wanted = item(key.item(), schema);
            int index = items.indexOf(wanted);
            if (index < 0) {
                throw new PredicateException("Unknown ORDER BY key " + key.item() + where(sql, key.item(), k)
                        + ": pushdown orders the result by the items of its SELECT list, which are "
                        + items.stream().map(SelectItem::label).collect(Collectors.joining(", ")));
            }
            orderBy.add(new SortKey(index, key.descending()));
        }
        try {
            return new SelectQuery(items, statement.from(), statement.where(), groupBy, orderBy);
        } catch (IllegalArgumentException e) {
            throw new PredicateException(e.getMessage() + ": " + sql, e);
        }
    }

    private static SelectItem item(SelectStatement.Item item, MetadataSchema schema) {
        if (item instanceof SelectStatement.ColumnItem c) {
            return new SelectItem.ColumnItem(schema.column(c.column().name()).name());
        }
        SelectStatement.Aggregate a = (SelectStatement.Aggregate) item;
        return new SelectItem.Aggregate(a.function(), a.argument().map(e -> canonical(e, schema)));
    }

    /** Where ORDER BY key number {@code k} stands: its column in the text, when it is written as printed. */
    private static String where(String sql, SelectStatement.Item key, int k) {
        String upper = sql.toUpperCase(Locale.ROOT);
        int orderBy = upper.lastIndexOf("ORDER BY");
        int at = orderBy < 0 ? -1 : upper.indexOf(key.toString().toUpperCase(Locale.ROOT), orderBy);
        return " (ORDER BY key " + (k + 1) + (at < 0 ? "" : ", at column " + (at + 1)) + ")";
    }

    /** {@code expression} with its columns spelled as the schema spells them ({@code PRICE} as {@code price}). */
    private static Expression canonical(Expression expression, MetadataSchema schema) {
        if (expression instanceof ColumnRef ref) {
            return Expressions.column(schema.column(ref.name()).name());
        } else if (expression instanceof Literal) {
            return expression;
        } else if (expression instanceof Arithmetic a) {
            return new Arithmetic(a.operator(), canonical(a.left(), schema), canonical(a.right(), schema));
        } else if (expression instanceof Negate n) {
            return new Negate(canonical(n.operand(), schema));
        } else if (expression instanceof Cast c && c.type() == ColumnType.DOUBLE) {
            return new Cast(canonical(c.operand(), schema), c.type());
        }
        throw new PredicateException("Pushdown aggregates columns and arithmetic on them, not " + expression);
    }

    /** SQL that parses back to this query. */
    @Override
    public String toString() {
        StringBuilder sql = new StringBuilder("SELECT ");
        sql.append(items.stream().map(SelectItem::label).collect(Collectors.joining(", ")));
        sql.append(" FROM ").append(from);
        String predicate = where.where().toString();
        if (!predicate.equalsIgnoreCase("TRUE")) {
            sql.append(" WHERE ").append(predicate);
        }
        if (!groupBy.isEmpty()) {
            sql.append(" GROUP BY ").append(String.join(", ", groupBy));
        }
        if (!orderBy.isEmpty()) {
            sql.append(" ORDER BY ").append(orderBy.stream().map(k -> items.get(k.item()).label()
                    + (k.descending() ? " DESC" : "")).collect(Collectors.joining(", ")));
        }
        where.limit().ifPresent(limit -> sql.append(" LIMIT ").append(limit));
        return sql.toString();
    }
}
