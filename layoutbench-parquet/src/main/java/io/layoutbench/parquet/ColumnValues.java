package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;

import java.util.BitSet;

/**
 * All values of one column of a table, as arrays indexed by row: {@code long[]}, {@code double[]},
 * {@code boolean[]}, or dictionary ids into a {@link StringDictionary}. Nulls are marked in a {@link BitSet} (a
 * string null has id -1). The arrays are shared, not copied: do not change them.
 *
 * <pre>{@code
 * ColumnValues.Longs widths = (ColumnValues.Longs) columns.column("width");
 * ColumnValues.Longs heights = (ColumnValues.Longs) columns.column("height");
 * for (int row = 0; row < widths.size(); row++) {
 *     if (!widths.isNull(row) && !heights.isNull(row)
 *             && (double) widths.values()[row] / heights.values()[row] > 1.5) { ... }
 * }
 * }</pre>
 */
public sealed interface ColumnValues
        permits ColumnValues.Longs, ColumnValues.Doubles, ColumnValues.Booleans, ColumnValues.Strings {

    /** The column's physical name. */
    String name();

    /** The column's type. */
    ColumnType type();

    /** Number of rows. */
    int size();

    /** Whether the value at {@code row} is null. */
    boolean isNull(int row);

    /** The value at {@code row} boxed as its type's Java class, or null. */
    Object get(int row);

    /**
     * A BIGINT column.
     *
     * @param name   the column's name
     * @param values one value per row; 0 where null
     * @param nulls  the rows that are null
     */
    record Longs(String name, long[] values, BitSet nulls) implements ColumnValues {
        public Longs {
            requireNonNull(name, "name is null");
            requireNonNull(values, "values is null");
            requireNonNull(nulls, "nulls is null");
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
            return nulls.get(row);
        }

        @Override
        public Object get(int row) {
            return nulls.get(row) ? null : values[row];
        }
    }

    /**
     * A DOUBLE column.
     *
     * @param name   the column's name
     * @param values one value per row; 0 where null
     * @param nulls  the rows that are null
     */
    record Doubles(String name, double[] values, BitSet nulls) implements ColumnValues {
        public Doubles {
            requireNonNull(name, "name is null");
            requireNonNull(values, "values is null");
            requireNonNull(nulls, "nulls is null");
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
            return nulls.get(row);
        }

        @Override
        public Object get(int row) {
            return nulls.get(row) ? null : values[row];
        }
    }

    /**
     * A BOOLEAN column.
     *
     * @param name   the column's name
     * @param values one value per row; false where null
     * @param nulls  the rows that are null
     */
    record Booleans(String name, boolean[] values, BitSet nulls) implements ColumnValues {
        public Booleans {
            requireNonNull(name, "name is null");
            requireNonNull(values, "values is null");
            requireNonNull(nulls, "nulls is null");
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
            return nulls.get(row);
        }

        @Override
        public Object get(int row) {
            return nulls.get(row) ? null : values[row];
        }
    }

    /**
     * A STRING column, dictionary-encoded.
     *
     * @param name       the column's name
     * @param ids        one dictionary id per row; -1 where null
     * @param dictionary the distinct values
     */
    record Strings(String name, int[] ids, StringDictionary dictionary) implements ColumnValues {
        public Strings {
            requireNonNull(name, "name is null");
            requireNonNull(ids, "ids is null");
            requireNonNull(dictionary, "dictionary is null");
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
        public String get(int row) {
            int id = ids[row];
            return id < 0 ? null : dictionary.get(id);
        }
    }
}
