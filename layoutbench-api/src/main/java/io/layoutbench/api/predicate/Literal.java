package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;

/**
 * A constant: a {@code Long} (BIGINT), a finite {@code Double} (DOUBLE), a {@code String} (STRING) or a
 * {@code Boolean} (BOOLEAN; {@link Expressions#alwaysTrue()} and {@link Expressions#alwaysFalse()}). There is no
 * NULL literal: test for NULL with {@code IS NULL}. {@code Integer}, {@code Short} and {@code Byte} values are
 * widened to {@code Long}, {@code Float} to {@code Double}.
 *
 * <pre>{@code
 * Literal kib = Expressions.lit(1024);       // BIGINT
 * Literal ratio = Expressions.lit(1.5);      // DOUBLE, prints 1.5
 * Literal label = Expressions.lit("o'neil"); // prints 'o''neil'
 * }</pre>
 *
 * @param value the constant; never null
 */
public record Literal(Object value) implements Expression {

    public Literal {
        requireNonNull(value, "value is null: there are no NULL literals; test for NULL with IS NULL");
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            value = ((Number) value).longValue();
        } else if (value instanceof Float f) {
            value = f.doubleValue();
        }
        if (value instanceof Double d && !Double.isFinite(d)) {
            // SQL text has no spelling for NaN or infinity, so such a literal could not be printed and re-parsed.
            throw new IllegalArgumentException("A DOUBLE literal must be finite but got " + d);
        }
        if (!(value instanceof Long || value instanceof Double || value instanceof String
                || value instanceof Boolean)) {
            throw new IllegalArgumentException("A literal must be a Long, Double, String or Boolean but got "
                    + value.getClass().getName() + " " + value);
        }
    }

    /** A literal of {@code value}: one of the Java types listed above, or a {@code Literal} (returned as is). */
    public static Literal of(Object value) {
        return value instanceof Literal literal ? literal : new Literal(value);
    }

    /** The SQL type of the value. */
    public ColumnType type() {
        if (value instanceof Long) {
            return ColumnType.BIGINT;
        } else if (value instanceof Double) {
            return ColumnType.DOUBLE;
        } else if (value instanceof String) {
            return ColumnType.STRING;
        }
        return ColumnType.BOOLEAN;
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitLiteral(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
