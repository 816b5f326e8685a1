package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * The ids (positions) of selected rows of a {@link ColumnarTable}, strictly ascending. Immutable and backed by an
 * {@code int[]}, so a selection of n rows costs 4n bytes.
 *
 * <pre>{@code
 * Selection rows = query.select(table);
 * for (int i = 0; i < rows.size(); i++) {
 *     String file = table.getString(0, rows.get(i));
 * }
 * }</pre>
 */
public final class Selection {
    private static final Selection EMPTY = new Selection(new int[0], 0);

    private final int[] rows;
    private final int size;

    /** Takes ownership of {@code rows[0, size)}, which the caller guarantees ascending and never modifies. */
    Selection(int[] rows, int size) {
        this.rows = rows;
        this.size = size;
    }

    /** The selection of no rows. */
    public static Selection empty() {
        return EMPTY;
    }

    /** A selection of the given row ids, which must be strictly ascending and not negative. */
    public static Selection of(int... rows) {
        requireNonNull(rows, "rows is null");
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] < 0 || (i > 0 && rows[i] <= rows[i - 1])) {
                throw new IllegalArgumentException("Row ids must be non-negative and strictly ascending but"
                        + " position " + i + " holds " + rows[i] + (i > 0 ? " after " + rows[i - 1] : ""));
            }
        }
        return new Selection(rows.clone(), rows.length);
    }

    /** Rows {@code [from, to)}. */
    public static Selection range(int from, int to) {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("Invalid row range [" + from + ", " + to + ")");
        }
        int[] rows = new int[to - from];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = from + i;
        }
        return new Selection(rows, rows.length);
    }

    /** Number of selected rows. */
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The {@code i}-th selected row id. */
    public int get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("Index " + i + " out of a selection of " + size + " rows");
        }
        return rows[i];
    }

    /** The first {@code limit} rows. */
    public Selection limit(long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative but got " + limit);
        }
        return limit >= size ? this : new Selection(rows, (int) limit);
    }

    /** A copy of the row ids. */
    public int[] toArray() {
        return Arrays.copyOf(rows, size);
    }

    public IntStream stream() {
        return Arrays.stream(rows, 0, size);
    }

    public void forEach(IntConsumer action) {
        for (int i = 0; i < size; i++) {
            action.accept(rows[i]);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Selection other && Arrays.equals(rows, 0, size, other.rows, 0, other.size);
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int i = 0; i < size; i++) {
            h = 31 * h + rows[i];
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Selection[").append(size).append(size == 1 ? " row" : " rows");
        for (int i = 0; i < Math.min(size, 20); i++) {
            sb.append(i == 0 ? ": " : ", ").append(rows[i]);
        }
        return sb.append(size > 20 ? ", ...]" : "]").toString();
    }
}
