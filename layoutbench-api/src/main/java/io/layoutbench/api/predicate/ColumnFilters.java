package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.predicate.RowSets.Context;
import io.layoutbench.api.predicate.RowSets.IntList;
import io.layoutbench.api.predicate.RowSets.Rows;

import java.util.Arrays;

/**
 * Filters that scan one stored column against constants, without vectors: BIGINT ranges and sets, numbers against a
 * DOUBLE, null tests and BOOLEAN columns. (STRING columns are tested once per dictionary entry by
 * {@link DictionaryFilter}.)
 */
final class ColumnFilters {
    private ColumnFilters() {
    }

    /** A BIGINT column in (or, with {@code inside} false, outside) the inclusive range [lo, hi]. */
    static final class LongRangeFilter extends Filter {
        private final int column;
        private final long lo;
        private final long hi;
        private final boolean inside;

        LongRangeFilter(int column, long lo, long hi, boolean inside) {
            this.column = column;
            this.lo = lo;
            this.hi = hi;
            this.inside = inside;
        }

        static LongRangeFilter of(int column, ComparisonOperator op, long c) {
            return switch (op) {
                case EQUAL -> new LongRangeFilter(column, c, c, true);
                case NOT_EQUAL -> new LongRangeFilter(column, c, c, false);
                // An empty range (lo > hi) when nothing is below MIN or above MAX.
                case LESS_THAN -> c == Long.MIN_VALUE ? new LongRangeFilter(column, 1, 0, true)
                        : new LongRangeFilter(column, Long.MIN_VALUE, c - 1, true);
                case LESS_THAN_OR_EQUAL -> new LongRangeFilter(column, Long.MIN_VALUE, c, true);
                case GREATER_THAN -> c == Long.MAX_VALUE ? new LongRangeFilter(column, 1, 0, true)
                        : new LongRangeFilter(column, c + 1, Long.MAX_VALUE, true);
                case GREATER_THAN_OR_EQUAL -> new LongRangeFilter(column, c, Long.MAX_VALUE, true);
            };
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            ColumnVector.Longs data = (ColumnVector.Longs) ctx.table.column(column);
            long[] v = data.values();
            long[] nulls = data.nulls();
            boolean target = inside == want;
            long lo = this.lo;
            long hi = this.hi;
            out.ensure(out.size + in.size);
            int[] o = out.values;
            int n = out.size;
            if (in.ids == null && nulls.length == 0 && target) {
                n = Scans.best().longsBetween(v, in.start, in.start + in.size, lo, hi, o, n);
            } else if (in.ids == null && nulls.length == 0) {
                for (int r = in.start, end = in.start + in.size; r < end; r++) {
                    long x = v[r];
                    if (x < lo || x > hi) {
                        o[n++] = r;
                    }
                }
            } else if (in.ids != null && nulls.length == 0) {
                // The rows an earlier conjunct kept: scattered reads, which only overlap (the loop's speed) when no
                // branch mispredicts, so the id is always written and the count advances on a match.
                int[] ids = in.ids;
                for (int k = in.offset, end = in.offset + in.size; k < end; k++) {
                    int r = ids[k];
                    long x = v[r];
                    o[n] = r;
                    n += (x >= lo & x <= hi) == target ? 1 : 0;
                }
            } else {
                for (int k = 0; k < in.size; k++) {
                    int r = in.row(k);
                    long x = v[r];
                    if ((x >= lo && x <= hi) == target && !ColumnVector.isNull(nulls, r)) {
                        o[n++] = r;
                    }
                }
            }
            out.size = n;
        }

        @Override
        int cost() {
            return 2;
        }
    }

    /** A BIGINT column [NOT] IN a set of BIGINT constants. */
    static final class LongSetFilter extends Filter {
        private final int column;
        private final long[] sorted;
        private final boolean negated;

        LongSetFilter(int column, long[] sorted, boolean negated) {
            this.column = column;
            this.sorted = sorted;
            this.negated = negated;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            ColumnVector.Longs data = (ColumnVector.Longs) ctx.table.column(column);
            long[] values = data.values();
            long[] nulls = data.nulls();
            boolean target = negated != want;
            out.ensure(out.size + in.size);
            int[] o = out.values;
            int n = out.size;
            for (int k = 0; k < in.size; k++) {
                int r = in.row(k);
                if ((Arrays.binarySearch(sorted, values[r]) >= 0) == target && !ColumnVector.isNull(nulls, r)) {
                    o[n++] = r;
                }
            }
            out.size = n;
        }

        @Override
        int cost() {
            return 3;
        }
    }

    /** A BIGINT or DOUBLE column compared with a constant as doubles. */
    static final class DoubleCompareFilter extends Filter {
        private final int column;
        private final ComparisonOperator op;
        private final double constant;

        DoubleCompareFilter(int column, ComparisonOperator op, double constant) {
            this.column = column;
            this.op = op;
            this.constant = constant;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            ColumnVector data = ctx.table.column(column);
            out.ensure(out.size + in.size);
            int[] o = out.values;
            int n = out.size;
            if (data instanceof ColumnVector.Doubles doubles) {
                double[] values = doubles.values();
                long[] nulls = doubles.nulls();
                for (int k = 0; k < in.size; k++) {
                    int r = in.row(k);
                    if (op.test(Scalars.compareDoubles(values[r], constant)) == want
                            && !ColumnVector.isNull(nulls, r)) {
                        o[n++] = r;
                    }
                }
            } else {
                ColumnVector.Longs longs = (ColumnVector.Longs) data;
                long[] values = longs.values();
                long[] nulls = longs.nulls();
                for (int k = 0; k < in.size; k++) {
                    int r = in.row(k);
                    if (op.test(Scalars.compareDoubles(values[r], constant)) == want
                            && !ColumnVector.isNull(nulls, r)) {
                        o[n++] = r;
                    }
                }
            }
            out.size = n;
        }

        @Override
        int cost() {
            return 3;
        }
    }

    /** A column IS [NOT] NULL. */
    static final class NullFilter extends Filter {
        private final int column;
        private final boolean negated;

        NullFilter(int column, boolean negated) {
            this.column = column;
            this.negated = negated;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            ColumnVector data = ctx.table.column(column);
            // IS NULL is TRUE for NULL rows and FALSE otherwise; IS NOT NULL the opposite; never NULL itself.
            boolean wantNull = negated != want;
            for (int k = 0; k < in.size; k++) {
                int r = in.row(k);
                if (data.isNull(r) == wantNull) {
                    out.add(r);
                }
            }
        }

        @Override
        int cost() {
            return 1;
        }
    }

    /** A BOOLEAN column used as a predicate. */
    static final class BooleanColumnFilter extends Filter {
        private final int column;

        BooleanColumnFilter(int column) {
            this.column = column;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            ColumnVector.Booleans data = (ColumnVector.Booleans) ctx.table.column(column);
            boolean[] values = data.values();
            long[] nulls = data.nulls();
            for (int k = 0; k < in.size; k++) {
                int r = in.row(k);
                if (values[r] == want && !ColumnVector.isNull(nulls, r)) {
                    out.add(r);
                }
            }
        }

        @Override
        int cost() {
            return 1;
        }
    }
}
