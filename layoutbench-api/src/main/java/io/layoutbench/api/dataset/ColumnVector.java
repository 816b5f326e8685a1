package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

/**
 * All values of one column, as arrays indexed by row: {@code long[]}, {@code double[]}, {@code boolean[]}, or
 * dictionary ids into a {@link StringDictionary}. This is the one column form of the library: Parquet decoders
 * produce it, a {@code ColumnarTable} holds it and the predicate evaluator reads it, and a
 * {@link ColumnVectorBuilder} grows it row by row.
 *
 * <p>NULLs of a number or boolean column are bits of a {@code long[]} bitmap, bit {@code row & 63} of word
 * {@code row >>> 6} ({@link #isNull(long[], int)}), and the bitmap is empty ({@link #NO_NULLS}) when no row is
 * NULL, so a loop over a column without NULLs tests {@code nulls.length == 0} once and never looks at a bit. A
 * {@code java.util.BitSet} measured no faster in the evaluator's loops (within 7%, either way, over 1.28 M rows with
 * 1% NULLs); the plain array is sized exactly, cannot be changed through an API, and is read a word at a time.
 * An empty array rather than null keeps the record free of null checks. A NULL string has id -1. The value under a
 * NULL is 0 or false.
 *
 * <p>The arrays are shared, not copied: do not change them. A vector is then immutable and thread-safe. Records
 * compare their arrays by identity.
 *
 * <pre>{@code
 * ColumnVector.Longs widths = (ColumnVector.Longs) table.column(table.columnIndex("width"));
 * ColumnVector.Longs heights = (ColumnVector.Longs) table.column(table.columnIndex("height"));
 * for (int row = 0; row < widths.size(); row++) {
 *     if (!widths.isNull(row) && !heights.isNull(row)
 *             && (double) widths.values()[row] / heights.values()[row] > 1.5) { ... }
 * }
 * }</pre>
 */
