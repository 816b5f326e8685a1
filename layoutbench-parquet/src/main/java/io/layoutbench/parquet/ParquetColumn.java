package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;

import java.util.Optional;

import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * A column of a flat Parquet table as its footer describes it.
 *
 * <pre>{@code
 * ParquetColumn label = footer.column("human_label");
 * assert label.type().orElseThrow() == ColumnType.STRING;
 * }</pre>
 *
 * @param name         the column's physical name
 * @param index        its position in the file (and in each row group's column chunks)
 * @param physicalType its Parquet physical type
 * @param type         the metadata type its values read as: INT32 and INT64 as BIGINT, FLOAT and DOUBLE as
 *                     DOUBLE, BOOLEAN, and UTF-8 annotated BINARY as STRING; empty for other columns, such as a
 *                     blob column of raw BINARY
 * @param required     whether the column is REQUIRED (has no nulls and no definition levels)
 */
public record ParquetColumn(
        String name, int index, PrimitiveTypeName physicalType, Optional<ColumnType> type, boolean required) {

    public ParquetColumn {
        requireNonNull(name, "name is null");
        requireNonNull(physicalType, "physicalType is null");
        requireNonNull(type, "type is null");
        if (index < 0) {
            throw new IllegalArgumentException("index must be >= 0, got " + index);
        }
    }

    /** Whether this is a column of raw bytes (BINARY with no string annotation): a blob column. */
    public boolean isBlob() {
        return physicalType == PrimitiveTypeName.BINARY && type.isEmpty();
    }
}
