package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.StringDictionary;
import io.layoutbench.api.predicate.RowSets.Context;
import io.layoutbench.api.predicate.RowSets.IntList;
import io.layoutbench.api.predicate.RowSets.Rows;

import java.util.Arrays;

/**
 * Value expressions (columns, constants, arithmetic, casts, predicates as values) computed up to BATCH rows at a time.
 */
final class Kernels {
    /** Values per vector in the generic (arithmetic) path. */
    static final int BATCH = 1024;

    private Kernels() {
    }

    /**
     * Values of one type for up to {@code capacity} rows (BATCH, or fewer when the call holds fewer rows).
     * {@code nulls[k]} flags SQL NULL, but is only meaningful when {@code anyNull} is set: kernels over columns
     * without NULLs skip writing (and readers skip reading) the flags, which is most of the work for plain arithmetic.
     */
    static final class Vector {
        final long[] longs;
        final double[] doubles;
        final String[] strings;
        final boolean[] bools;
        final boolean[] nulls;
        boolean anyNull;
        /**
         * For a STRING column's vector: the column's dictionary entries decoded so far in this call, by id, so a
         * value is decoded once however many rows hold it.
         */
        String[] decoded;

        Vector(ColumnType type, int capacity) {
            longs = type == ColumnType.BIGINT ? new long[capacity] : null;
            doubles = type == ColumnType.DOUBLE ? new double[capacity] : null;
            strings = type == ColumnType.STRING ? new String[capacity] : null;
            bools = type == ColumnType.BOOLEAN ? new boolean[capacity] : null;
            nulls = new boolean[capacity];
        }

        boolean isNull(int k) {
            return anyNull && nulls[k];
        }

        /** Sets {@code out}'s flags to this vector's, for kernels whose result is NULL exactly when the input is. */
        void copyNullsTo(Vector out, int len) {
            out.anyNull = anyNull;
            if (anyNull) {
                System.arraycopy(nulls, 0, out.nulls, 0, len);
            }
        }
    }

    abstract static class Kernel {
        final ColumnType type;
        final int slot;

        Kernel(ColumnType type, int slot) {
            this.type = type;
            this.slot = slot;
        }

        /** Computes the values for rows {@code rows.row(from) .. rows.row(from + len - 1)}. */
        abstract Vector eval(Context ctx, Rows rows, int from, int len);

        abstract int cost();

        /** This kernel's output vector for the current call. */
        Vector output(Context ctx) {
            Vector v = (Vector) ctx.slots[slot];
            if (v == null) {
                v = new Vector(type, ctx.batch);
                ctx.slots[slot] = v;
            }
            return v;
        }
    }

    /** Reads a column; a BIGINT column can be read straight into DOUBLEs, fusing {@code CAST(x AS DOUBLE)}. */
    static final class ColumnKernel extends Kernel {
        private final int column;

        ColumnKernel(int column, ColumnType type, int slot) {
            super(type, slot);
            this.column = column;
        }

        @Override
        Vector eval(Context ctx, Rows rows, int from, int len) {
            Vector out = output(ctx);
            ColumnVector data = ctx.table.column(column);
            boolean dense = rows.ids == null;
            int base = rows.start + from;
            if (data instanceof ColumnVector.Longs d) {
                long[] values = d.values();
                if (type == ColumnType.DOUBLE && dense) {
                    Scans.best().longsToDoubles(values, base, out.doubles, len);
                } else if (type == ColumnType.DOUBLE) {
                    double[] o = out.doubles;
                    for (int k = 0; k < len; k++) {
                        o[k] = values[rows.row(from + k)];
                    }
                } else if (dense) {
                    System.arraycopy(values, base, out.longs, 0, len);
                } else {
                    for (int k = 0; k < len; k++) {
                        out.longs[k] = values[rows.row(from + k)];
                    }
                }
                nulls(d.nulls(), rows, from, len, out);
            } else if (data instanceof ColumnVector.Doubles d) {
                double[] values = d.values();
                if (dense) {
                    System.arraycopy(values, base, out.doubles, 0, len);
                } else {
                    for (int k = 0; k < len; k++) {
                        out.doubles[k] = values[rows.row(from + k)];
                    }
                }
                nulls(d.nulls(), rows, from, len, out);
            } else if (data instanceof ColumnVector.Strings d) {
                int[] ids = d.ids();
                StringDictionary dictionary = d.dictionary();
                if (out.decoded == null) {
                    out.decoded = new String[dictionary.size()];
                }
                String[] decoded = out.decoded;
                boolean anyNull = false;
                for (int k = 0; k < len; k++) {
                    int id = ids[rows.row(from + k)];
                    String s = null;
                    if (id >= 0) {
                        s = decoded[id];
                        if (s == null) {
                            s = dictionary.get(id);
                            decoded[id] = s;
                        }
                    }
                    out.strings[k] = s;
                    out.nulls[k] = id < 0;
                    anyNull |= id < 0;
                }
                out.anyNull = anyNull;
            } else {
                ColumnVector.Booleans d = (ColumnVector.Booleans) data;
                boolean[] values = d.values();
                for (int k = 0; k < len; k++) {
                    out.bools[k] = values[rows.row(from + k)];
                }
                nulls(d.nulls(), rows, from, len, out);
            }
            return out;
        }

