package io.layoutbench.parquet.model;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.predicate.ColumnarTable;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.IntToLongFunction;

/**
 * What the size of a Parquet column depends on, per row: whether the value is NULL, its plain-encoded size, and
 * which values are equal (for dictionary encoding). Implementations are immutable.
 */
public interface ColumnModel {

    /** Whether row {@code row} is NULL. */
    boolean isNull(int row);

    /** Bytes of the value in PLAIN encoding: 4 + UTF-8 length for a string, 8 for a BIGINT or DOUBLE. */
    int plainSize(int row);

    /** Equal values have equal keys, different values different keys. */
    long key(int row);

    /** Whether parquet-java dictionary-encodes this column (everything but BOOLEAN). */
    default boolean dictionaryEncoded() {
        return true;
    }

    /** Column {@code column} of {@code table}. */
    static ColumnModel of(ColumnarTable table, int column) {
        ColumnType type = table.schema().columns().get(column).type();
        IntPredicate nulls = row -> table.isNull(column, row);
        return switch (type) {
            case STRING -> Strings.of(table, column);
            case BIGINT -> new FixedWidth(nulls, 8, row -> table.getLong(column, row), true);
            case DOUBLE -> new FixedWidth(nulls, 8, row -> Double.doubleToLongBits(table.getDouble(column, row)),
                    true);
            // Bit-packed in fact, an eighth of a byte; booleans are rare in metadata.
            case BOOLEAN -> new FixedWidth(nulls, 1, row -> table.getBoolean(column, row) ? 1 : 0, false);
        };
    }

    /** A BIGINT column with a value per row, no NULLs. */
    static ColumnModel longs(long[] values) {
        requireNonNull(values, "values is null");
        return new FixedWidth(row -> false, 8, row -> values[row], true);
    }

    /**
     * A BIGINT column whose every value differs from every other (checksums: they are unknown without the samples'
     * bytes, and almost surely distinct), no NULLs.
     */
    static ColumnModel distinctLongs() {
        return new FixedWidth(row -> false, 8, row -> row, true);
    }

    /**
     * A column whose values all take {@code width} bytes in PLAIN encoding.
     *
     * @param nulls             which rows are NULL
     * @param width             bytes per value
     * @param keys              equal values to equal keys
     * @param dictionaryEncoded whether parquet-java dictionary-encodes it
     */
    record FixedWidth(IntPredicate nulls, int width, IntToLongFunction keys, boolean dictionaryEncoded)
            implements ColumnModel {

        @Override
        public boolean isNull(int row) {
            return nulls.test(row);
        }

        @Override
        public int plainSize(int row) {
            return width;
        }

        @Override
        public long key(int row) {
            return keys.applyAsLong(row);
        }
    }

    /** A STRING column given as a dictionary id per row and the UTF-8 length of each dictionary entry. */
    static ColumnModel strings(int[] ids, int[] utf8Lengths) {
        return new Strings(ids, utf8Lengths);
    }

    /** Strings as dictionary ids; a NULL is id -1. */
    final class Strings implements ColumnModel {
        private final int[] ids;
        private final int[] utf8Lengths;

        Strings(int[] ids, int[] utf8Lengths) {
            this.ids = requireNonNull(ids, "ids is null");
            this.utf8Lengths = requireNonNull(utf8Lengths, "utf8Lengths is null");
        }

        static Strings of(ColumnarTable table, int column) {
            int rows = table.rowCount();
            int[] ids = new int[rows];
            Map<String, Integer> dictionary = new HashMap<>();
            int[] lengths = new int[16];
            for (int row = 0; row < rows; row++) {
                if (table.isNull(column, row)) {
                    ids[row] = -1;
                    continue;
                }
                String value = table.getString(column, row);
                Integer id = dictionary.get(value);
                if (id == null) {
                    id = dictionary.size();
                    dictionary.put(value, id);
                    if (id == lengths.length) {
                        lengths = java.util.Arrays.copyOf(lengths, id * 2);
                    }
                    lengths[id] = value.getBytes(StandardCharsets.UTF_8).length;
                }
                ids[row] = id;
            }
            return new Strings(ids, java.util.Arrays.copyOf(lengths, dictionary.size()));
        }

        @Override
        public boolean isNull(int row) {
            return ids[row] < 0;
        }

        @Override
        public int plainSize(int row) {
            return 4 + utf8Lengths[ids[row]];
        }

        @Override
        public long key(int row) {
            return ids[row];
        }
    }
}
