package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * Appends values to one column, row after row, and builds {@link ColumnVector}s: a {@code ColumnarTable.Builder}
 * has one per column, a pushdown query one per selected column. Arrays grow by half; the null bitmap is allocated
 * at the first NULL. {@link #build()} copies, so appending can go on and build again. Not thread-safe.
 *
 * <pre>{@code
 * ColumnVectorBuilder.Strings labels = ColumnVectorBuilder.strings(1024);
 * labels.append("tench").append("goldfish").appendNull();
 * ColumnVector.Strings column = labels.build();           // 3 rows, 2 distinct values
 * }</pre>
 */
public abstract sealed class ColumnVectorBuilder permits ColumnVectorBuilder.Longs, ColumnVectorBuilder.Doubles,
        ColumnVectorBuilder.Booleans, ColumnVectorBuilder.Strings {

    int size;
    /** Null bitmap, allocated at the first NULL. */
    private long[] nulls;

    private ColumnVectorBuilder() {
    }

    /** A builder of {@code type} with room for {@code expectedRows} rows before it grows. */
    public static ColumnVectorBuilder of(ColumnType type, int expectedRows) {
        return switch (requireNonNull(type, "type is null")) {
            case BIGINT -> longs(expectedRows);
            case DOUBLE -> doubles(expectedRows);
            case BOOLEAN -> booleans(expectedRows);
            case STRING -> strings(expectedRows);
        };
    }

    public static Longs longs(int expectedRows) {
        return new Longs(capacity(expectedRows));
    }

    public static Doubles doubles(int expectedRows) {
        return new Doubles(capacity(expectedRows));
    }

    public static Booleans booleans(int expectedRows) {
        return new Booleans(capacity(expectedRows));
    }

    public static Strings strings(int expectedRows) {
        return new Strings(capacity(expectedRows));
    }

    /** The type of the column built. */
    public abstract ColumnType type();

    /** Rows appended so far. */
    public int size() {
        return size;
    }

    /** Appends a NULL. */
    public abstract ColumnVectorBuilder appendNull();

    /**
     * Appends a value of this builder's type's Java class ({@link ColumnType#javaType()}), or null for NULL.
     *
     * @throws ClassCastException if {@code value} has another class
     */
    public abstract ColumnVectorBuilder appendObject(Object value);

    /**
     * Appends the value at {@code row} of {@code source}, which has this builder's type. Strings are copied as
     * UTF-8 bytes, without decoding.
     *
     * @throws IllegalArgumentException if {@code source} has another type
     */
    public abstract ColumnVectorBuilder append(ColumnVector source, int row);

    /** A vector of the rows appended so far; the arrays are copies, trimmed to {@link #size()}. */
    public abstract ColumnVector build();

    /** Room for the next row: grows {@code length} by half when it is full. */
    final int grown(int length) {
        if (size < length) {
            return length;
        }
        if (size == Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("A column holds at most " + size + " rows");
        }
        return (int) Math.min(Integer.MAX_VALUE - 8, length + (length >> 1) + 16L);
    }

    final void markNull() {
        int word = size >>> 6;
        if (nulls == null) {
            nulls = new long[Math.max(word + 1, ColumnVector.bitmapWords(capacity()))];
        } else if (word >= nulls.length) {
            nulls = Arrays.copyOf(nulls, Math.max(word + 1, nulls.length + (nulls.length >> 1)));
        }
        nulls[word] |= 1L << size;
    }

    final long[] builtNulls() {
        return nulls == null ? ColumnVector.NO_NULLS : Arrays.copyOf(nulls, ColumnVector.bitmapWords(size));
    }

    /** Length of the value array. */
    abstract int capacity();

    final void checkType(ColumnVector source) {
        if (source.type() != type()) {
            throw new IllegalArgumentException("Cannot append a " + source.type() + " value to a " + type()
                    + " column");
        }
    }

    private static int capacity(int expectedRows) {
        if (expectedRows < 0) {
            throw new IllegalArgumentException("expectedRows must not be negative but got " + expectedRows);
        }
        return Math.max(16, expectedRows);
    }

    /** Builds {@link ColumnVector.Longs}. */
    public static final class Longs extends ColumnVectorBuilder {
        private long[] values;

        private Longs(int capacity) {
            values = new long[capacity];
        }

        @Override
        public ColumnType type() {
            return ColumnType.BIGINT;
        }

        public Longs append(long value) {
            values = ensure();
            values[size++] = value;
            return this;
        }

        @Override
        public Longs appendNull() {
            values = ensure();
            markNull();
            size++;
            return this;
        }

        @Override
        public Longs appendObject(Object value) {
            return value == null ? appendNull() : append((Long) value);
        }

        @Override
        public Longs append(ColumnVector source, int row) {
            checkType(source);
            ColumnVector.Longs longs = (ColumnVector.Longs) source;
            return longs.isNull(row) ? appendNull() : append(longs.values()[row]);
        }

        @Override
        public ColumnVector.Longs build() {
            return new ColumnVector.Longs(Arrays.copyOf(values, size), builtNulls());
        }

        @Override
        int capacity() {
            return values.length;
        }

        private long[] ensure() {
            int length = grown(values.length);
            return length == values.length ? values : Arrays.copyOf(values, length);
        }
    }

    /** Builds {@link ColumnVector.Doubles}. */
    public static final class Doubles extends ColumnVectorBuilder {
        private double[] values;

        private Doubles(int capacity) {
            values = new double[capacity];
        }

        @Override
        public ColumnType type() {
            return ColumnType.DOUBLE;
        }

        public Doubles append(double value) {
            values = ensure();
            values[size++] = value;
            return this;
        }

        @Override
        public Doubles appendNull() {
            values = ensure();
            markNull();
            size++;
            return this;
        }

        @Override
        public Doubles appendObject(Object value) {
            return value == null ? appendNull() : append((Double) value);
        }

        @Override
        public Doubles append(ColumnVector source, int row) {
            checkType(source);
            ColumnVector.Doubles doubles = (ColumnVector.Doubles) source;
            return doubles.isNull(row) ? appendNull() : append(doubles.values()[row]);
        }

        @Override
        public ColumnVector.Doubles build() {
            return new ColumnVector.Doubles(Arrays.copyOf(values, size), builtNulls());
        }

        @Override
        int capacity() {
            return values.length;
        }

        private double[] ensure() {
            int length = grown(values.length);
            return length == values.length ? values : Arrays.copyOf(values, length);
        }
    }

    /** Builds {@link ColumnVector.Booleans}. */
    public static final class Booleans extends ColumnVectorBuilder {
        private boolean[] values;

        private Booleans(int capacity) {
            values = new boolean[capacity];
        }

        @Override
        public ColumnType type() {
            return ColumnType.BOOLEAN;
        }

        public Booleans append(boolean value) {
            values = ensure();
            values[size++] = value;
            return this;
        }

        @Override
        public Booleans appendNull() {
            values = ensure();
            markNull();
            size++;
            return this;
        }

        @Override
        public Booleans appendObject(Object value) {
            return value == null ? appendNull() : append((Boolean) value);
        }

        @Override
        public Booleans append(ColumnVector source, int row) {
            checkType(source);
            ColumnVector.Booleans booleans = (ColumnVector.Booleans) source;
            return booleans.isNull(row) ? appendNull() : append(booleans.values()[row]);
        }

        @Override
        public ColumnVector.Booleans build() {
            return new ColumnVector.Booleans(Arrays.copyOf(values, size), builtNulls());
        }

        @Override
        int capacity() {
            return values.length;
        }

        private boolean[] ensure() {
            int length = grown(values.length);
            return length == values.length ? values : Arrays.copyOf(values, length);
        }
    }

    /** Builds {@link ColumnVector.Strings}: ids into a {@link StringDictionary} collected as rows come. */
    public static final class Strings extends ColumnVectorBuilder {
        private final StringDictionary.Builder dictionary = StringDictionary.builder();
        private int[] ids;

        private Strings(int capacity) {
            ids = new int[capacity];
        }

        @Override
        public ColumnType type() {
            return ColumnType.STRING;
        }

        /**
         * Appends {@code value}, or NULL for null.
         *
         * @throws IllegalArgumentException if {@code value} holds an unpaired surrogate, which UTF-8 cannot store
         */
        public Strings append(String value) {
            return value == null ? appendNull() : appendId(dictionary.add(value));
        }

        /** Appends the UTF-8 value in {@code data[offset, offset + length)}. */
        public Strings append(byte[] data, int offset, int length) {
            return appendId(dictionary.add(data, offset, length));
        }

        @Override
        public Strings appendNull() {
            // A NULL string is id -1; strings keep no bitmap.
            return appendId(-1);
        }

        @Override
        public Strings appendObject(Object value) {
            return append((String) value);
        }

        @Override
        public Strings append(ColumnVector source, int row) {
            checkType(source);
            ColumnVector.Strings strings = (ColumnVector.Strings) source;
            int id = strings.ids()[row];
            return appendId(id < 0 ? -1 : dictionary.add(strings.dictionary(), id));
        }

        @Override
        public ColumnVector.Strings build() {
            return new ColumnVector.Strings(Arrays.copyOf(ids, size), dictionary.build());
        }

        @Override
        int capacity() {
            return ids.length;
        }

        private Strings appendId(int id) {
            int length = grown(ids.length);
            if (length != ids.length) {
                ids = Arrays.copyOf(ids, length);
            }
            ids[size++] = id;
            return this;
        }
    }
}
