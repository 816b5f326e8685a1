package io.layoutbench.spark;

import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.spark.sql.connector.expressions.Cast;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.GeneralScalarExpression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Spark's predicates (DataSource V2) in layoutbench's predicate language, where they translate exactly: comparisons
 * (also of arithmetic, {@code + - * /}, and of {@code CAST(... AS DOUBLE)}: the paper's Q8), {@code IN}, NULL tests,
 * {@code AND}, {@code OR}, {@code NOT}, and string prefixes, suffixes and substrings without LIKE's wildcards, on
 * metadata columns with plain names. Anything else (a function, a payload column, NaN, a nested name, a cast to
 * another type) is not translated and stays with Spark, which evaluates it on the rows it gets.
 *
 * <p>Two differences are accepted, both where Spark's ANSI mode would raise an error instead of answering: a division
 * by zero or a BIGINT overflow is NULL in the store (the row does not match). String ranges are translated only when
 * their bound has no character from U+D800 up: the predicate language orders strings by UTF-16 unit, Spark by code
 * point, and the two agree on such bounds.
 */
final class SparkPredicates {

    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private SparkPredicates() {
    }

    /** {@code predicate} as SQL text over the metadata columns of {@code schema}, if it translates exactly. */
    static Optional<String> toSql(Predicate predicate, StructType schema) {
        Expression[] c = predicate.children();
        switch (predicate.name()) {
            case "AND", "OR" -> {
                Optional<String> left = toSql((Predicate) c[0], schema);
                Optional<String> right = toSql((Predicate) c[1], schema);
                return left.isPresent() && right.isPresent()
                        ? Optional.of("(" + left.get() + ") " + predicate.name() + " (" + right.get() + ")")
                        : Optional.empty();
            }
            case "NOT" -> {
                return toSql((Predicate) c[0], schema).map(child -> "NOT (" + child + ")");
            }
            case "ALWAYS_TRUE" -> {
                return Optional.of("TRUE");
            }
            case "ALWAYS_FALSE" -> {
                return Optional.of("FALSE");
            }
            case "IS_NULL", "IS_NOT_NULL" -> {
                return value(c[0], schema).map(v -> v + (predicate.name().equals("IS_NULL") ? " IS NULL"
                        : " IS NOT NULL"));
            }
            case "=", "<>", "<", "<=", ">", ">=" -> {
                if (!predicate.name().equals("=") && !predicate.name().equals("<>")
                        && (unorderedString(c[0]) || unorderedString(c[1]))) {
                    return Optional.empty();
                }
                Optional<String> left = value(c[0], schema);
                Optional<String> right = value(c[1], schema);
                return left.isPresent() && right.isPresent()
                        ? Optional.of(left.get() + " " + predicate.name() + " " + right.get()) : Optional.empty();
            }
            case "IN" -> {
                Optional<String> column = value(c[0], schema);
                if (column.isEmpty() || c.length < 2) {
                    return Optional.empty();
                }
                StringBuilder sql = new StringBuilder(column.get()).append(" IN (");
                for (int i = 1; i < c.length; i++) {
                    Optional<String> literal = c[i] instanceof Literal<?> l ? literal(l.value()) : Optional.empty();
                    if (literal.isEmpty()) {
                        return Optional.empty();
                    }
                    sql.append(i == 1 ? "" : ", ").append(literal.get());
                }
                return Optional.of(sql.append(')').toString());
            }
            case "STARTS_WITH" -> {
                return like(c, "", "%", schema);
            }
            case "ENDS_WITH" -> {
                return like(c, "%", "", schema);
            }
            case "CONTAINS" -> {
                return like(c, "%", "%", schema);
            }
            default -> {
                return Optional.empty();   // <=> (null-safe equality) and the rest: Spark's
            }
        }
    }

    /** A value: a metadata column, a literal, arithmetic of values, or a value cast to DOUBLE. */
    private static Optional<String> value(Expression expression, StructType schema) {
        if (expression instanceof NamedReference reference) {
            String[] names = reference.fieldNames();
            return names.length == 1 && column(names[0], schema) ? Optional.of(names[0]) : Optional.empty();
        }
        if (expression instanceof Literal<?> literal) {
            return literal(literal.value());
        }
        if (expression instanceof Cast cast) {
            return cast.dataType().equals(DataTypes.DoubleType)
                    ? value(cast.expression(), schema).map(v -> "CAST(" + v + " AS DOUBLE)") : Optional.empty();
        }
        if (expression instanceof GeneralScalarExpression arithmetic && !(expression instanceof Predicate)
                && arithmetic.children().length == 2 && "+-*/".contains(arithmetic.name())
                && arithmetic.name().length() == 1) {
            Optional<String> left = value(arithmetic.children()[0], schema);
            Optional<String> right = value(arithmetic.children()[1], schema);
            return left.isPresent() && right.isPresent()
                    ? Optional.of("(" + left.get() + " " + arithmetic.name() + " " + right.get() + ")")
                    : Optional.empty();
        }
        return Optional.empty();
    }

    private static Optional<String> like(Expression[] c, String before, String after, StructType schema) {
        Optional<String> column = value(c[0], schema);
        if (column.isEmpty() || !(c[1] instanceof Literal<?> literal)
                || !(literal.value() instanceof UTF8String text)) {
            return Optional.empty();
        }
        String value = text.toString();
        if (value.contains("%") || value.contains("_")) {
            return Optional.empty();   // no ESCAPE in the predicate language: a wildcard in the text stays with Spark
        }
        return Optional.of(column.get() + " LIKE '" + before + value.replace("'", "''") + after + "'");
    }

    /** A string literal whose order differs between UTF-16 units and code points somewhere. */
    private static boolean unorderedString(Expression expression) {
        return expression instanceof Literal<?> literal && literal.value() instanceof UTF8String s
                && s.toString().chars().anyMatch(ch -> ch >= 0xD800);
    }

    /** Whether {@code name} is a metadata column (not a payload field, which is binary) with a plain name. */
    private static boolean column(String name, StructType schema) {
        return PLAIN_NAME.matcher(name).matches() && Arrays.stream(schema.fields())
                .anyMatch(f -> f.name().equals(name) && !f.dataType().equals(DataTypes.BinaryType));
    }

    private static Optional<String> literal(Object value) {
        if (value instanceof UTF8String s) {
            return Optional.of("'" + s.toString().replace("'", "''") + "'");
        }
        if (value instanceof String s) {
            return Optional.of("'" + s.replace("'", "''") + "'");
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return Optional.of(value.toString());
        }
        if (value instanceof Double d && Double.isFinite(d)) {
            return Optional.of(java.math.BigDecimal.valueOf(d).toPlainString());
        }
        if (value instanceof Float f && Float.isFinite(f)) {
            return Optional.of(java.math.BigDecimal.valueOf(f.doubleValue()).toPlainString());
        }
        if (value instanceof Boolean b) {
            return Optional.of(b ? "TRUE" : "FALSE");
        }
        return Optional.empty();
    }
}
