package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.Expressions;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.PredicateParseException;
import io.layoutbench.api.predicate.Query;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A query over one Parquet object, in the S3 Select subset of SQL: {@code SELECT items FROM name [WHERE predicate]
 * [LIMIT n]},
 * where items are {@code *}, columns, or the aggregates {@code COUNT(*)}, {@code COUNT}, {@code SUM}, {@code MIN},
 * {@code MAX} and {@code AVG} of a column, and the predicate is the project's predicate language
 * ({@link Query}; a trailing {@code LIMIT n} is allowed). Columns and aggregates cannot be mixed: there is no GROUP
 * BY. DATE columns read as ISO strings ({@code l_shipdate < '1995-01-01'}), which order as the dates do.
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

    private static final Pattern AGGREGATE = Pattern.compile("(?i)(COUNT|SUM|MIN|MAX|AVG)\\s*\\(\\s*(.+?)\\s*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|\"(?:[^\"]|\"\")+\"");

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
     * @throws PredicateException naming the position and what was expected, or the unknown column with the
     *                                 known ones
     */
    public static SelectQuery parse(String sql, MetadataSchema schema) {
        requireNonNull(sql, "sql is null");
        requireNonNull(schema, "schema is null");
        String text = sql.strip();
        if (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).stripTrailing();
        }
        if (!startsWithKeyword(text, 0, "SELECT")) {
            throw new PredicateException("Expected SELECT at position 0 of: " + sql);
        }
        int from = findKeyword(text, "FROM", 6);
        if (from < 0) {
            throw new PredicateException("Expected FROM after the SELECT list of: " + sql);
        }
        int where = findKeyword(text, "WHERE", from + 4);
        int predicateStart = where + 5;
        if (where < 0) {
            where = findKeyword(text, "LIMIT", from + 4);   // a bare LIMIT parses as the predicate language's
            predicateStart = where;
        }
        String selectList = text.substring(6, from).strip();
        String name = (where < 0 ? text.substring(from + 4) : text.substring(from + 4, where)).strip();
        if (!IDENTIFIER.matcher(name).matches()) {
            throw new PredicateException("Expected one object name after FROM at position " + (from + 4)
                    + " but found '" + name + "' in: " + sql);
        }
        Query predicate = where < 0 ? Query.of(Expressions.alwaysTrue())
                : parseWhere(text.substring(predicateStart), schema, sql, predicateStart);
        return new SelectQuery(items(selectList, schema, sql), unquote(name), predicate);
    }

    private static Query parseWhere(String predicate, MetadataSchema schema, String sql, int offset) {
        try {
            return Query.parse(predicate, schema);
        } catch (PredicateParseException e) {
            throw new PredicateException("In the WHERE clause (from position " + offset + ") of " + sql + ": "
                    + e.getMessage(), e);
        }
    }

    private static List<SelectItem> items(String list, MetadataSchema schema, String sql) {
        if (list.isEmpty()) {
            throw new PredicateException("Expected columns or aggregates after SELECT in: " + sql);
        }
        List<SelectItem> items = new ArrayList<>();
        for (String part : splitTopLevel(list)) {
            String item = part.strip();
            Matcher aggregate = AGGREGATE.matcher(item);
            if (item.equals("*")) {
                schema.columns().forEach(c -> items.add(new SelectItem.ColumnItem(c.name())));
            } else if (aggregate.matches()) {
                AggregateFunction function = AggregateFunction.valueOf(aggregate.group(1).toUpperCase(Locale.ROOT));
                String argument = aggregate.group(2);
                if (argument.equals("*")) {
                    if (function != AggregateFunction.COUNT) {
                        throw new PredicateException(function + "(*) is not an aggregate (only COUNT(*) is) in: "
                                + sql);
                    }
                    items.add(new SelectItem.Aggregate(function, Optional.empty()));
                } else {
                    Column column = column(argument, schema, sql);
                    if (function.needsNumbers() && !column.type().isNumeric()) {
                        throw new PredicateException(function + " needs a numeric column but " + column.name()
                                + " is " + column.type() + " in: " + sql);
                    }
                    items.add(new SelectItem.Aggregate(function, Optional.of(column.name())));
                }
            } else {
                items.add(new SelectItem.ColumnItem(column(item, schema, sql).name()));
            }
        }
        return items;
    }

    private static Column column(String identifier, MetadataSchema schema, String sql) {
        if (!IDENTIFIER.matcher(identifier).matches()) {
            throw new PredicateException("Expected a column, '*' or an aggregate in the SELECT list but found '"
                    + identifier + "' in: " + sql);
        }
        String name = unquote(identifier);
        return schema.find(name).orElseThrow(() -> new PredicateException("Unknown column '" + name + "' in: "
                + sql + "; the columns are " + schema.describeColumns()));
    }

    private static String unquote(String identifier) {
        return identifier.startsWith("\"") ? identifier.substring(1, identifier.length() - 1).replace("\"\"", "\"")
                : identifier;
    }

    /** Splits at commas outside quotes and parentheses. */
    private static List<String> splitTopLevel(String list) {
        List<String> parts = new ArrayList<>();
        int[] start = {0};
        scanTopLevel(list, 0, i -> {
            if (list.charAt(i) == ',') {
                parts.add(list.substring(start[0], i));
                start[0] = i + 1;
            }
            return false;
        });
        parts.add(list.substring(start[0]));
        return parts;
    }

    /** The position of {@code keyword} as a word outside quotes and parentheses, from {@code from}; -1 if none. */
    private static int findKeyword(String text, String keyword, int from) {
        return scanTopLevel(text, from, i -> startsWithKeyword(text, i, keyword)
                && (i == 0 || !isIdentifierPart(text.charAt(i - 1))));
    }

    /**
     * Visits the positions of {@code text} from {@code from} that lie outside quotes and parentheses, until
     * {@code stop} says so.
     *
     * @return the position {@code stop} accepted, or -1
     */
    private static int scanTopLevel(String text, int from, java.util.function.IntPredicate stop) {
        int depth = 0;
        char quote = 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && stop.test(i)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean startsWithKeyword(String text, int at, String keyword) {
        int end = at + keyword.length();
        return text.regionMatches(true, at, keyword, 0, keyword.length())
                && (end == text.length() || !isIdentifierPart(text.charAt(end)));
    }

    private static boolean isIdentifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** SQL that parses back to this query. */
    @Override
    public String toString() {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < items.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(items.get(i).label());
        }
        sql.append(" FROM ").append(from);
        String predicate = where.toString();
        if (!predicate.equalsIgnoreCase("TRUE")) {
            sql.append(" WHERE ").append(predicate);
        }
        return sql.toString();
    }
}