        private static void nulls(long[] bitmap, Rows rows, int from, int len, Vector out) {
            out.anyNull = bitmap.length != 0;
            if (bitmap.length != 0) {
                for (int k = 0; k < len; k++) {
                    out.nulls[k] = ColumnVector.isNull(bitmap, rows.row(from + k));
                }
            }
        }

        @Override
        int cost() {
            return 1;
        }
    }

    static final class ConstantKernel extends Kernel {
        final Object value;

        ConstantKernel(Object value, ColumnType type, int slot) {
            super(type, slot);
            this.value = value;
        }

        @Override
        Vector eval(Context ctx, Rows rows, int from, int len) {
            Vector out = (Vector) ctx.slots[slot];
            if (out == null) {
                // Filled once per call: a constant's vector never changes.
                out = output(ctx);
                switch (type) {
                    case BIGINT -> Arrays.fill(out.longs, (Long) value);
                    case DOUBLE -> Arrays.fill(out.doubles, ((Number) value).doubleValue());
                    case STRING -> Arrays.fill(out.strings, value);
                    case BOOLEAN -> Arrays.fill(out.bools, (Boolean) value);
                }
                out.anyNull = false;
            }
            return out;
        }

        @Override
        int cost() {
            return 0;
        }
    }

    static final class ArithmeticKernel extends Kernel {
        private final ArithmeticOperator op;
        private final Kernel left;
        private final Kernel right;

        /** Both operands have this kernel's type: the compiler converts BIGINT operands of DOUBLE arithmetic. */
        ArithmeticKernel(ArithmeticOperator op, Kernel left, Kernel right, int slot) {
            super(left.type, slot);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        Vector eval(Context ctx, Rows rows, int from, int len) {
            Vector a = left.eval(ctx, rows, from, len);
            Vector b = right.eval(ctx, rows, from, len);
            Vector out = output(ctx);
            boolean[] on = out.nulls;
            if (type == ColumnType.BIGINT) {
                long[] x = a.longs;
                long[] y = b.longs;
                long[] z = out.longs;
                // Overflow is NULL, so BIGINT results always carry flags.
                switch (op) {
                    case ADD -> {
                        for (int k = 0; k < len; k++) {
                            long s = x[k] + y[k];
                            z[k] = s;
                            on[k] = ((x[k] ^ s) & (y[k] ^ s)) < 0;
                        }
                    }
                    case SUBTRACT -> {
                        for (int k = 0; k < len; k++) {
                            long d = x[k] - y[k];
                            z[k] = d;
                            on[k] = ((x[k] ^ y[k]) & (x[k] ^ d)) < 0;
                        }
                    }
                    case MULTIPLY -> {
                        for (int k = 0; k < len; k++) {
                            long p = x[k] * y[k];
                            z[k] = p;
                            // Overflow unless the high half of the 128-bit product is p's sign extension.
                            on[k] = Math.multiplyHigh(x[k], y[k]) != (p >> 63);
                        }
                    }
                    case DIVIDE -> throw new IllegalStateException("BIGINT division is compiled as DOUBLE");
                }
                out.anyNull = true;
            } else {
                double[] x = a.doubles;
                double[] y = b.doubles;
                double[] z = out.doubles;
                switch (op) {
                    case ADD -> {
                        for (int k = 0; k < len; k++) {
                            z[k] = x[k] + y[k];
                        }
                    }
                    case SUBTRACT -> {
                        for (int k = 0; k < len; k++) {
                            z[k] = x[k] - y[k];
                        }
                    }
                    case MULTIPLY -> {
                        for (int k = 0; k < len; k++) {
                            z[k] = x[k] * y[k];
                        }
                    }
                    case DIVIDE -> {
                        // Two loops: the division alone compiles to vector divisions.
                        for (int k = 0; k < len; k++) {
                            z[k] = x[k] / y[k];
                        }
                        boolean zeroDivisor = Scans.best().anyZero(y, len);
                        // A zero divisor is NULL; flags are written only for the rare batch that has one.
                        if (zeroDivisor) {
                            for (int k = 0; k < len; k++) {
                                on[k] = y[k] == 0;
                            }
                        }
                        out.anyNull = zeroDivisor;
                    }
                }
                if (op != ArithmeticOperator.DIVIDE) {
                    out.anyNull = false;
                }
            }
            orNulls(a, out, len);
            orNulls(b, out, len);
            return out;
        }

        /** NULL in, NULL out: folds an operand's flags into {@code out}'s. */
        private static void orNulls(Vector operand, Vector out, int len) {
            if (!operand.anyNull) {
                return;
            }
            if (!out.anyNull) {
                System.arraycopy(operand.nulls, 0, out.nulls, 0, len);
                out.anyNull = true;
            } else {
                for (int k = 0; k < len; k++) {
                    out.nulls[k] |= operand.nulls[k];
                }
            }
        }

        @Override
        int cost() {
            return 1 + left.cost() + right.cost();
        }
    }

