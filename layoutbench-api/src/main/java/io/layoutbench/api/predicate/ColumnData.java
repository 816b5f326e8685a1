package io.layoutbench.api.predicate;

/**
 * The storage of one column of a {@link ColumnarTable}: strings as dictionary ids, numbers and booleans as
 * primitive arrays with an optional null bitmap (absent when the column has no NULLs, so the common case costs
 * nothing). Immutable after construction.
 */
abstract sealed class ColumnData permits ColumnData.Strings, ColumnData.Longs, ColumnData.Doubles,
        ColumnData.Booleans {

    abstract boolean isNull(int row);

    /** The value as a Long, Double, String or Boolean; null for SQL NULL. */
    abstract Object get(int row);

    abstract long estimatedBytes();

    static boolean isSet(long[] bits, int row) {
        return bits != null && (bits[row >>> 6] & (1L << row)) != 0;
    }

    static long arrayBytes(int length, int elementBytes) {
        return 16 + (long) length * elementBytes;
    }

    /** Dictionary-encoded strings: {@code dictionary[ids[row]]}, id -1 for NULL. */
    static final class Strings extends ColumnData {
        final int[] ids;
        final String[] dictionary;

        Strings(int[] ids, String[] dictionary) {
            this.ids = ids;
            this.dictionary = dictionary;
        }

        @Override
        boolean isNull(int row) {
            return ids[row] < 0;
        }

        @Override
        Object get(int row) {
            int id = ids[row];
            return id < 0 ? null : dictionary[id];
        }

        @Override
        long estimatedBytes() {
            long bytes = arrayBytes(ids.length, 4) + arrayBytes(dictionary.length, 4);
            for (String s : dictionary) {
                // String object plus its byte[]: compact Latin-1 strings use one byte per character.
                bytes += 24 + arrayBytes(s.length(), 1);
            }
            return bytes;
        }
    }

    static final class Longs extends ColumnData {
        final long[] values;
        /** Bit {@code row} set when the value is NULL; null when no value is. */
        final long[] nulls;

        Longs(long[] values, long[] nulls) {
            this.values = values;
            this.nulls = nulls;
        }

        @Override
        boolean isNull(int row) {
            return isSet(nulls, row);
        }

        @Override
        Object get(int row) {
            return isSet(nulls, row) ? null : (Object) values[row];
        }

        @Override
        long estimatedBytes() {
            return arrayBytes(values.length, 8) + (nulls == null ? 0 : arrayBytes(nulls.length, 8));
        }
    }

    static final class Doubles extends ColumnData {
        final double[] values;
        final long[] nulls;

        Doubles(double[] values, long[] nulls) {
            this.values = values;
            this.nulls = nulls;
        }

        @Override
        boolean isNull(int row) {
            return isSet(nulls, row);
        }

        @Override
        Object get(int row) {
            return isSet(nulls, row) ? null : (Object) values[row];
        }

        @Override
        long estimatedBytes() {
            return arrayBytes(values.length, 8) + (nulls == null ? 0 : arrayBytes(nulls.length, 8));
        }
    }

    static final class Booleans extends ColumnData {
        final boolean[] values;
        final long[] nulls;

        Booleans(boolean[] values, long[] nulls) {
            this.values = values;
            this.nulls = nulls;
        }

        @Override
        boolean isNull(int row) {
            return isSet(nulls, row);
        }

        @Override
        Object get(int row) {
            return isSet(nulls, row) ? null : (Object) values[row];
        }

        @Override
        long estimatedBytes() {
            return arrayBytes(values.length, 1) + (nulls == null ? 0 : arrayBytes(nulls.length, 8));
        }
    }
}
