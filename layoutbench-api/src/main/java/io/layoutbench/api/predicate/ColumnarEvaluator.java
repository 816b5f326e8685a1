package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.ColumnType;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Evaluates a bound predicate over a {@link ColumnarTable} in bulk, producing the ids of matching rows.
 *
 * <p>How it is fast:
 * <ul>
 *   <li>The table is processed in blocks of up to 64K rows (smaller first blocks when there is a LIMIT, so
 *       {@code LIMIT 1} stops early). Within a block, filters pass sorted row-id lists, so AND narrows: each
 *       conjunct only looks at the rows the previous ones kept, and conjuncts run cheapest first.</li>
 *   <li>Comparisons, IN and LIKE of a STRING column against constants are evaluated once per dictionary entry,
 *       then the rows are a loop over int ids and a byte mask.</li>
 *   <li>A BIGINT column against a BIGINT constant is a range test in a loop over the {@code long[]}.</li>
 *   <li>Anything else (arithmetic, casts, column against column) is computed into primitive vectors of 1024
 *       values at a time, which stay in the L1 cache.</li>
 * </ul>
 *
 * <p>Three-valued logic: a filter is asked for the rows where its predicate is TRUE, or where it is FALSE; rows
 * where it is NULL are in neither. NOT asks its operand the opposite question, so {@code NOT (x > 5)} never
 * selects rows where {@code x} is NULL.
 *
 * <p>Immutable and thread-safe: all per-evaluation state (dictionary masks, vectors, scratch lists) lives in a
 * {@link Context} created by each {@link #select} call.
 */
final class ColumnarEvaluator {
    /** Values per vector in the generic (arithmetic) path. */
    static final int BATCH = 1024;
    private static final int MAX_BLOCK = 1 << 16;
    private static final int FIRST_LIMITED_BLOCK = 1 << 12;

    private final Filter root;
    private final int slotCount;

    ColumnarEvaluator(Expression expression, Binder binder) {
        Compiler compiler = new Compiler(binder);
        this.root = compiler.filter(expression);
        this.slotCount = compiler.slots;
    }

    Selection select(ColumnarTable table, int from, int to, long limit) {
        if (from < 0 || to > table.rowCount() || from > to) {
            throw new IndexOutOfBoundsException("Row range [" + from + ", " + to + ") is outside a table of "
                    + table.rowCount() + " rows");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative but got " + limit);
        }
        if (limit == 0 || from == to) {
            return Selection.empty();
        }
        Context ctx = new Context(table, slotCount);
        IntList out = new IntList(Math.min(to - from, 1024));
        int block = limit == Long.MAX_VALUE ? MAX_BLOCK : FIRST_LIMITED_BLOCK;
        for (int start = from; start < to; ) {
            int size = Math.min(block, to - start);
            root.select(ctx, Rows.range(start, size), true, out);
            if (out.size >= limit) {
                break;
            }
            start += size;
            block = Math.min(block * 2, MAX_BLOCK);
        }
        int size = (int) Math.min(out.size, limit);
        // Leaves reserve a block's worth of room; do not keep that slack alive in the result.
        int[] rows = out.values.length > size + (size >> 2) + 64 ? Arrays.copyOf(out.values, size) : out.values;
        return new Selection(rows, size);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Row sets and per-call state

    /** A sorted set of row ids: a dense range, or a slice of an id array. */
    static final class Rows {
        final int[] ids;
        final int offset;
        final int size;
        final int start;

        private Rows(int[] ids, int offset, int size, int start) {
            this.ids = ids;
            this.offset = offset;
            this.size = size;
            this.start = start;
        }

        static Rows range(int start, int size) {
            return new Rows(null, 0, size, start);
        }

        static Rows of(IntList list) {
            return new Rows(list.values, 0, list.size, 0);
        }

        int row(int k) {
            return ids == null ? start + k : ids[offset + k];
        }

        Rows slice(int from, int length) {
            return ids == null ? range(start + from, length) : new Rows(ids, offset + from, length, 0);
        }
    }

    /** A growable int array. */
    static final class IntList {
        int[] values;
        int size;

        IntList(int capacity) {
            values = new int[Math.max(capacity, 16)];
        }

        void ensure(int capacity) {
            if (capacity > values.length) {
                values = Arrays.copyOf(values, Math.max(capacity, values.length * 2));
            }
        }

        void add(int value) {
            if (size == values.length) {
                ensure(size + 1);
            }
            values[size++] = value;
        }

        void addAll(Rows rows) {
            ensure(size + rows.size);
            if (rows.ids == null) {
                for (int k = 0; k < rows.size; k++) {
                    values[size + k] = rows.start + k;
                }
            } else {
                System.arraycopy(rows.ids, rows.offset, values, size, rows.size);
            }
            size += rows.size;
        }
    }

    /** State of one {@link #select} call: the table, lazily built dictionary masks and vectors, scratch lists. */
    static final class Context {
        final ColumnarTable table;
        final Object[] slots;
        private final ArrayDeque<IntList> pool = new ArrayDeque<>();

        Context(ColumnarTable table, int slotCount) {
            this.table = table;
            this.slots = new Object[slotCount];
        }

        IntList borrow() {
            IntList list = pool.pollFirst();
            if (list == null) {
                list = new IntList(256);
            }
            list.size = 0;
            return list;
        }

        void release(IntList list) {
            pool.addFirst(list);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Filters: predicates as row selections

    private abstract static class Filter {
        /** Appends, in order, the rows of {@code in} where the predicate is {@code want} (never the NULL rows). */
        abstract void select(Context ctx, Rows in, boolean want, IntList out);

        /** Rough relative cost per row, to run cheap conjuncts first. */
        abstract int cost();
    }

    private static final class ConstantFilter extends Filter {
        private final boolean value;

        ConstantFilter(boolean value) {
            this.value = value;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            if (value == want) {
                out.addAll(in);
            }
        }

        @Override
        int cost() {
            return 0;
        }
    }

    private static final class NotFilter extends Filter {
        private final Filter operand;

        NotFilter(Filter operand) {
            this.operand = operand;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            operand.select(ctx, in, !want, out);
        }

        @Override
        int cost() {
            return operand.cost();
        }
    }

    /**
     * AND and OR. Asking AND for TRUE (or OR for FALSE) needs every operand to agree: the candidate rows narrow
     * operand by operand. Asking AND for FALSE (or OR for TRUE) needs any one operand: each operand looks only at
     * rows no earlier operand decided, and the hits are merged.
     */
    private static final class JunctionFilter extends Filter {
        private final Filter[] operands;
        private final boolean isAnd;

        JunctionFilter(Filter[] operands, boolean isAnd) {
            this.operands = operands;
            this.isAnd = isAnd;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            if (in.size == 0) {
                return;
            }
            if (want == isAnd) {
                narrow(ctx, in, want, out);
            } else {
                union(ctx, in, want, out);
            }
        }

        private void narrow(Context ctx, Rows in, boolean want, IntList out) {
            Rows current = in;
            IntList held = null;
            for (int i = 0; i < operands.length; i++) {
                if (i == operands.length - 1) {
                    operands[i].select(ctx, current, want, out);
                    break;
                }
                IntList next = ctx.borrow();
                operands[i].select(ctx, current, want, next);
                if (held != null) {
                    ctx.release(held);
                }
                held = next;
                current = Rows.of(next);
                if (current.size == 0) {
                    break;
                }
            }
            if (held != null) {
                ctx.release(held);
            }
        }

        private void union(Context ctx, Rows in, boolean want, IntList out) {
            IntList hits = ctx.borrow();
            Rows remaining = in;
            IntList remainingHeld = null;
            for (int i = 0; i < operands.length && remaining.size > 0; i++) {
                IntList found = ctx.borrow();
                operands[i].select(ctx, remaining, want, found);
                if (found.size > 0) {
                    IntList merged = ctx.borrow();
                    merge(hits, found, merged);
                    ctx.release(hits);
                    hits = merged;
                    if (i < operands.length - 1) {
                        IntList rest = ctx.borrow();
                        difference(remaining, found, rest);
                        if (remainingHeld != null) {
                            ctx.release(remainingHeld);
                        }
                        remainingHeld = rest;
                        remaining = Rows.of(rest);
                    }
                }
                ctx.release(found);
            }
            out.addAll(Rows.of(hits));
            ctx.release(hits);
            if (remainingHeld != null) {
                ctx.release(remainingHeld);
            }
        }

        /** {@code out = a ∪ b} for sorted, disjoint lists. */
        private static void merge(IntList a, IntList b, IntList out) {
            out.ensure(a.size + b.size);
            int i = 0;
            int j = 0;
            int n = 0;
            int[] o = out.values;
            while (i < a.size && j < b.size) {
                o[n++] = a.values[i] < b.values[j] ? a.values[i++] : b.values[j++];
            }
            while (i < a.size) {
                o[n++] = a.values[i++];
            }
            while (j < b.size) {
                o[n++] = b.values[j++];
            }
            out.size = n;
        }

        /** {@code out = rows − drop} where {@code drop} is a sorted subset of {@code rows}. */
        private static void difference(Rows rows, IntList drop, IntList out) {
            out.ensure(rows.size);
            int j = 0;
            int n = 0;
            int[] o = out.values;
            for (int k = 0; k < rows.size; k++) {
                int row = rows.row(k);
                if (j < drop.size && drop.values[j] == row) {
                    j++;
                } else {
                    o[n++] = row;
                }
            }
            out.size = n;
        }

        @Override
        int cost() {
            int cost = 1;
            for (Filter operand : operands) {
                cost += operand.cost();
            }
            return cost;
        }
    }

    /** A test of a STRING column's values, evaluated once per dictionary entry. */
    private static final class DictionaryFilter extends Filter {
        private final int column;
        private final Predicate<String> test;
        private final int slot;

        /** The per-table mask: {@code mask[id + 1]} is 1 if entry id passes, 0 if not; {@code mask[0]} (NULL) 2. */
        private record Mask(byte[] mask, boolean anyPass, boolean anyFail) {
        }

        DictionaryFilter(int column, Predicate<String> test, int slot) {
            this.column = column;
            this.test = test;
            this.slot = slot;
        }

        private Mask mask(Context ctx, ColumnData.Strings data) {
            Mask mask = (Mask) ctx.slots[slot];
            if (mask == null) {
                String[] dictionary = data.dictionary;
                byte[] bytes = new byte[dictionary.length + 1];
                bytes[0] = 2;
                boolean anyPass = false;
                boolean anyFail = false;
                for (int id = 0; id < dictionary.length; id++) {
                    boolean pass = test.test(dictionary[id]);
                    bytes[id + 1] = (byte) (pass ? 1 : 0);
                    anyPass |= pass;
                    anyFail |= !pass;
                }
                mask = new Mask(bytes, anyPass, anyFail);
                ctx.slots[slot] = mask;
            }
            return mask;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            ColumnData.Strings data = (ColumnData.Strings) ctx.table.data(column);
            Mask mask = mask(ctx, data);
            if (want ? !mask.anyPass() : !mask.anyFail()) {
                return;
            }
            byte w = (byte) (want ? 1 : 0);
            byte[] m = mask.mask();
            int[] ids = data.ids;
            out.ensure(out.size + in.size);
            int[] o = out.values;
            int n = out.size;
            if (in.ids == null) {
                for (int r = in.start, end = in.start + in.size; r < end; r++) {
                    if (m[ids[r] + 1] == w) {
                        o[n++] = r;
                    }
                }
            } else {
                int[] selected = in.ids;
                for (int k = in.offset, end = in.offset + in.size; k < end; k++) {
                    int r = selected[k];
                    if (m[ids[r] + 1] == w) {
                        o[n++] = r;
                    }
                }
            }
            out.size = n;
        }

        @Override
        int cost() {
            return 1;
        }
    }

    /** A BIGINT column in (or, with {@code inside} false, outside) the inclusive range [lo, hi]. */
    private static final class LongRangeFilter extends Filter {
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
            ColumnData.Longs data = (ColumnData.Longs) ctx.table.data(column);
            long[] v = data.values;
            long[] nulls = data.nulls;
            boolean target = inside == want;
            long lo = this.lo;
            long hi = this.hi;
            out.ensure(out.size + in.size);
            int[] o = out.values;
            int n = out.size;
            // Plain branches: the paper's range leaves keep a few percent of rows, where a predictable branch
            // beats a conditional move (measured: 0.36 ms against 0.8 ms for 1.28M rows at 0.2% selectivity).
            if (in.ids == null && nulls == null && target) {
                for (int r = in.start, end = in.start + in.size; r < end; r++) {
                    long x = v[r];
                    if (x >= lo && x <= hi) {
                        o[n++] = r;
                    }
                }
            } else if (in.ids == null && nulls == null) {
                for (int r = in.start, end = in.start + in.size; r < end; r++) {
                    long x = v[r];
                    if (x < lo || x > hi) {
                        o[n++] = r;
                    }
                }
            } else {
                for (int k = 0; k < in.size; k++) {
                    int r = in.row(k);
                    long x = v[r];
                    if ((x >= lo && x <= hi) == target && !ColumnData.isSet(nulls, r)) {
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
    private static final class LongSetFilter extends Filter {
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
            ColumnData.Longs data = (ColumnData.Longs) ctx.table.data(column);
            boolean target = negated != want;
            out.ensure(out.size + in.size);
            int[] o = out.values;
            int n = out.size;
            for (int k = 0; k < in.size; k++) {
                int r = in.row(k);
                if ((Arrays.binarySearch(sorted, data.values[r]) >= 0) == target
                        && !ColumnData.isSet(data.nulls, r)) {
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
    private static final class DoubleCompareFilter extends Filter {
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
            ColumnData data = ctx.table.data(column);
            out.ensure(out.size + in.size);
            int[] o = out.values;
            int n = out.size;
            if (data instanceof ColumnData.Doubles doubles) {
                for (int k = 0; k < in.size; k++) {
                    int r = in.row(k);
                    if (op.test(Scalars.compareDoubles(doubles.values[r], constant)) == want
                            && !ColumnData.isSet(doubles.nulls, r)) {
                        o[n++] = r;
                    }
                }
            } else {
                ColumnData.Longs longs = (ColumnData.Longs) data;
                for (int k = 0; k < in.size; k++) {
                    int r = in.row(k);
                    if (op.test(Scalars.compareDoubles(longs.values[r], constant)) == want
                            && !ColumnData.isSet(longs.nulls, r)) {
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
    private static final class NullFilter extends Filter {
        private final int column;
        private final boolean negated;

        NullFilter(int column, boolean negated) {
            this.column = column;
            this.negated = negated;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            ColumnData data = ctx.table.data(column);
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
    private static final class BooleanColumnFilter extends Filter {
        private final int column;

        BooleanColumnFilter(int column) {
            this.column = column;
        }

        @Override
        void select(Context ctx, Rows in, boolean want, IntList out) {
            ColumnData.Booleans data = (ColumnData.Booleans) ctx.table.data(column);
            for (int k = 0; k < in.size; k++) {
                int r = in.row(k);
                if (data.values[r] == want && !ColumnData.isSet(data.nulls, r)) {
                    out.add(r);
                }
            }
        }

        @Override
        int cost() {
            return 1;
        }
    }

    /** {@code left op right} over vectors of a common type (numeric operands converted by the compiler). */
    private static final class VectorCompareFilter extends Filter {
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
                        if (!anyNull && right instanceof ConstantKernel constant) {
                            n = compareWithConstant(x, ((Number) constant.value).doubleValue(), want, rows, len, o, n);
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

        /**
         * {@code x op c} with the plain IEEE operators, which compile to tighter code than the three-way compare.
         * They agree with the language's order because c (a literal) is finite: only NaN needs care, and NaN is
         * greater than every number.
         */
        private int compareWithConstant(double[] x, double c, boolean want, int[] rows, int len, int[] o, int n) {
            switch (op) {
                case LESS_THAN -> {
                    for (int k = 0; k < len; k++) {
                        if ((x[k] < c) == want) {
                            o[n++] = rows[k];
                        }
                    }
                }
                case LESS_THAN_OR_EQUAL -> {
                    for (int k = 0; k < len; k++) {
                        if ((x[k] <= c) == want) {
                            o[n++] = rows[k];
                        }
                    }
                }
                case GREATER_THAN -> {
                    for (int k = 0; k < len; k++) {
                        if ((x[k] > c || x[k] != x[k]) == want) {
                            o[n++] = rows[k];
                        }
                    }
                }
                case GREATER_THAN_OR_EQUAL -> {
                    for (int k = 0; k < len; k++) {
                        if ((x[k] >= c || x[k] != x[k]) == want) {
                            o[n++] = rows[k];
                        }
                    }
                }
                case EQUAL -> {
                    for (int k = 0; k < len; k++) {
                        if ((x[k] == c) == want) {
                            o[n++] = rows[k];
                        }
                    }
                }
                case NOT_EQUAL -> {
                    for (int k = 0; k < len; k++) {
                        if ((x[k] != c) == want) {
                            o[n++] = rows[k];
                        }
                    }
                }
            }
            return n;
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
            rows = new int[BATCH];
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
    private static final class VectorInFilter extends Filter {
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
    private static final class VectorIsNullFilter extends Filter {
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

    // ---------------------------------------------------------------------------------------------------------
    // Kernels: value expressions computed BATCH rows at a time

    /**
     * Values of one type for up to BATCH rows. {@code nulls[k]} flags SQL NULL, but is only meaningful when
     * {@code anyNull} is set: kernels over columns without NULLs skip writing (and readers skip reading) the
     * flags, which is most of the work for plain arithmetic.
     */
    static final class Vector {
        final long[] longs;
        final double[] doubles;
        final String[] strings;
        final boolean[] bools;
        final boolean[] nulls = new boolean[BATCH];
        boolean anyNull;

        Vector(ColumnType type) {
            longs = type == ColumnType.BIGINT ? new long[BATCH] : null;
            doubles = type == ColumnType.DOUBLE ? new double[BATCH] : null;
            strings = type == ColumnType.STRING ? new String[BATCH] : null;
            bools = type == ColumnType.BOOLEAN ? new boolean[BATCH] : null;
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

    private abstract static class Kernel {
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
                v = new Vector(type);
                ctx.slots[slot] = v;
            }
            return v;
        }
    }

    /** Reads a column; a BIGINT column can be read straight into DOUBLEs, fusing {@code CAST(x AS DOUBLE)}. */
    private static final class ColumnKernel extends Kernel {
        private final int column;

        ColumnKernel(int column, ColumnType type, int slot) {
            super(type, slot);
            this.column = column;
        }

        @Override
        Vector eval(Context ctx, Rows rows, int from, int len) {
            Vector out = output(ctx);
            ColumnData data = ctx.table.data(column);
            boolean dense = rows.ids == null;
            int base = rows.start + from;
            if (data instanceof ColumnData.Longs d) {
                if (type == ColumnType.DOUBLE) {
                    double[] o = out.doubles;
                    for (int k = 0; k < len; k++) {
                        o[k] = d.values[dense ? base + k : rows.row(from + k)];
                    }
                } else if (dense) {
                    System.arraycopy(d.values, base, out.longs, 0, len);
                } else {
                    for (int k = 0; k < len; k++) {
                        out.longs[k] = d.values[rows.row(from + k)];
                    }
                }
                nulls(d.nulls, rows, from, len, out);
            } else if (data instanceof ColumnData.Doubles d) {
                if (dense) {
                    System.arraycopy(d.values, base, out.doubles, 0, len);
                } else {
                    for (int k = 0; k < len; k++) {
                        out.doubles[k] = d.values[rows.row(from + k)];
                    }
                }
                nulls(d.nulls, rows, from, len, out);
            } else if (data instanceof ColumnData.Strings d) {
                boolean anyNull = false;
                for (int k = 0; k < len; k++) {
                    int id = d.ids[rows.row(from + k)];
                    out.strings[k] = id < 0 ? null : d.dictionary[id];
                    out.nulls[k] = id < 0;
                    anyNull |= id < 0;
                }
                out.anyNull = anyNull;
            } else {
                ColumnData.Booleans d = (ColumnData.Booleans) data;
                for (int k = 0; k < len; k++) {
                    out.bools[k] = d.values[rows.row(from + k)];
                }
                nulls(d.nulls, rows, from, len, out);
            }
            return out;
        }

        private static void nulls(long[] bitmap, Rows rows, int from, int len, Vector out) {
            out.anyNull = bitmap != null;
            if (bitmap != null) {
                for (int k = 0; k < len; k++) {
                    out.nulls[k] = ColumnData.isSet(bitmap, rows.row(from + k));
                }
            }
        }

        @Override
        int cost() {
            return 1;
        }
    }

    private static final class ConstantKernel extends Kernel {
        private final Object value;

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

    private static final class ArithmeticKernel extends Kernel {
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
                        boolean zeroDivisor = false;
                        for (int k = 0; k < len; k++) {
                            z[k] = x[k] / y[k];
                            if (y[k] == 0) {
                                zeroDivisor = true;
                            }
                        }
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

    private static final class NegateKernel extends Kernel {
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
    private static final class CastKernel extends Kernel {
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
    private static final class PredicateKernel extends Kernel {
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

    // ---------------------------------------------------------------------------------------------------------
    // Compilation from the bound expression

    private static final class Compiler {
        private final Binder binder;
        int slots;

        Compiler(Binder binder) {
            this.binder = binder;
        }

        private int slot() {
            return slots++;
        }

        private ColumnType type(Expression e) {
            return binder.typeOf(e);
        }

        Filter filter(Expression e) {
            if (e instanceof Literal l) {
                return new ConstantFilter((Boolean) l.value());
            } else if (e instanceof ColumnRef c) {
                return new BooleanColumnFilter(binder.columnIndex(c));
            } else if (e instanceof Not not) {
                return new NotFilter(filter(not.operand()));
            } else if (e instanceof And and) {
                return junction(and.operands(), true);
            } else if (e instanceof Or or) {
                return junction(or.operands(), false);
            } else if (e instanceof Comparison c) {
                return comparison(c);
            } else if (e instanceof In in) {
                return in(in);
            } else if (e instanceof Like like) {
                return like(like);
            } else if (e instanceof IsNull isNull) {
                return isNull.operand() instanceof ColumnRef c
                        ? new NullFilter(binder.columnIndex(c), isNull.negated())
                        : new VectorIsNullFilter(kernel(isNull.operand()), isNull.negated());
            }
            throw new IllegalStateException("Not a predicate: " + e);
        }

        private Filter junction(List<Expression> operands, boolean isAnd) {
            Filter[] filters = operands.stream().map(this::filter).toArray(Filter[]::new);
            // Stable sort: cheap, selective leaves (dictionary, range) before vector arithmetic. AND and OR are
            // commutative in three-valued logic, so the order changes only the speed.
            Arrays.sort(filters, Comparator.comparingInt(Filter::cost));
            return new JunctionFilter(filters, isAnd);
        }

        private Filter comparison(Comparison c) {
            Expression left = c.left();
            Expression right = c.right();
            ComparisonOperator op = c.operator();
            if (left instanceof Literal && !(right instanceof Literal)) {
                Expression swap = left;
                left = right;
                right = swap;
                op = op.flip();
            }
            if (left instanceof ColumnRef column && right instanceof Literal literal) {
                int index = binder.columnIndex(column);
                Object value = literal.value();
                ComparisonOperator operator = op;
                switch (type(column)) {
                    case STRING -> {
                        String s = (String) value;
                        return new DictionaryFilter(index, x -> operator.test(x.compareTo(s)), slot());
                    }
                    case BIGINT -> {
                        return value instanceof Long l ? LongRangeFilter.of(index, op, l)
                                : new DoubleCompareFilter(index, op, (Double) value);
                    }
                    case DOUBLE -> {
                        return new DoubleCompareFilter(index, op, ((Number) value).doubleValue());
                    }
                    case BOOLEAN -> {
                        // Rare; the vector path below handles it.
                    }
                }
            }
            ColumnType common = commonType(type(left), type(right));
            return new VectorCompareFilter(op, kernel(left, common), kernel(right, common), slot());
        }

        private Filter in(In in) {
            Expression operand = in.operand();
            ColumnType type = type(operand);
            boolean negated = in.negated();
            boolean allLongs = in.values().stream().allMatch(v -> v.value() instanceof Long);
            if (operand instanceof ColumnRef column && type == ColumnType.STRING) {
                Set<String> values = new HashSet<>();
                in.values().forEach(v -> values.add((String) v.value()));
                return new DictionaryFilter(binder.columnIndex(column), x -> values.contains(x) != negated, slot());
            }
            if (operand instanceof ColumnRef column && type == ColumnType.BIGINT && allLongs) {
                long[] sorted = new TreeSet<>(in.values().stream().map(v -> (Long) v.value()).toList()).stream()
                        .mapToLong(Long::longValue).toArray();
                return new LongSetFilter(binder.columnIndex(column), sorted, negated);
            }
            return new VectorInFilter(kernel(operand), in.values(), negated);
        }

        private Filter like(Like like) {
            if (!(like.operand() instanceof ColumnRef column)) {
                // Only columns and literals are STRING-typed, and literal operands are folded.
                throw new IllegalStateException("LIKE over a computed string: " + like);
            }
            LikePattern pattern = LikePattern.compile(like.pattern());
            boolean negated = like.negated();
            return new DictionaryFilter(binder.columnIndex(column), x -> pattern.matches(x) != negated, slot());
        }

        private static ColumnType commonType(ColumnType a, ColumnType b) {
            return a == b ? a : ColumnType.DOUBLE;
        }

        /** A kernel for {@code e} converted to {@code type} (only numeric conversions arise). */
        private Kernel kernel(Expression e, ColumnType type) {
            if (e instanceof ColumnRef c && type(c) == ColumnType.BIGINT && type == ColumnType.DOUBLE) {
                return new ColumnKernel(binder.columnIndex(c), ColumnType.DOUBLE, slot());
            }
            if (e instanceof Literal l && l.value() instanceof Long v && type == ColumnType.DOUBLE) {
                return new ConstantKernel(v.doubleValue(), ColumnType.DOUBLE, slot());
            }
            Kernel k = kernel(e);
            return k.type == type ? k : new CastKernel(k, type, slot());
        }

        private Kernel kernel(Expression e) {
            if (e instanceof ColumnRef c) {
                return new ColumnKernel(binder.columnIndex(c), type(c), slot());
            } else if (e instanceof Literal l) {
                return new ConstantKernel(l.value(), l.type(), slot());
            } else if (e instanceof Arithmetic a) {
                ColumnType type = type(a);
                return new ArithmeticKernel(a.operator(), kernel(a.left(), type), kernel(a.right(), type), slot());
            } else if (e instanceof Negate n) {
                return new NegateKernel(kernel(n.operand()), slot());
            } else if (e instanceof Cast c) {
                return kernel(c.operand(), c.type());
            }
            return new PredicateKernel(filter(e), slot());
        }
    }
}
