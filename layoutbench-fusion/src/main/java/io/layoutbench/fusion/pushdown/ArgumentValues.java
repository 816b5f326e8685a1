package io.layoutbench.fusion.pushdown;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.predicate.Arithmetic;
import io.layoutbench.api.predicate.ArithmeticOperator;
import io.layoutbench.api.predicate.Cast;
import io.layoutbench.api.predicate.ColumnRef;
import io.layoutbench.api.predicate.Expression;
import io.layoutbench.api.predicate.Literal;
import io.layoutbench.api.predicate.Negate;

import java.math.BigDecimal;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Evaluates an aggregate's argument, arithmetic on columns, over the selected rows at the coordinator. Arithmetic that
 * DuckDB keeps exact is kept exact: {@code + - *} on BIGINT and DECIMAL columns and integer literals runs on scaled
 * 64-bit integers (a DECIMAL(15,2) times a DECIMAL(15,2) has scale 4), so {@code SUM(l_extendedprice * (1 -
 * l_discount))} sums exactly; anything with a DOUBLE column or literal, and every division, is DOUBLE. A scaled value
 * that leaves 64 bits fails naming the expression, rather than round.
 */
final class ArgumentValues {

    private static final long[] POWERS_OF_TEN = new long[19];
    /** 1e0 to 1e22, each exact as a double (parsing rounds correctly, and these need no rounding). */
    private static final double[] EXACT_POWERS_OF_TEN = new double[23];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
        for (int i = 0; i < EXACT_POWERS_OF_TEN.length; i++) {
            EXACT_POWERS_OF_TEN[i] = Double.parseDouble("1e" + i);
        }
    }

    private ArgumentValues() {
    }

    /**
     * The scale of {@code expression}'s exact values (0 for BIGINT, the DECIMAL's scale), or empty when it is
     * DOUBLE (or not a number: a date, a string or a boolean column aggregated by COUNT, MIN or MAX).
     */
    static OptionalInt scale(Expression expression, ObjectColumns columns) {
        if (expression instanceof ColumnRef ref) {
            if (columns.decimalScale(ref.name()).isPresent()) {
                return columns.decimalScale(ref.name());
            }
            return columns.type(ref.name()) == ColumnType.BIGINT && !columns.isDate(ref.name()) ? OptionalInt.of(0)
                    : OptionalInt.empty();
        } else if (expression instanceof Literal literal) {
            return literal.value() instanceof Long ? OptionalInt.of(0) : OptionalInt.empty();
        } else if (expression instanceof Negate negate) {
            return scale(negate.operand(), columns);
        } else if (expression instanceof Arithmetic a && a.operator() != ArithmeticOperator.DIVIDE) {
            OptionalInt left = scale(a.left(), columns);
            OptionalInt right = scale(a.right(), columns);
            if (left.isEmpty() || right.isEmpty()) {
                return OptionalInt.empty();
            }
            int s = a.operator() == ArithmeticOperator.MULTIPLY ? left.getAsInt() + right.getAsInt()
                    : Math.max(left.getAsInt(), right.getAsInt());
            return s < POWERS_OF_TEN.length ? OptionalInt.of(s) : OptionalInt.empty();
        }
        return OptionalInt.empty();
    }

    /**
     * {@code expression} over {@code rows} rows of {@code values} (raw, dense: row i is the i-th selected row): Longs
     * scaled by {@link #scale} when it has one, else Doubles.
     *
     * @throws ArithmeticException naming the expression when an exact value leaves 64 bits
     */
    static ColumnVector evaluate(Expression expression, Map<String, ColumnVector> values, int rows,
            ObjectColumns columns) {
        OptionalInt scale = scale(expression, columns);
        if (scale.isPresent()) {
            long[] out = new long[rows];
            long[] nulls = new long[ColumnVector.bitmapWords(rows)];
            for (int r = 0; r < rows; r++) {
                try {
                    Long v = exact(expression, values, r, columns);
                    if (v == null) {
                        nulls[r >>> 6] |= 1L << r;
                    } else {
                        out[r] = v;
                    }
                } catch (ArithmeticException e) {
                    throw new ArithmeticException(expression + " leaves 64 bits at scale " + scale.getAsInt()
                            + ": it cannot be evaluated exactly");
                }
            }
            return new ColumnVector.Longs(out, nulls);
        }
        double[] out = new double[rows];
        long[] nulls = new long[ColumnVector.bitmapWords(rows)];
        for (int r = 0; r < rows; r++) {
            Double v = approximate(expression, values, r, columns);
            if (v == null) {
                nulls[r >>> 6] |= 1L << r;
            } else {
                out[r] = v;
            }
        }
        return new ColumnVector.Doubles(out, nulls);
    }

    /** The value at {@code row}, scaled by {@link #scale}, or null. */
    private static Long exact(Expression e, Map<String, ColumnVector> values, int row, ObjectColumns columns) {
        if (e instanceof ColumnRef ref) {
            ColumnVector.Longs column = (ColumnVector.Longs) values.get(ref.name());
            return column.isNull(row) ? null : column.values()[row];
        } else if (e instanceof Literal literal) {
            return (Long) literal.value();
        } else if (e instanceof Negate negate) {
            Long v = exact(negate.operand(), values, row, columns);
            return v == null ? null : Math.negateExact(v);
        }
        Arithmetic a = (Arithmetic) e;
        Long left = exact(a.left(), values, row, columns);
        Long right = left == null ? null : exact(a.right(), values, row, columns);
        if (right == null) {
            return null;
        }
        if (a.operator() == ArithmeticOperator.MULTIPLY) {
            return Math.multiplyExact(left, right);
        }
        int ls = scale(a.left(), columns).getAsInt();
        int rs = scale(a.right(), columns).getAsInt();
        long l = Math.multiplyExact(left, POWERS_OF_TEN[Math.max(ls, rs) - ls]);
        long r = Math.multiplyExact(right, POWERS_OF_TEN[Math.max(ls, rs) - rs]);
        return a.operator() == ArithmeticOperator.ADD ? Math.addExact(l, r) : Math.subtractExact(l, r);
    }

    /** The value at {@code row} as a double, or null (also for a division by zero, as the predicate language). */
    private static Double approximate(Expression e, Map<String, ColumnVector> values, int row,
            ObjectColumns columns) {
        if (e instanceof ColumnRef ref) {
            ColumnVector column = values.get(ref.name());
            if (column.isNull(row)) {
                return null;
            }
            if (column instanceof ColumnVector.Doubles d) {
                return d.values()[row];
            }
            long v = ((ColumnVector.Longs) column).values()[row];
            OptionalInt scale = columns.decimalScale(ref.name());
            return scale.isPresent() ? toDouble(v, scale.getAsInt()) : (double) v;
        } else if (e instanceof Literal literal) {
            return ((Number) literal.value()).doubleValue();
        } else if (e instanceof Negate negate) {
            Double v = approximate(negate.operand(), values, row, columns);
            return v == null ? null : -v;
        } else if (e instanceof Cast cast) {
            return approximate(cast.operand(), values, row, columns);
        }
        Arithmetic a = (Arithmetic) e;
        Double left = approximate(a.left(), values, row, columns);
        Double right = left == null ? null : approximate(a.right(), values, row, columns);
        if (right == null) {
            return null;
        }
        return switch (a.operator()) {
            case ADD -> left + right;
            case SUBTRACT -> left - right;
            case MULTIPLY -> left * right;
            case DIVIDE -> right == 0 ? null : left / right;
        };
    }

    /** The double nearest {@code unscaled / 10^scale}: one correctly rounded division while both are exact. */
    static double toDouble(long unscaled, int scale) {
        if (Math.abs(unscaled) < (1L << 53) && scale >= 0 && scale < EXACT_POWERS_OF_TEN.length) {
            return unscaled / EXACT_POWERS_OF_TEN[scale];
        }
        return BigDecimal.valueOf(unscaled, scale).doubleValue();
    }
}