public sealed interface ColumnVector
        permits ColumnVector.Longs, ColumnVector.Doubles, ColumnVector.Booleans, ColumnVector.Strings {

    /** The null bitmap of a column without NULLs. Empty, so nothing can change it. */
    long[] NO_NULLS = new long[0];

    /** The column's type. */
    ColumnType type();

    /** Number of rows. */
    int size();

    /** Whether the value at {@code row} is NULL. */
    boolean isNull(int row);

    /** Whether any value is NULL: a look at the bitmap, or for strings a scan of the ids. */
    boolean hasNulls();

    /** The value at {@code row} boxed as its type's Java class ({@link ColumnType#javaType()}), or null. */
    Object get(int row);

    /** Approximate heap footprint of the arrays (and for strings the dictionary), in bytes. */
    long estimatedBytes();

    /** Whether bit {@code row} of a null bitmap is set; false for {@link #NO_NULLS}. */
    static boolean isNull(long[] nulls, int row) {
        return nulls.length != 0 && (nulls[row >>> 6] & (1L << row)) != 0;
    }

    /** Words a null bitmap of {@code rows} rows has. */
    static int bitmapWords(int rows) {
        return (rows + 63) >>> 6;
    }

    /**
     * A BIGINT column.
     *
     * @param values one value per row; 0 where NULL
     * @param nulls  the null bitmap: {@link #NO_NULLS}, or {@link #bitmapWords} words (a bitmap without a set bit is
     *               replaced by {@link #NO_NULLS})
     */
    record Longs(long[] values, long[] nulls) implements ColumnVector {
        public Longs {
            requireNonNull(values, "values is null");
            nulls = NullBitmaps.checked(nulls, values.length);
        }

        /** A column without NULLs. */
        public Longs(long[] values) {
            this(values, NO_NULLS);
        }

        @Override
        public ColumnType type() {
            return ColumnType.BIGINT;
        }

        @Override
        public int size() {
            return values.length;
        }

        @Override
        public boolean isNull(int row) {
            java.util.Objects.checkIndex(row, values.length);
            return ColumnVector.isNull(nulls, row);
        }

        @Override
        public boolean hasNulls() {
            return nulls.length != 0;
        }

        @Override
        public Object get(int row) {
            return isNull(row) ? null : (Object) values[row];
        }

        @Override
        public long estimatedBytes() {
            return StringDictionary.arrayBytes(values.length, 8) + NullBitmaps.bytes(nulls);
        }
    }

    /**
     * A DOUBLE column.
     *
     * @param values one value per row; 0 where NULL
     * @param nulls  the null bitmap, as for {@link Longs}
     */
    record Doubles(double[] values, long[] nulls) implements ColumnVector {
        public Doubles {
            requireNonNull(values, "values is null");
            nulls = NullBitmaps.checked(nulls, values.length);
        }

        /** A column without NULLs. */
        public Doubles(double[] values) {
            this(values, NO_NULLS);
        }

        @Override
        public ColumnType type() {
            return ColumnType.DOUBLE;
        }

        @Override
        public int size() {
            return values.length;
        }

        @Override
        public boolean isNull(int row) {
            java.util.Objects.checkIndex(row, values.length);
            return ColumnVector.isNull(nulls, row);
        }

        @Override
        public boolean hasNulls() {
            return nulls.length != 0;
        }

        @Override
        public Object get(int row) {
            return isNull(row) ? null : (Object) values[row];
        }

        @Override
        public long estimatedBytes() {
            return StringDictionary.arrayBytes(values.length, 8) + NullBitmaps.bytes(nulls);
        }
    }

    /**
     * A BOOLEAN column.
     *
     * @param values one value per row; false where NULL
     * @param nulls  the null bitmap, as for {@link Longs}
     */
    record Booleans(boolean[] values, long[] nulls) implements ColumnVector {
        public Booleans {
            requireNonNull(values, "values is null");
            nulls = NullBitmaps.checked(nulls, values.length);
        }

        /** A column without NULLs. */
        public Booleans(boolean[] values) {
            this(values, NO_NULLS);
        }

        @Override
        public ColumnType type() {
            return ColumnType.BOOLEAN;
        }

        @Override
        public int size() {
            return values.length;
        }

        @Override
        public boolean isNull(int row) {
            java.util.Objects.checkIndex(row, values.length);
            return ColumnVector.isNull(nulls, row);
        }

        @Override
        public boolean hasNulls() {
            return nulls.length != 0;
        }

        @Override
        public Object get(int row) {
            return isNull(row) ? null : (Object) values[row];
        }

        @Override
        public long estimatedBytes() {
            return StringDictionary.arrayBytes(values.length, 1) + NullBitmaps.bytes(nulls);
        }
    }

    /**
     * A STRING column, dictionary-encoded.
     *
     * @param ids        one dictionary id per row; -1 where NULL
     * @param dictionary the distinct values
     * @throws IllegalArgumentException if an id is outside the dictionary
     */
    record Strings(int[] ids, StringDictionary dictionary) implements ColumnVector {
        public Strings {
            requireNonNull(ids, "ids is null");
            requireNonNull(dictionary, "dictionary is null");
            int size = dictionary.size();
            for (int row = 0; row < ids.length; row++) {
                if (ids[row] < -1 || ids[row] >= size) {
                    throw new IllegalArgumentException("Row " + row + " has dictionary id " + ids[row]
                            + " but the dictionary has " + size + " values");
                }
            }
        }

        @Override
        public ColumnType type() {
            return ColumnType.STRING;
        }

        @Override
        public int size() {
            return ids.length;
        }

        @Override
        public boolean isNull(int row) {
            return ids[row] < 0;
        }

        @Override
        public boolean hasNulls() {
            for (int id : ids) {
                if (id < 0) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String get(int row) {
            int id = ids[row];
            return id < 0 ? null : dictionary.get(id);
        }

        @Override
        public long estimatedBytes() {
            return StringDictionary.arrayBytes(ids.length, 4) + dictionary.estimatedBytes();
        }
    }
}
