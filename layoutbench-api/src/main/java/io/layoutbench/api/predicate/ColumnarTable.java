package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A metadata table held column by column, for fast bulk evaluation with {@link BoundPredicate#select}. STRING
 * columns are dictionary-encoded ({@code int} id per row plus one copy of each distinct string), BIGINT, DOUBLE
 * and BOOLEAN columns are primitive arrays, and a null bitmap exists only for columns that hold NULLs. The paper's
 * 1,281,167-row ImageNet table costs about 4 bytes per row per string column plus the distinct strings, and 8 bytes
 * per row per number column. A column whose values are all distinct (such as {@code filename}) is stored the same
 * way; its dictionary is then simply as long as the table.
 *
 * <p>Immutable and thread-safe once built. The {@link Builder} is not thread-safe.
 *
 * <pre>{@code
 * ColumnarTable.Builder builder = ColumnarTable.builder(MetadataSchema.imageNet());
 * builder.add("n01440764_10026.JPEG", "tench", 113_042L, 500L, 375L);
 * ColumnarTable table = builder.build();
 * Selection rows = Query.parse("label = 'tench'").bind(table.schema()).select(table);
 * }</pre>
 */
public final class ColumnarTable {
    /** Largest number of distinct values {@link #statistics(int, int)} lists for a STRING column. */
    public static final int MAX_DISTINCT_VALUES = 1024;

    private final MetadataSchema schema;
    private final int rowCount;
    private final ColumnData[] columns;

    private ColumnarTable(MetadataSchema schema, int rowCount, ColumnData[] columns) {
        this.schema = schema;
        this.rowCount = rowCount;
        this.columns = columns;
    }

    /** A builder for a table of {@code schema}. */
    public static Builder builder(MetadataSchema schema) {
        return new Builder(schema, 1024);
    }

    /** A builder sized for about {@code expectedRows} rows, so large tables are not copied while growing. */
    public static Builder builder(MetadataSchema schema, int expectedRows) {
        if (expectedRows < 0) {
            throw new IllegalArgumentException("expectedRows must not be negative but got " + expectedRows);
        }
        return new Builder(schema, Math.max(16, expectedRows));
    }

    /**
     * A builder that takes whole columns as arrays, without copying them: for readers that already hold columns
     * (a Parquet metadata table of 1.28 M rows loads without a per-row object). Every column of {@code schema}
     * must be given once, with {@code rowCount} values. The arrays are owned by the table afterwards: do not change
     * them.
     *
     * <pre>{@code
     * ColumnarTable table = ColumnarTable.fromColumns(schema, 2)
     *         .strings("filename", new int[] {0, 1}, new String[] {"a.jpg", "b.jpg"})
     *         .strings("label", new int[] {0, 0}, new String[] {"tench"})
     *         .longs("filesize_bytes", new long[] {10, 20}, null)
     *         .longs("width", new long[] {5, 6}, null)
     *         .longs("height", new long[] {4, 3}, null)
     *         .build();
     * }</pre>
     */
    public static ColumnsBuilder fromColumns(MetadataSchema schema, int rowCount) {
        return new ColumnsBuilder(schema, rowCount);
    }

    /** A table of {@code rows}, each of which must have {@code schema}. */
    public static ColumnarTable of(MetadataSchema schema, List<MetadataRow> rows) {
        Builder builder = builder(schema, rows.size());
        for (MetadataRow row : rows) {
            builder.add(row);
        }
        return builder.build();
    }

    public MetadataSchema schema() {
        return schema;
    }

    public int rowCount() {
        return rowCount;
    }

    /** Position of the column named {@code identifier} (name or alias, ignoring case). */
    public int columnIndex(String identifier) {
        return schema.indexOf(identifier).orElseThrow(() -> new IllegalArgumentException("Unknown column '"
                + identifier + "'; known columns: " + schema.describeColumns()));
    }

    public boolean isNull(int column, int row) {
        checkRow(row);
        return columns[column].isNull(row);
    }

    /** The value at ({@code column}, {@code row}) as a Long, Double, String or Boolean; null for NULL. */
    public Object get(int column, int row) {
        checkRow(row);
        return columns[column].get(row);
    }

    /** A non-null BIGINT value. */
    public long getLong(int column, int row) {
        return (Long) typed(column, row, ColumnType.BIGINT);
    }

    /** A non-null DOUBLE value. */
    public double getDouble(int column, int row) {
        return (Double) typed(column, row, ColumnType.DOUBLE);
    }

    /** A STRING value, or null for NULL. */
    public String getString(int column, int row) {
        checkType(column, ColumnType.STRING);
        return (String) get(column, row);
    }

    /** A non-null BOOLEAN value. */
    public boolean getBoolean(int column, int row) {
        return (Boolean) typed(column, row, ColumnType.BOOLEAN);
    }

    /** Row {@code row} as a {@link MetadataRow}. */
    public MetadataRow row(int row) {
        checkRow(row);
        List<Object> values = new ArrayList<>(columns.length);
        for (ColumnData column : columns) {
            values.add(column.get(row));
        }
        return new MetadataRow(schema, values);
    }

    /** Number of distinct non-null strings of a STRING column. */
    public int dictionarySize(int column) {
        checkType(column, ColumnType.STRING);
        return ((ColumnData.Strings) columns[column]).dictionary.length;
    }

    /** Approximate heap footprint of the column data, in bytes. */
    public long estimatedSizeBytes() {
        long bytes = 0;
        for (ColumnData column : columns) {
            bytes += column.estimatedBytes();
        }
        return bytes;
    }

    /**
     * Exact statistics of rows {@code [fromRow, toRow)}: bounds, NULL count and, for STRING columns with at most
     * {@link #MAX_DISTINCT_VALUES} distinct values, the distinct values. DOUBLE bounds include NaN as the largest
     * value. Keyed by canonical column name.
     */
    public GroupStatistics statistics(int fromRow, int toRow) {
        if (fromRow < 0 || toRow > rowCount || fromRow > toRow) {
            throw new IndexOutOfBoundsException("Row range [" + fromRow + ", " + toRow + ") is outside a table of "
                    + rowCount + " rows");
        }
        Map<String, ColumnStatistics> stats = new HashMap<>();
        for (int c = 0; c < columns.length; c++) {
            stats.put(schema.columns().get(c).name(), columnStatistics(columns[c], fromRow, toRow));
        }
        return new GroupStatistics(toRow - fromRow, stats);
    }

    private static ColumnStatistics columnStatistics(ColumnData data, int from, int to) {
        long nulls = 0;
        Object min = null;
        Object max = null;
        if (data instanceof ColumnData.Strings strings) {
            // Sorting a copy of the ids finds the distinct values without a dictionary-sized scratch array,
            // which matters for an all-distinct column split into many small groups.
            int[] ids = Arrays.copyOfRange(strings.ids, from, to);
            Arrays.sort(ids);
            Set<String> distinct = new HashSet<>();
            boolean tooMany = false;
            for (int i = 0; i < ids.length; i++) {
                int id = ids[i];
                if (id < 0) {
                    nulls++;
                    continue;
                }
                if (i > 0 && ids[i - 1] == id) {
                    continue;
                }
                String s = strings.dictionary[id];
                if (min == null || s.compareTo((String) min) < 0) {
                    min = s;
                }
                if (max == null || s.compareTo((String) max) > 0) {
                    max = s;
                }
                if (!tooMany) {
                    distinct.add(s);
                    tooMany = distinct.size() > MAX_DISTINCT_VALUES;
                }
            }
            return new ColumnStatistics(min, max, nulls, tooMany ? null : distinct);
        }
        for (int row = from; row < to; row++) {
            Object v = data.get(row);
            if (v == null) {
                nulls++;
            } else {
                if (min == null || Scalars.compare(v, min) < 0) {
                    min = v;
                }
                if (max == null || Scalars.compare(v, max) > 0) {
                    max = v;
                }
            }
        }
        return ColumnStatistics.of(min, max, nulls);
    }

    ColumnData data(int column) {
        return columns[column];
    }

    private Object typed(int column, int row, ColumnType type) {
        checkType(column, type);
        Object value = get(column, row);
        if (value == null) {
            throw new IllegalStateException("Column '" + schema.columns().get(column).name() + "' is NULL at row "
                    + row);
        }
        return value;
    }

    private void checkType(int column, ColumnType type) {
        Column c = schema.columns().get(column);
        if (c.type() != type) {
            throw new IllegalArgumentException("Column '" + c.name() + "' is " + c.type() + ", not " + type);
        }
    }

    private void checkRow(int row) {
        if (row < 0 || row >= rowCount) {
            throw new IndexOutOfBoundsException("Row " + row + " is outside a table of " + rowCount + " rows");
        }
    }

    @Override
    public String toString() {
        return "ColumnarTable[" + rowCount + " rows; " + schema.describeColumns() + "]";
    }

    /**
     * Appends rows and builds {@link ColumnarTable}s. {@link #build()} copies, so the builder can keep appending
     * and build again. Not thread-safe.
     *
     * <pre>{@code
     * ColumnarTable.Builder b = ColumnarTable.builder(schema, 1_281_167);
     * for (MetadataRow row : rows) {
     *     b.add(row);
     * }
     * ColumnarTable table = b.build();
     * }</pre>
     */
    public static final class Builder {
        private final MetadataSchema schema;
        private final Appender[] appenders;
        private int rows;

        private Builder(MetadataSchema schema, int capacity) {
            this.schema = requireNonNull(schema, "schema is null");
            this.appenders = new Appender[schema.size()];
            for (int i = 0; i < appenders.length; i++) {
                appenders[i] = switch (schema.columns().get(i).type()) {
                    case STRING -> new StringAppender(capacity);
                    case BIGINT -> new LongAppender(capacity);
                    case DOUBLE -> new DoubleAppender(capacity);
                    case BOOLEAN -> new BooleanAppender(capacity);
                };
            }
        }

        /** Appends {@code row}, which must have this builder's schema. */
        public Builder add(MetadataRow row) {
            requireNonNull(row, "row is null");
            if (row.schema() != schema && !row.schema().equals(schema)) {
                throw new IllegalArgumentException("Row has columns [" + row.schema().describeColumns()
                        + "] but the table has [" + schema.describeColumns() + "]");
            }
            for (int i = 0; i < appenders.length; i++) {
                appenders[i].append(row.get(i), rows);
            }
            rows++;
            return this;
        }

        /**
         * Appends a row given as one value per column in schema order: Long (or Integer), Double, String, Boolean,
         * or null for NULL.
         */
        public Builder add(Object... values) {
            requireNonNull(values, "values is null");
            if (values.length != appenders.length) {
                throw new IllegalArgumentException("Expected " + appenders.length + " values for columns ["
                        + schema.describeColumns() + "] but got " + values.length);
            }
            Object[] checked = new Object[values.length];
            for (int i = 0; i < values.length; i++) {
                checked[i] = coerce(schema.columns().get(i), values[i]);
            }
            for (int i = 0; i < appenders.length; i++) {
                appenders[i].append(checked[i], rows);
            }
            rows++;
            return this;
        }

        /** Rows appended so far. */
        public int rowCount() {
            return rows;
        }

        public ColumnarTable build() {
            ColumnData[] data = new ColumnData[appenders.length];
            for (int i = 0; i < data.length; i++) {
                data[i] = appenders[i].build(rows);
            }
            return new ColumnarTable(schema, rows, data);
        }

        private static Object coerce(Column column, Object value) {
            if (value == null) {
                return null;
            }
            ColumnType type = column.type();
            if (type == ColumnType.BIGINT && (value instanceof Integer || value instanceof Short
                    || value instanceof Byte)) {
                return ((Number) value).longValue();
            }
            if (type == ColumnType.DOUBLE && value instanceof Float f) {
                return f.doubleValue();
            }
            if (!type.javaType().isInstance(value)) {
                throw new IllegalArgumentException("Column '" + column.name() + "' is " + type + " but the value "
                        + value + " is a " + value.getClass().getSimpleName());
            }
            return value;
        }
    }

    private abstract static class Appender {
        /** Null bitmap, allocated at the first NULL. */
        long[] nulls;

        abstract void append(Object value, int row);

        abstract ColumnData build(int rows);

        void markNull(int row, int capacity) {
            if (nulls == null) {
                nulls = new long[(capacity + 63) >>> 6];
            } else if ((row >>> 6) >= nulls.length) {
                nulls = Arrays.copyOf(nulls, Math.max(nulls.length * 2, (row >>> 6) + 1));
            }
            nulls[row >>> 6] |= 1L << row;
        }

        long[] nullsFor(int rows) {
            return nulls == null ? null : Arrays.copyOf(nulls, (rows + 63) >>> 6);
        }

        static int grow(int length, int needed) {
            return Math.max(needed, length + (length >> 1) + 16);
        }
    }

    private static final class StringAppender extends Appender {
        private final Map<String, Integer> index = new HashMap<>();
        private final List<String> dictionary = new ArrayList<>();
        private int[] ids;

        StringAppender(int capacity) {
            ids = new int[capacity];
        }

        @Override
        void append(Object value, int row) {
            if (row >= ids.length) {
                ids = Arrays.copyOf(ids, grow(ids.length, row + 1));
            }
            if (value == null) {
                ids[row] = -1;
                return;
            }
            String s = (String) value;
            Integer id = index.get(s);
            if (id == null) {
                id = dictionary.size();
                index.put(s, id);
                dictionary.add(s);
            }
            ids[row] = id;
        }

        @Override
        ColumnData build(int rows) {
            return new ColumnData.Strings(Arrays.copyOf(ids, rows), dictionary.toArray(new String[0]));
        }
    }

    private static final class LongAppender extends Appender {
        private long[] values;

        LongAppender(int capacity) {
            values = new long[capacity];
        }

        @Override
        void append(Object value, int row) {
            if (row >= values.length) {
                values = Arrays.copyOf(values, grow(values.length, row + 1));
            }
            if (value == null) {
                markNull(row, values.length);
            } else {
                values[row] = (Long) value;
            }
        }

        @Override
        ColumnData build(int rows) {
            return new ColumnData.Longs(Arrays.copyOf(values, rows), nullsFor(rows));
        }
    }

    private static final class DoubleAppender extends Appender {
        private double[] values;

        DoubleAppender(int capacity) {
            values = new double[capacity];
        }

        @Override
        void append(Object value, int row) {
            if (row >= values.length) {
                values = Arrays.copyOf(values, grow(values.length, row + 1));
            }
            if (value == null) {
                markNull(row, values.length);
            } else {
                values[row] = (Double) value;
            }
        }

        @Override
        ColumnData build(int rows) {
            return new ColumnData.Doubles(Arrays.copyOf(values, rows), nullsFor(rows));
        }
    }

    private static final class BooleanAppender extends Appender {
        private boolean[] values;

        BooleanAppender(int capacity) {
            values = new boolean[capacity];
        }

        @Override
        void append(Object value, int row) {
            if (row >= values.length) {
                values = Arrays.copyOf(values, grow(values.length, row + 1));
            }
            if (value == null) {
                markNull(row, values.length);
            } else {
                values[row] = (Boolean) value;
            }
        }

        @Override
        ColumnData build(int rows) {
            return new ColumnData.Booleans(Arrays.copyOf(values, rows), nullsFor(rows));
        }
    }

    /** Builds a table from whole column arrays; see {@link #fromColumns}. */
    public static final class ColumnsBuilder {
        private final MetadataSchema schema;
        private final int rowCount;
        private final ColumnData[] columns;

        private ColumnsBuilder(MetadataSchema schema, int rowCount) {
            this.schema = java.util.Objects.requireNonNull(schema, "schema is null");
            if (rowCount < 0) {
                throw new IllegalArgumentException("rowCount must not be negative but got " + rowCount);
            }
            this.rowCount = rowCount;
            this.columns = new ColumnData[schema.size()];
        }

        /**
         * A STRING column as dictionary ids ({@code -1} for NULL) and the dictionary.
         *
         * @throws IllegalArgumentException if an id is outside the dictionary
         */
        public ColumnsBuilder strings(String column, int[] ids, String[] dictionary) {
            checkLength(column, ids.length);
            for (int i = 0; i < ids.length; i++) {
                if (ids[i] < -1 || ids[i] >= dictionary.length) {
                    throw new IllegalArgumentException("Column '" + column + "' row " + i + " has dictionary id "
                            + ids[i] + " but the dictionary has " + dictionary.length + " values");
                }
            }
            return set(column, ColumnType.STRING, new ColumnData.Strings(ids, dictionary));
        }

        /** A BIGINT column; {@code nulls} marks NULL rows and may be null when there are none. */
        public ColumnsBuilder longs(String column, long[] values, java.util.BitSet nulls) {
            checkLength(column, values.length);
            return set(column, ColumnType.BIGINT, new ColumnData.Longs(values, nullBits(nulls)));
        }

        /** A DOUBLE column; {@code nulls} marks NULL rows and may be null when there are none. */
        public ColumnsBuilder doubles(String column, double[] values, java.util.BitSet nulls) {
            checkLength(column, values.length);
            return set(column, ColumnType.DOUBLE, new ColumnData.Doubles(values, nullBits(nulls)));
        }

        /** A BOOLEAN column; {@code nulls} marks NULL rows and may be null when there are none. */
        public ColumnsBuilder booleans(String column, boolean[] values, java.util.BitSet nulls) {
            checkLength(column, values.length);
            return set(column, ColumnType.BOOLEAN, new ColumnData.Booleans(values, nullBits(nulls)));
        }

        /**
         * The table.
         *
         * @throws IllegalStateException naming the columns not given
         */
        public ColumnarTable build() {
            List<String> missing = new java.util.ArrayList<>();
            for (int i = 0; i < columns.length; i++) {
                if (columns[i] == null) {
                    missing.add(schema.columns().get(i).name());
                }
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("No values given for columns " + missing);
            }
            return new ColumnarTable(schema, rowCount, columns.clone());
        }

        private ColumnsBuilder set(String column, ColumnType type, ColumnData data) {
            Column target = schema.column(column);
            if (target.type() != type) {
                throw new IllegalArgumentException("Column '" + target.name() + "' is " + target.type()
                        + ", not " + type);
            }
            columns[schema.indexOf(column).getAsInt()] = data;
            return this;
        }

        private void checkLength(String column, int length) {
            if (length != rowCount) {
                throw new IllegalArgumentException("Column '" + column + "' has " + length + " values but the table has "
                        + rowCount + " rows");
            }
        }

        private long[] nullBits(java.util.BitSet nulls) {
            if (nulls == null || nulls.isEmpty()) {
                return null;
            }
            // ColumnData reads bit row of word row / 64: size the words to the row count, not to the last set bit.
            return java.util.Arrays.copyOf(nulls.toLongArray(), (rowCount + 63) / 64);
        }
    }
}
