package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

/** Checks and sizes of the null bitmaps of {@link ColumnVector}. */
final class NullBitmaps {
    private NullBitmaps() {
    }

    /**
     * {@code nulls} as a vector of {@code rows} rows keeps it: {@link ColumnVector#NO_NULLS} when no bit is set.
     *
     * @throws IllegalArgumentException if the bitmap is neither empty nor one bit per row
     */
    static long[] checked(long[] nulls, int rows) {
        requireNonNull(nulls, "nulls is null (use ColumnVector.NO_NULLS)");
        if (nulls.length == 0) {
            return ColumnVector.NO_NULLS;
        }
        if (nulls.length != ColumnVector.bitmapWords(rows)) {
            throw new IllegalArgumentException("A null bitmap of " + rows + " rows has "
                    + ColumnVector.bitmapWords(rows) + " words, not " + nulls.length);
        }
        for (long word : nulls) {
            if (word != 0) {
                return nulls;
            }
        }
        return ColumnVector.NO_NULLS;
    }

    /** Heap bytes of a bitmap; none for {@link ColumnVector#NO_NULLS}, which is shared. */
    static long bytes(long[] nulls) {
        return nulls.length == 0 ? 0 : StringDictionary.arrayBytes(nulls.length, 8);
    }
}
