package io.layoutbench.api.predicate;

import static io.layoutbench.api.predicate.Kernels.BATCH;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.predicate.Kernels.ConstantKernel;
import io.layoutbench.api.predicate.Kernels.Kernel;
import io.layoutbench.api.predicate.Kernels.Vector;
import io.layoutbench.api.predicate.RowSets.Context;
import io.layoutbench.api.predicate.RowSets.IntList;
import io.layoutbench.api.predicate.RowSets.Rows;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Filters over computed values: comparisons, IN and IS NULL of {@link Kernels} output, {@link Kernels#BATCH} rows at a
 * time.
 */
final class VectorFilters {
    private VectorFilters() {
    }

    /** {@code left op right} over vectors of a common type (numeric operands converted by the compiler). */
    static final class VectorCompareFilter extends Filter {
        private final ComparisonOperator op;
        private final Kernel left;
        private final Kernel right;
        private final int rowsSlot;

        VectorCompareFilter(ComparisonOperator op, Kernel left, Kernel right, int rowsSlot) {
            this.op = op;
            this.left = left;
            this.right = right;
            this.rowsSlot = rowsSlot;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            // accept[sign + 1]: whether a three-way result of that sign gives the wanted truth value. A table
            // lookup keeps the operator's switch out of the inner loops.
            boolean[] accept = {op.test(-1) == want, op.test(0) == want, op.test(1) == want};
            int[] rows = batchRows(ctx, rowsSlot);
            // NaN stands for "no constant": Scans.compare does not take a NaN constant.
            double constant = left.type == ColumnType.DOUBLE && right instanceof ConstantKernel c
                    ? ((Number) c.value).doubleValue() : Double.NaN;
            out.ensure(out.size + in.size);
            for (int from = 0; from < in.size; from += BATCH) {
                int len = Math.min(BATCH, in.size - from);
                copyRows(in, from, len, rows);
                Vector a = left.eval(ctx, in, from, len);
                Vector b = right.eval(ctx, in, from, len);
                boolean anyNull = a.anyNull | b.anyNull;
                int[] o = out.values;
                int n = out.size;
                switch (left.type) {
                    case BIGINT -> {
                        long[] x = a.longs;
                        long[] y = b.longs;
                        if (!anyNull) {
                            for (int k = 0; k < len; k++) {
                                if (accept[Long.compare(x[k], y[k]) + 1]) {
                                    o[n++] = rows[k];
                                }
                            }
                        } else {
                            for (int k = 0; k < len; k++) {
                                if (!(a.isNull(k) | b.isNull(k)) && accept[Long.compare(x[k], y[k]) + 1]) {
                                    o[n++] = rows[k];
                                }
                            }
                        }
                    }
                    case DOUBLE -> {
                        double[] x = a.doubles;
                        double[] y = b.doubles;
                        if (!anyNull && !Double.isNaN(constant)) {
                            n = Scans.best().compare(x, len, op, constant, want, in.ids == null ? null : rows,
                                    in.start + from, o, n);
                        } else if (!anyNull) {
                            for (int k = 0; k < len; k++) {
                                if (accept[Scalars.compareDoubles(x[k], y[k]) + 1]) {
                                    o[n++] = rows[k];
                                }
                            }
                        } else {
                            for (int k = 0; k < len; k++) {
                                if (!(a.isNull(k) | b.isNull(k)) && accept[Scalars.compareDoubles(x[k], y[k]) + 1]) {
                                    o[n++] = rows[k];
                                }
                            }
                        }
                    }
                    case STRING -> {
                        for (int k = 0; k < len; k++) {
                            if (!(a.isNull(k) | b.isNull(k))
                                    && accept[Integer.signum(a.strings[k].compareTo(b.strings[k])) + 1]) {
                                o[n++] = rows[k];
                            }
                        }
                    }
                    case BOOLEAN -> {
                        for (int k = 0; k < len; k++) {
                            if (!(a.isNull(k) | b.isNull(k)) && accept[Boolean.compare(a.bools[k], b.bools[k]) + 1]) {
                                o[n++] = rows[k];
                            }
                        }
                    }
                }
                out.size = n;
            }
        }

        @Override
        int cost() {
            return 10 + left.cost() + right.cost();
        }
    }

    /** A per-call scratch array for the row ids of one batch. */
    private static int[] batchRows(Context ctx, int slot) {
        int[] rows = (int[]) ctx.slots[slot];
        if (rows == null) {
            rows = new int[ctx.batch];
            ctx.slots[slot] = rows;
        }
        return rows;
    }

    private static void copyRows(Rows in, int from, int len, int[] rows) {
        if (in.ids == null) {
            int base = in.start + from;
            for (int k = 0; k < len; k++) {
                rows[k] = base + k;
            }
        } else {
            System.arraycopy(in.ids, in.offset + from, rows, 0, len);
        }
    }

    /**
     * {@code operand [NOT] IN (...)} over vectors, for operands that are not plain columns. A BIGINT operand is
     * matched exactly against BIGINT values and as a double against DOUBLE values, as the row evaluator does.
     */
    static final class VectorInFilter extends Filter {
        private final Kernel operand;
        private final long[] longValues;
        private final double[] doubleValues;
        private final Set<Object> otherValues;
        private final boolean negated;

        VectorInFilter(Kernel operand, List<Literal> values, boolean negated) {
            this.operand = operand;
            this.negated = negated;
            boolean numeric = operand.type.isNumeric();
            // For a DOUBLE operand every value compares as a double; for BIGINT only the DOUBLE values do.
            this.longValues = values.stream().map(Literal::value)
                    .filter(v -> v instanceof Long && operand.type == ColumnType.BIGINT)
                    .mapToLong(v -> (Long) v).sorted().toArray();
            this.doubleValues = values.stream().map(Literal::value)
                    .filter(v -> numeric && (v instanceof Double || operand.type == ColumnType.DOUBLE))
                    .mapToDouble(v -> ((Number) v).doubleValue()).toArray();
            this.otherValues = new HashSet<>();
            if (!numeric) {
                values.forEach(v -> otherValues.add(v.value()));
            }
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            boolean target = negated != want;
            for (int from = 0; from < in.size; from += BATCH) {
                int len = Math.min(BATCH, in.size - from);
                Vector a = operand.eval(ctx, in, from, len);
                for (int k = 0; k < len; k++) {
                    if (!a.isNull(k) && contains(a, k) == target) {
                        out.add(in.row(from + k));
                    }
                }
            }
        }

        private boolean contains(Vector a, int k) {
            switch (operand.type) {
                case BIGINT -> {
                    return Arrays.binarySearch(longValues, a.longs[k]) >= 0 || containsDouble(a.longs[k]);
                }
                case DOUBLE -> {
                    return containsDouble(a.doubles[k]);
                }
                case STRING -> {
                    return otherValues.contains(a.strings[k]);
                }
                default -> {
                    return otherValues.contains(a.bools[k]);
                }
            }
        }

        private boolean containsDouble(double x) {
            for (double d : doubleValues) {
                if (Scalars.compareDoubles(x, d) == 0) {
                    return true;
                }
            }
            return false;
        }

        @Override
        int cost() {
            return 10 + operand.cost();
        }
    }

    /** {@code operand IS [NOT] NULL} for computed operands (arithmetic can produce NULL). */
    static final class VectorIsNullFilter extends Filter {
        private final Kernel operand;
        private final boolean negated;

        VectorIsNullFilter(Kernel operand, boolean negated) {
            this.operand = operand;
            this.negated = negated;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            boolean wantNull = negated != want;
            for (int from = 0; from < in.size; from += BATCH) {
                int len = Math.min(BATCH, in.size - from);
                Vector a = operand.eval(ctx, in, from, len);
                for (int k = 0; k < len; k++) {
                    if (a.isNull(k) == wantNull) {
                        out.add(in.row(from + k));
                    }
                }
            }
        }

        @Override
        int cost() {
            return 10 + operand.cost();
        }
    }
}
