package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.ColumnVectorBuilder;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.StringDictionary;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A metadata table held column by column ({@link ColumnVector}s), for fast bulk evaluation with
 * {@link BoundPredicate#select}. STRING columns are dictionary-encoded ({@code int} id per row plus each distinct
 * string once, as UTF-8 in a {@link StringDictionary}), BIGINT, DOUBLE and BOOLEAN columns are primitive arrays, and
 * a null bitmap exists only for columns that hold NULLs. The paper's 1,281,167-row ImageNet table costs about 4
 * bytes per row per string column plus the distinct strings, and 8 bytes per row per number column. A column whose
 * values are all distinct (such as {@code filename}) is stored the same way; its dictionary is then simply as long
 * as the table.
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
    private final ColumnVector[] columns;

    private ColumnarTable(MetadataSchema schema, int rowCount, ColumnVector[] columns) {
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
     * A table of whole columns, one per column of {@code schema} in its order, each of the column's type and all
     * of one length, without copying them: for readers that already hold columns (a Parquet metadata table of
     * 1.28 M rows loads without a per-row object). The vectors' arrays are owned by the table afterwards: do not
     * change them.
     *
     * <pre>{@code
     * ColumnarTable table = ColumnarTable.fromColumns(MetadataSchema.imageNet(), List.of(
     *         new ColumnVector.Strings(new int[] {0, 1}, StringDictionary.of("a.jpg", "b.jpg")),
     *         new ColumnVector.Strings(new int[] {0, 0}, StringDictionary.of("tench")),
     *         new ColumnVector.Longs(new long[] {10, 20}),
     *         new ColumnVector.Longs(new long[] {5, 6}),
     *         new ColumnVector.Longs(new long[] {4, 3})));
     * }</pre>
     *
     * @throws IllegalArgumentException naming the column whose type or length does not fit
     */
    public static ColumnarTable fromColumns(MetadataSchema schema, List<ColumnVector> columns) {
        requireNonNull(schema, "schema is null");
        List<ColumnVector> given = List.copyOf(requireNonNull(columns, "columns is null"));
        if (given.size() != schema.size()) {
            throw new IllegalArgumentException("Expected " + schema.size() + " columns for ["
                    + schema.describeColumns() + "] but got " + given.size());
        }
        int rowCount = given.isEmpty() ? 0 : given.get(0).size();
        for (int i = 0; i < given.size(); i++) {
            Column column = schema.columns().get(i);
            ColumnVector vector = given.get(i);
            if (vector.type() != column.type()) {
                throw new IllegalArgumentException("Column '" + column.name() + "' is " + column.type()
                        + " but its values are " + vector.type());
            }
            if (vector.size() != rowCount) {
                throw new IllegalArgumentException("Column '" + column.name() + "' has " + vector.size()
                        + " values but column '" + schema.columns().get(0).name() + "' has " + rowCount);
            }
        }
        return new ColumnarTable(schema, rowCount, given.toArray(new ColumnVector[0]));
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
        for (ColumnVector column : columns) {
            values.add(column.get(row));
        }
        return new MetadataRow(schema, values);
    }

    /** The values of the column at position {@code column}; its arrays are shared: do not change them. */
    public ColumnVector column(int column) {
        return columns[column];
    }

    /** Number of distinct non-null strings of a STRING column. */
    public int dictionarySize(int column) {
        checkType(column, ColumnType.STRING);
        return ((ColumnVector.Strings) columns[column]).dictionary().size();
    }

    /** Approximate heap footprint of the column data (arrays and dictionaries), in bytes. */
    public long estimatedSizeBytes() {
        long bytes = 0;
        for (ColumnVector column : columns) {
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

    private static ColumnStatistics columnStatistics(ColumnVector data, int from, int to) {
        long nulls = 0;
        Object min = null;
        Object max = null;
        if (data instanceof ColumnVector.Strings strings) {
            // Sorting a copy of the ids finds the distinct values without a dictionary-sized scratch array,
            // which matters for an all-distinct column split into many small groups.
            int[] ids = Arrays.copyOfRange(strings.ids(), from, to);
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
                String s = strings.dictionary().get(id);
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
     * Appends rows and builds {@link ColumnarTable}s: one {@link ColumnVectorBuilder} per column. {@link #build()}
     * copies, so the builder can keep appending and build again. Not thread-safe.
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
        private final ColumnVectorBuilder[] columns;
        private int rows;

        private Builder(MetadataSchema schema, int capacity) {
            this.schema = requireNonNull(schema, "schema is null");
            this.columns = new ColumnVectorBuilder[schema.size()];
            for (int i = 0; i < columns.length; i++) {
                columns[i] = ColumnVectorBuilder.of(schema.columns().get(i).type(), capacity);
            }
        }

        /** Appends {@code row}, which must have this builder's schema. */
        public Builder add(MetadataRow row) {
            requireNonNull(row, "row is null");
            if (row.schema() != schema && !row.schema().equals(schema)) {
                throw new IllegalArgumentException("Row has columns [" + row.schema().describeColumns()
                        + "] but the table has [" + schema.describeColumns() + "]");
            }
            for (int i = 0; i < columns.length; i++) {
                columns[i].appendObject(row.get(i));
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
            if (values.length != columns.length) {
                throw new IllegalArgumentException("Expected " + columns.length + " values for columns ["
                        + schema.describeColumns() + "] but got " + values.length);
            }
            Object[] checked = new Object[values.length];
            for (int i = 0; i < values.length; i++) {
                checked[i] = coerce(schema.columns().get(i), values[i]);
            }
            for (int i = 0; i < columns.length; i++) {
                columns[i].appendObject(checked[i]);
            }
            rows++;
            return this;
        }

        /** Rows appended so far. */
        public int rowCount() {
            return rows;
        }

        public ColumnarTable build() {
            ColumnVector[] data = new ColumnVector[columns.length];
            for (int i = 0; i < data.length; i++) {
                data[i] = columns[i].build();
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
}
