package io.layoutbench.spark;

import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringContains;
import org.apache.spark.sql.sources.StringEndsWith;
import org.apache.spark.sql.sources.StringStartsWith;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's filters in layoutbench's predicate language, where they translate exactly: comparisons, IN, NULL tests,
 * AND, OR, NOT and string prefixes, suffixes and substrings without LIKE's wildcards, on metadata columns with
 * plain names. Anything else (a payload column, NaN, a nested name) is not translated and stays with Spark.
 */
final class SparkFilters {

    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private SparkFilters() {
    }

    /** {@code filter} as SQL text over the metadata columns of {@code metadata}, if it translates exactly. */
    static Optional<String> toSql(Filter filter, StructType metadata) {
        if (filter instanceof EqualTo f) {
            return compare(f.attribute(), "=", f.value(), metadata);
        } else if (filter instanceof GreaterThan f) {
            return compare(f.attribute(), ">", f.value(), metadata);
        } else if (filter instanceof GreaterThanOrEqual f) {
            return compare(f.attribute(), ">=", f.value(), metadata);
        } else if (filter instanceof LessThan f) {
            return compare(f.attribute(), "<", f.value(), metadata);
        } else if (filter instanceof LessThanOrEqual f) {
            return compare(f.attribute(), "<=", f.value(), metadata);
        } else if (filter instanceof In f) {
            if (!column(f.attribute(), metadata) || f.values().length == 0) {
                return Optional.empty();
            }
            StringBuilder sql = new StringBuilder(f.attribute()).append(" IN (");
            for (int i = 0; i < f.values().length; i++) {
                Optional<String> literal = literal(f.values()[i]);
                if (literal.isEmpty()) {
                    return Optional.empty();
                }
                sql.append(i == 0 ? "" : ", ").append(literal.get());
            }
            return Optional.of(sql.append(')').toString());
        } else if (filter instanceof IsNull f) {
            return column(f.attribute(), metadata) ? Optional.of(f.attribute() + " IS NULL") : Optional.empty();
        } else if (filter instanceof IsNotNull f) {
            return column(f.attribute(), metadata) ? Optional.of(f.attribute() + " IS NOT NULL") : Optional.empty();
        } else if (filter instanceof And f) {
            return both(f.left(), "AND", f.right(), metadata);
        } else if (filter instanceof Or f) {
            return both(f.left(), "OR", f.right(), metadata);
        } else if (filter instanceof Not f) {
            return toSql(f.child(), metadata).map(child -> "NOT (" + child + ")");
        } else if (filter instanceof StringStartsWith f) {
            return like(f.attribute(), "", f.value(), "%", metadata);
        } else if (filter instanceof StringEndsWith f) {
            return like(f.attribute(), "%", f.value(), "", metadata);
        } else if (filter instanceof StringContains f) {
            return like(f.attribute(), "%", f.value(), "%", metadata);
        }
        return Optional.empty();
    }

    private static Optional<String> both(Filter left, String operator, Filter right, StructType metadata) {
        Optional<String> l = toSql(left, metadata);
        Optional<String> r = toSql(right, metadata);
        return l.isPresent() && r.isPresent() ? Optional.of("(" + l.get() + ") " + operator + " (" + r.get() + ")")
                : Optional.empty();
    }

    private static Optional<String> compare(String column, String operator, Object value, StructType metadata) {
        if (!column(column, metadata)) {
            return Optional.empty();
        }
        if (!operator.equals("=") && value instanceof String s && s.chars().anyMatch(c -> c >= 0xD800)) {
            // The predicate language orders strings by UTF-16 unit, Spark by code point: they disagree only where a
            // character from U+D800 up meets another, so a range with none in its bound selects alike.
            return Optional.empty();
        }
        return literal(value).map(literal -> column + " " + operator + " " + literal);
    }

    private static Optional<String> like(String column, String before, String value, String after,
            StructType metadata) {
        if (!column(column, metadata) || value.contains("%") || value.contains("_")) {
            return Optional.empty();   // no ESCAPE in the predicate language: a wildcard in the text stays with Spark
        }
        return Optional.of(column + " LIKE '" + before + value.replace("'", "''") + after + "'");
    }

    /** Whether {@code name} is a metadata column (not a payload field, which is binary) with a plain name. */
    private static boolean column(String name, StructType schema) {
        return PLAIN_NAME.matcher(name).matches() && java.util.Arrays.stream(schema.fields())
                .anyMatch(f -> f.name().equals(name) && !f.dataType().equals(DataTypes.BinaryType));
    }

    private static Optional<String> literal(Object value) {
        if (value instanceof String s) {
            return Optional.of("'" + s.replace("'", "''") + "'");
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return Optional.of(value.toString());
        }
        if (value instanceof Double d && Double.isFinite(d)) {
            return Optional.of(java.math.BigDecimal.valueOf(d).toPlainString());
        }
        if (value instanceof Boolean b) {
            return Optional.of(b ? "TRUE" : "FALSE");
        }
        return Optional.empty();
    }
}
