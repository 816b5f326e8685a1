package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One row group of a Parquet object: which rows it holds, where its bytes lie, and its column chunks.
 *
 * <pre>{@code
 * for (RowGroupInfo rowGroup : footer.rowGroups()) {
 *     ColumnStats labels = rowGroup.column("label").stats().orElseThrow();
 *     // skip the row group when 'streetcar' is outside [labels.min(), labels.max()]
 * }
 * }</pre>
 *
 * @param index     position among the file's row groups
 * @param firstRow  index in the file of the row group's first row
 * @param rowCount  number of rows
 * @param byteRange the span of its column chunks
 * @param columns   its column chunks, in schema order
 */
public record RowGroupInfo(int index, long firstRow, long rowCount, ByteRange byteRange,
        List<ColumnChunkInfo> columns) {

    public RowGroupInfo {
        requireNonNull(byteRange, "byteRange is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        if (index < 0 || firstRow < 0 || rowCount < 0) {
            throw new IllegalArgumentException("index, firstRow and rowCount must be >= 0, got " + index + ", "
                    + firstRow + ", " + rowCount);
        }
    }

    /** The chunk of the column named {@code name} (ignoring case). */
    public ColumnChunkInfo column(String name) {
        for (ColumnChunkInfo chunk : columns) {
            if (chunk.column().equalsIgnoreCase(name)) {
                return chunk;
            }
        }
        throw new IllegalArgumentException("Row group " + index + " has no column '" + name + "'; its columns: "
                + columns.stream().map(ColumnChunkInfo::column).collect(Collectors.joining(", ")));
    }

    /** Whether row {@code fileRow} (an index in the file) is in this row group. */
    public boolean containsRow(long fileRow) {
        return fileRow >= firstRow && fileRow < firstRow + rowCount;
    }
}
