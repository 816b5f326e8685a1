package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataSchema;

import java.util.OptionalLong;

/**
 * A sample query: a WHERE predicate and an optional LIMIT, parsed from SQL such as
 * {@code human_label = 'lemon' LIMIT 10}. {@code toString()} prints SQL that parses back to an equal query.
 *
 * <p>Parsing is case-insensitive for keywords; strings are single-quoted ({@code ''} for a quote), identifiers may
 * be double-quoted; precedence is SQL's: {@code OR < AND < NOT < comparison, IN, LIKE, BETWEEN, IS NULL < + - < * / <
 * unary -}. {@code x [NOT] BETWEEN a AND b} is {@code [NOT] (x >= a AND x <= b)}, and prints as that. A bare
 * {@code LIMIT n} selects the first n rows. Comments are SQL's: {@code --} to the end of the line
 * and {@code /* ... *}{@code /} (nesting, as in DuckDB), so {@code width > 0 -- 1000} is {@code width > 0}, while
 * {@code width > 0 - -1000} is arithmetic. Errors are {@link PredicateParseException}s naming the position, what was
 * expected and what was found.
 *
 * <pre>{@code
 * MetadataSchema schema = MetadataSchema.imageNet();
 * BoundQuery q = Query.parse("human_label = 'lemon' LIMIT 10", schema).bind(schema);
 * Selection rows = q.select(table);          // at most 10 row ids, in row order
 * }</pre>
 *
 * @param where the predicate rows must satisfy (TRUE, not NULL)
 * @param limit the maximum number of rows, if any; not negative
 */
public record Query(Expression where, OptionalLong limit) {

    /**
     * Longest predicate text the parser accepts, in characters (64 KiB). Only text is bounded: a tree built with
     * {@link Expressions} may hold more (an IN list of 100,000 values), since its caller already holds it in
     * memory; its {@code toString()} then prints text longer than this, which does not parse back.
     */
    public static final int MAX_LENGTH = 64 * 1024;

    /**
     * Deepest expression tree that exists: a leaf is one level, {@code width > 5} two. Every node refuses to be
     * built over a deeper operand with a {@link PredicateException} naming the depth and this limit, whether built
     * by the parser, by {@link Expressions} or by a node's constructor, so the parser and the API accept the same
     * trees, and nothing that walks a tree (binding, printing, evaluation, pruning) can overflow the stack. The
     * parser also refuses more than this many nested parentheses and CASTs, which bound its own recursion.
     */
    public static final int MAX_DEPTH = 128;

    public Query {
        requireNonNull(where, "where is null");
        requireNonNull(limit, "limit is null");
        if (limit.isPresent() && limit.getAsLong() < 0) {
            throw new IllegalArgumentException("LIMIT must not be negative but got " + limit.getAsLong());
        }
    }

    /** A query without LIMIT. */
    public static Query of(Expression where) {
        return new Query(where, OptionalLong.empty());
    }

    /** This query with {@code LIMIT limit}. */
    public Query withLimit(long limit) {
        return new Query(where, OptionalLong.of(limit));
    }

    /**
     * Parses {@code sql} without a schema: syntax and literal types are checked, columns are not.
     *
     * @throws PredicateParseException with the position, what was expected and what was found
     */
    public static Query parse(String sql) {
        return Parser.parse(requireNonNull(sql, "sql is null"), null);
    }

    /**
     * Parses {@code sql} and checks it against {@code schema}, so unknown columns and type mismatches are reported
     * with their position. The result is still unbound: call {@link #bind(MetadataSchema)}.
     *
     * @throws PredicateParseException with the position, what was expected and what was found
     */
    public static Query parse(String sql, MetadataSchema schema) {
        return Parser.parse(requireNonNull(sql, "sql is null"), requireNonNull(schema, "schema is null"));
    }

    /**
     * Resolves columns and checks types against {@code schema}.
     *
     * @throws PredicateException naming the unknown column (and the known ones) or the type mismatch
     */
    public BoundQuery bind(MetadataSchema schema) {
        return new BoundQuery(this, BoundPredicate.bind(where, schema));
    }

    @Override
    public String toString() {
        return limit.isPresent() ? where + " LIMIT " + limit.getAsLong() : where.toString();
    }
}
