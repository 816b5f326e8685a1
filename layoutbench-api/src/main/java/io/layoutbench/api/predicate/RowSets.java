package io.layoutbench.api.predicate;

import java.util.ArrayDeque;
import java.util.Arrays;

/** The row-set plumbing of {@link ColumnarEvaluator}: sorted row-id sets, growable id lists, per-call state. */
final class RowSets {
    private RowSets() {
    }

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

    /**
     * State of one {@link ColumnarEvaluator#select} call: the table, lazily built dictionary masks and vectors,
     * scratch lists.
     */
    static final class Context {
        final ColumnarTable table;
        final Object[] slots;
        /**
         * Rows a batch of this call holds at most: {@link Kernels#BATCH}, or the call's rows when fewer, so that
         * calls over a few rows (a planner evaluates a query once per row group) do not allocate 1,024-row vectors.
         */
        final int batch;
        private final ArrayDeque<IntList> pool = new ArrayDeque<>();

        Context(ColumnarTable table, int slotCount, int rows) {
            this.table = table;
            this.slots = new Object[slotCount];
            this.batch = Math.max(1, Math.min(Kernels.BATCH, rows));
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
}
