package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One sample's metadata: a value per column of its schema, type-checked on construction. Values may be null
 * (SQL NULL) unless noted by the layout that stores them.
 *
 * <pre>{@code
 * MetadataRow row = MetadataRow.of(MetadataSchema.imageNet(), Map.of(
 *         "filename", "n01440764_10026.JPEG", "label", "tench",
 *         "filesize_bytes", 113_042L, "width", 500L, "height", 375L));
 * long bytes = row.getLong("filesize_bytes");
 * }</pre>
 *
 * @param schema the columns
 * @param values one value per column, in schema order; {@code Integer} values are widened to {@code Long}
 */
public record MetadataRow(MetadataSchema schema, List<Object> values) {

    public MetadataRow {
        requireNonNull(schema, "schema is null");
        requireNonNull(values, "values is null");
        if (values.size() != schema.size()) {
            throw new IllegalArgumentException("Expected " + schema.size() + " values for columns ["
                    + schema.describeColumns() + "] but got " + values.size());
        }
        Object[] checked = new Object[values.size()];
        for (int i = 0; i < checked.length; i++) {
            checked[i] = coerce(schema.columns().get(i), values.get(i));
        }
        // List.copyOf rejects nulls; SQL NULL is a legal metadata value.
        values = Collections.unmodifiableList(Arrays.asList(checked));
    }

    /** A row from a map of column name (or alias) to value; columns missing from the map are null. */
    public static MetadataRow of(MetadataSchema schema, Map<String, ?> valuesByColumn) {
        requireNonNull(valuesByColumn, "valuesByColumn is null");
        List<Object> values = new ArrayList<>(Collections.nCopies(schema.size(), null));
        for (Map.Entry<String, ?> entry : valuesByColumn.entrySet()) {
            int index = schema.indexOf(entry.getKey()).orElseThrow(() -> new IllegalArgumentException(
                    "Unknown column '" + entry.getKey() + "'; known columns: " + schema.describeColumns()));
            values.set(index, entry.getValue());
        }
        return new MetadataRow(schema, values);
    }

    /** The value at column position {@code index}. */
    public Object get(int index) {
        return values.get(index);
    }

    /** The value of the column that {@code column} names. */
    public Object get(String column) {
        return values.get(index(column));
    }

    /** A STRING column's value. */
    public String getString(String column) {
        return (String) typed(column, ColumnType.STRING);
    }

    /** A BIGINT column's value. */
    public long getLong(String column) {
        return (Long) typed(column, ColumnType.BIGINT);
    }

    /** A DOUBLE column's value. */
    public double getDouble(String column) {
        return (Double) typed(column, ColumnType.DOUBLE);
    }

    private Object typed(String column, ColumnType expected) {
        int index = index(column);
        Column c = schema.columns().get(index);
        if (c.type() != expected) {
            throw new IllegalArgumentException("Column '" + c.name() + "' is " + c.type() + ", not " + expected);
        }
        Object value = values.get(index);
        if (value == null) {
            throw new IllegalStateException("Column '" + c.name() + "' is null in this row");
        }
        return value;
    }

    private int index(String column) {
        return schema.indexOf(column).orElseThrow(() -> new IllegalArgumentException(
                "Unknown column '" + column + "'; known columns: " + schema.describeColumns()));
    }

    private static Object coerce(Column column, Object value) {
        if (value == null) {
            return null;
        }
        if (column.type() == ColumnType.BIGINT && (value instanceof Integer || value instanceof Short
                || value instanceof Byte)) {
            return ((Number) value).longValue();
        }
        if (column.type() == ColumnType.DOUBLE && value instanceof Float) {
            return ((Float) value).doubleValue();
        }
        if (!column.type().javaType().isInstance(value)) {
            throw new IllegalArgumentException("Column '" + column.name() + "' is " + column.type()
                    + " but the value " + value + " is a " + value.getClass().getSimpleName());
        }
        return value;
    }
}
