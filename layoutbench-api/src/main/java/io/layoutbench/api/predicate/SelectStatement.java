package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataSchema;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A SQL SELECT statement over one object, parsed by the predicate language's own tokenizer and parser, so the WHERE
 * clause is the predicate language and errors give positions in the whole statement:
 *
 * <pre>
 * SELECT item, ... FROM name [WHERE predicate] [GROUP BY column, ...] [ORDER BY key [ASC | DESC], ...] [LIMIT n] [;]
 * </pre>
 *
 * <p>An item is {@code *}, a column, or an aggregate: {@code COUNT(*)}, or {@code COUNT}, {@code SUM}, {@code MIN},
 * {@code MAX} or {@code AVG} of a column or of arithmetic on columns ({@code SUM(l_extendedprice * (1 - l_discount))},
 * as TPC-H writes it); an ORDER BY key is a column or an aggregate. Aggregate names are not
 * reserved (a column may be called {@code count}); the clause keywords {@code SELECT FROM WHERE GROUP ORDER BY ASC
 * DESC} are, inside a statement only: double-quote a column called {@code "order"}. A statement that aggregates
 * (it has an aggregate or a GROUP BY) may select a column only if it is in GROUP BY, and not {@code *}. What runs a
 * statement decides which clauses it supports. {@code toString()} prints SQL that parses back to an equal statement.
 *
 * <pre>{@code
 * SelectStatement s = SelectStatement.parse("SELECT label, COUNT(*), MAX(width) FROM imagenet"
 *         + " WHERE height >= 100 GROUP BY label ORDER BY label LIMIT 10", MetadataSchema.imageNet());
 * s.items();           // [label, COUNT(*), MAX(width)]
 * s.where().limit();   // OptionalLong[10]
 * }</pre>
 *
 * @param items   the SELECT list, as written; at least one
 * @param from    the name after FROM, without quotes
 * @param where   the WHERE predicate ({@code TRUE} without a WHERE clause) and the LIMIT
 * @param groupBy the GROUP BY columns; empty without GROUP BY
 * @param orderBy the ORDER BY keys; empty without ORDER BY
 */