    static final class NegateKernel extends Kernel {
        private final Kernel operand;

        NegateKernel(Kernel operand, int slot) {
            super(operand.type, slot);
            this.operand = operand;
        }

        @Override
        Vector eval(Context ctx, Rows rows, int from, int len) {
            Vector a = operand.eval(ctx, rows, from, len);
            Vector out = output(ctx);
            if (type == ColumnType.BIGINT) {
                // -MIN overflows: NULL.
                for (int k = 0; k < len; k++) {
                    out.longs[k] = -a.longs[k];
                    out.nulls[k] = a.isNull(k) | a.longs[k] == Long.MIN_VALUE;
                }
                out.anyNull = true;
            } else {
                for (int k = 0; k < len; k++) {
                    out.doubles[k] = -a.doubles[k];
                }
                a.copyNullsTo(out, len);
            }
            return out;
        }

        @Override
        int cost() {
            return 1 + operand.cost();
        }
    }

    /** BIGINT to DOUBLE or DOUBLE to BIGINT (rounding half away from zero; NULL when out of range). */
    static final class CastKernel extends Kernel {
        private final Kernel operand;

        CastKernel(Kernel operand, ColumnType type, int slot) {
            super(type, slot);
            this.operand = operand;
        }

        @Override
        Vector eval(Context ctx, Rows rows, int from, int len) {
            Vector a = operand.eval(ctx, rows, from, len);
            Vector out = output(ctx);
            if (type == ColumnType.DOUBLE) {
                for (int k = 0; k < len; k++) {
                    out.doubles[k] = a.longs[k];
                }
                a.copyNullsTo(out, len);
            } else {
                for (int k = 0; k < len; k++) {
                    double d = a.doubles[k];
                    boolean fits = Scalars.fitsBigint(d);
                    out.longs[k] = fits ? (long) Scalars.roundHalfAwayFromZero(d) : 0;
                    out.nulls[k] = a.isNull(k) | !fits;
                }
                out.anyNull = true;
            }
            return out;
        }

        @Override
        int cost() {
            return 1 + operand.cost();
        }
    }

    /** A predicate used as a BOOLEAN value, e.g. the left side of {@code (a < b) = TRUE}. */
    static final class PredicateKernel extends Kernel {
        private final Filter filter;

        PredicateKernel(Filter filter, int slot) {
            super(ColumnType.BOOLEAN, slot);
            this.filter = filter;
        }

        @Override
        Vector eval(Context ctx, Rows rows, int from, int len) {
            Vector out = output(ctx);
            Rows batch = rows.slice(from, len);
            Arrays.fill(out.nulls, 0, len, true);
            out.anyNull = true;
            mark(ctx, batch, true, out);
            mark(ctx, batch, false, out);
            return out;
        }

        private void mark(Context ctx, Rows batch, boolean value, Vector out) {
            IntList hits = ctx.borrow();
            filter.select(ctx, batch, value, hits);
            int k = 0;
            for (int j = 0; j < hits.size; j++) {
                while (batch.row(k) != hits.values[j]) {
                    k++;
                }
                out.bools[k] = value;
                out.nulls[k] = false;
            }
            ctx.release(hits);
        }

        @Override
        int cost() {
            return 10 + filter.cost();
        }
    }
}
