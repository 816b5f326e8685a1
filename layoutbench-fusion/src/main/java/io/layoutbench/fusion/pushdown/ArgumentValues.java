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
import java.util.Arrays;
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
     * scaled by {@link #scale} when it has one, else Doubles. Evaluated a node of the expression at a time over all
     * rows, as the predicate evaluator does; a NULL operand makes a NULL.
     *
     * @throws ArithmeticException naming the expression when an exact value leaves 64 bits
     */
    static ColumnVector evaluate(Expression expression, Map<String, ColumnVector> values, int rows,
            ObjectColumns columns) {
        if (scale(expression, columns).isPresent()) {
            try {
                Exact result = new Evaluation(values, rows, columns).exact(expression);
                return new ColumnVector.Longs(result.values(), result.nulls());
            } catch (ArithmeticException e) {
                throw new ArithmeticException(expression + " leaves 64 bits at scale "
                        + scale(expression, columns).getAsInt() + ": it cannot be evaluated exactly");
            }
        }
        Approximate result = new Evaluation(values, rows, columns).approximate(expression);
        return new ColumnVector.Doubles(result.values(), result.nulls());
    }

    /** Scaled integers and their NULLs (a bitmap as {@link ColumnVector} keeps it). */
    private record Exact(long[] values, long[] nulls) {
    }

    /** Doubles and their NULLs. */
    private record Approximate(double[] values, long[] nulls) {
    }

    /** One evaluation over dense columns of {@code rows} rows. */
    private record Evaluation(Map<String, ColumnVector> columnValues, int rows, ObjectColumns columns) {

        Exact exact(Expression e) {
            if (e instanceof ColumnRef ref) {
                ColumnVector.Longs column = (ColumnVector.Longs) columnValues.get(ref.name());
                return new Exact(column.values(), column.nulls());
            } else if (e instanceof Literal literal) {
                long[] out = new long[rows];
                Arrays.fill(out, (Long) literal.value());
                return new Exact(out, ColumnVector.NO_NULLS);
            } else if (e instanceof Negate negate) {
                Exact operand = exact(negate.operand());
                long[] out = new long[rows];
                for (int r = 0; r < rows; r++) {
                    out[r] = Math.negateExact(operand.values()[r]);
                }
                return new Exact(out, operand.nulls());
            }
            Arithmetic a = (Arithmetic) e;
            Exact left = exact(a.left());
            Exact right = exact(a.right());
            long[] l = left.values();
            long[] r = right.values();
            long[] out = new long[rows];
            if (a.operator() == ArithmeticOperator.MULTIPLY) {
                for (int i = 0; i < rows; i++) {
                    out[i] = Math.multiplyExact(l[i], r[i]);
                }
            } else {
                // Aligned to the larger scale first, as DuckDB does (NULL rows hold 0, which cannot overflow).
                int ls = scale(a.left(), columns).getAsInt();
                int rs = scale(a.right(), columns).getAsInt();
                long lf = POWERS_OF_TEN[Math.max(ls, rs) - ls];
                long rf = POWERS_OF_TEN[Math.max(ls, rs) - rs];
                boolean add = a.operator() == ArithmeticOperator.ADD;
                for (int i = 0; i < rows; i++) {
                    long x = Math.multiplyExact(l[i], lf);
                    long y = Math.multiplyExact(r[i], rf);
                    out[i] = add ? Math.addExact(x, y) : Math.subtractExact(x, y);
                }
            }
            return new Exact(out, union(left.nulls(), right.nulls()));
        }

        Approximate approximate(Expression e) {
            if (e instanceof ColumnRef ref) {
                ColumnVector column = columnValues.get(ref.name());
                if (column instanceof ColumnVector.Doubles d) {
                    return new Approximate(d.values(), d.nulls());
                }
                ColumnVector.Longs longs = (ColumnVector.Longs) column;
                int scale = columns.decimalScale(ref.name()).orElse(0);
                double[] out = new double[rows];
                for (int r = 0; r < rows; r++) {
                    out[r] = toDouble(longs.values()[r], scale);
                }
                return new Approximate(out, longs.nulls());
            } else if (e instanceof Literal literal) {
                double[] out = new double[rows];
                Arrays.fill(out, ((Number) literal.value()).doubleValue());
                return new Approximate(out, ColumnVector.NO_NULLS);
            } else if (e instanceof Negate negate) {
                Approximate operand = approximate(negate.operand());
                double[] out = new double[rows];
                for (int r = 0; r < rows; r++) {
                    out[r] = -operand.values()[r];
                }
                return new Approximate(out, operand.nulls());
            } else if (e instanceof Cast cast) {
                return approximate(cast.operand());   // only CAST(... AS DOUBLE) is admitted
            }
            Arithmetic a = (Arithmetic) e;
            Approximate left = approximate(a.left());
            Approximate right = approximate(a.right());
            double[] l = left.values();
            double[] r = right.values();
            double[] out = new double[rows];
            long[] nulls = union(left.nulls(), right.nulls());
            for (int i = 0; i < rows; i++) {
                switch (a.operator()) {
                    case ADD -> out[i] = l[i] + r[i];
                    case SUBTRACT -> out[i] = l[i] - r[i];
                    case MULTIPLY -> out[i] = l[i] * r[i];
                    case DIVIDE -> {
                        if (r[i] == 0) {
                            // NULL, as the predicate language makes a division by zero.
                            nulls = nulls.length == 0 ? new long[ColumnVector.bitmapWords(rows)] : nulls;
                            nulls[i >>> 6] |= 1L << i;
                        } else {
                            out[i] = l[i] / r[i];
                        }
                    }
                }
            }
            return new Approximate(out, nulls);
        }

        /** Rows NULL in either bitmap, in a new bitmap (never one of the operands', which columns share). */
        private long[] union(long[] a, long[] b) {
            if (a.length == 0 && b.length == 0) {
                return ColumnVector.NO_NULLS;
            }
            long[] out = new long[ColumnVector.bitmapWords(rows)];
            for (int w = 0; w < out.length; w++) {
                out[w] = (a.length == 0 ? 0 : a[w]) | (b.length == 0 ? 0 : b[w]);
            }
            return out;
        }
    }

    /** The double nearest {@code unscaled / 10^scale}: one correctly rounded division while both are exact. */
    static double toDouble(long unscaled, int scale) {
        if (Math.abs(unscaled) < (1L << 53) && scale >= 0 && scale < EXACT_POWERS_OF_TEN.length) {
            return unscaled / EXACT_POWERS_OF_TEN[scale];
        }
        return BigDecimal.valueOf(unscaled, scale).doubleValue();
    }
}
