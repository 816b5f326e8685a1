package io.layoutbench.api.dataset;

/**
 * The value types a metadata column can have. Integers of any width are {@link #BIGINT} ({@code long}); floating
 * point values are {@link #DOUBLE}; text is {@link #STRING}.
 *
 * <pre>{@code
 * Column width = new Column("width", ColumnType.BIGINT);
 * }</pre>
 */
public enum ColumnType {
    /** UTF-8 text, held as {@link String}. */
    STRING(String.class),
    /** 64-bit signed integer, held as {@link Long}. */
    BIGINT(Long.class),
    /** 64-bit IEEE 754 floating point, held as {@link Double}. */
    DOUBLE(Double.class),
    /** true or false, held as {@link Boolean}. */
    BOOLEAN(Boolean.class);

    private final Class<?> javaType;

    ColumnType(Class<?> javaType) {
        this.javaType = javaType;
    }

    /** The Java class that holds values of this type. */
    public Class<?> javaType() {
        return javaType;
    }

    /** Whether the type takes part in arithmetic and numeric comparison. */
    public boolean isNumeric() {
        return this == BIGINT || this == DOUBLE;
    }
}