public record SelectStatement(List<Item> items, String from, Query where, List<ColumnRef> groupBy,
                              List<SortKey> orderBy) {

    public SelectStatement {
        items = List.copyOf(requireNonNull(items, "items is null"));
        requireNonNull(from, "from is null");
        requireNonNull(where, "where is null");
        groupBy = List.copyOf(requireNonNull(groupBy, "groupBy is null"));
        orderBy = List.copyOf(requireNonNull(orderBy, "orderBy is null"));
        if (items.isEmpty()) {
            throw new IllegalArgumentException("A SELECT statement selects at least one item");
        }
        if (from.isEmpty()) {
            throw new IllegalArgumentException("The name after FROM cannot be empty");
        }
    }

    /**
     * Parses {@code sql} without a schema: syntax and literal types are checked, columns are not.
     *
     * @throws PredicateParseException with the position, what was expected and what was found
     */
    public static SelectStatement parse(String sql) {
        return SelectParser.parse(requireNonNull(sql, "sql is null"), null);
    }

    /**
     * Parses {@code sql} and checks it against {@code schema}: unknown columns (with the known ones), type
     * mismatches and columns that are neither grouped nor aggregated are reported with their position.
     *
     * @throws PredicateParseException with the position, what was expected and what was found
     */
    public static SelectStatement parse(String sql, MetadataSchema schema) {
        return SelectParser.parse(requireNonNull(sql, "sql is null"), requireNonNull(schema, "schema is null"));
    }

    @Override
    public String toString() {
        StringBuilder sql = new StringBuilder("SELECT ").append(join(items)).append(" FROM ")
                .append(SqlPrinter.identifier(from));
        if (!where.where().equals(Expressions.alwaysTrue())) {
            sql.append(" WHERE ").append(where.where());
        }
        if (!groupBy.isEmpty()) {
            sql.append(" GROUP BY ").append(join(groupBy));
        }
        if (!orderBy.isEmpty()) {
            sql.append(" ORDER BY ").append(join(orderBy));
        }
        where.limit().ifPresent(limit -> sql.append(" LIMIT ").append(limit));
        return sql.toString();
    }

    private static String join(List<?> parts) {
        return parts.stream().map(Object::toString).collect(Collectors.joining(", "));
    }

    /**
     * An entry of the SELECT list or an ORDER BY key; {@code toString()} prints it as SQL.
     *
     * <pre>{@code
     * for (Item item : statement.items()) {
     *     if (item instanceof Aggregate a) { ... } else if (item instanceof ColumnItem c) { ... } else { ... } // *
     * }
     * }</pre>
     */
    public sealed interface Item permits AllColumns, ColumnItem, Aggregate {
    }

    /** {@code *}: every column of the object, in order: {@code new AllColumns()} prints as {@code *}. */
    public record AllColumns() implements Item {
        @Override
        public String toString() {
            return "*";
        }
    }

    /**
     * A column's values: {@code new ColumnItem(Expressions.column("width"))} prints as {@code width}.
     *
     * @param column the column as written; a schema resolves it by name or alias, ignoring case
     */
    public record ColumnItem(ColumnRef column) implements Item {
        public ColumnItem {
            requireNonNull(column, "column is null");
        }

        @Override
        public String toString() {
            return column.toString();
        }
    }

    /**
     * An aggregate over the selected rows (over each group, with GROUP BY).
     *
     * <pre>{@code
     * new Aggregate(Function.COUNT, Optional.empty());                          // COUNT(*)
     * new Aggregate(Function.SUM, Optional.of(Expressions.column("width")));    // SUM(width)
     * }</pre>
     *
     * @param function the function
     * @param argument what it aggregates, empty only for {@code COUNT(*)}: a column, or arithmetic reading at least
     *                 one column such as {@code SUM(l_extendedprice * (1 - l_discount))}
     */
    public record Aggregate(Function function, Optional<Expression> argument) implements Item {
        public Aggregate {
            requireNonNull(function, "function is null");
            requireNonNull(argument, "argument is null");
            if (argument.isEmpty() && function != Function.COUNT) {
                throw new IllegalArgumentException(function + "(*) is not an aggregate; only COUNT(*) is");
            }
        }

        @Override
        public String toString() {
            return function + "(" + argument.map(Expression::toString).orElse("*") + ")";
        }
    }

    /** The aggregate functions, as SQL names them: {@code Function.AVG.needsNumbers()} is true. */
    public enum Function {
        /** Rows, or with an argument its non-NULL values. */
        COUNT,
        /** Sum of numbers. */
        SUM,
        /** Smallest value. */
        MIN,
        /** Largest value. */
        MAX,
        /** Mean of numbers. */
        AVG;

        /** Whether the argument must be numeric (SUM and AVG). */
        public boolean needsNumbers() {
            return this == SUM || this == AVG;
        }

        /** The function that {@code name} spells, ignoring case. */
        static Optional<Function> named(String name) {
            String upper = name.toUpperCase(Locale.ROOT);
            for (Function function : values()) {
                if (function.name().equals(upper)) {
                    return Optional.of(function);
                }
            }
            return Optional.empty();
        }
    }

    /**
     * An ORDER BY key: {@code new SortKey(new ColumnItem(Expressions.column("width")), true)} prints as
     * {@code width DESC}.
     *
     * @param item       a column or an aggregate (not {@code *})
     * @param descending whether DESC was written; ascending otherwise
     */
    public record SortKey(Item item, boolean descending) {
        public SortKey {
            requireNonNull(item, "item is null");
            if (item instanceof AllColumns) {
                throw new IllegalArgumentException("Cannot ORDER BY *: name a column or an aggregate");
            }
        }

        @Override
        public String toString() {
            return descending ? item + " DESC" : item.toString();
        }
    }
}
