package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

import java.util.Optional;

/**
 * One data page of a column chunk, from the page indexes: where it lies, which rows it holds, and (from the column
 * index, when written) the bounds of its values.
 *
 * <pre>{@code
 * PageInfo page = pageIndex.pages().get(pageIndex.pageOf(row));
 * ByteBuffer bytes = file.read(page.byteRange());    // page header and values
 * }</pre>
 *
 * @param index          position among the chunk's data pages
 * @param offset         offset in the object of the page header
 * @param compressedSize bytes of header and (compressed) values
 * @param firstRow       index within the row group of the page's first row
 * @param rowCount       number of rows in the page
 * @param stats          bounds and null count from the column index, when it was written
 */
public record PageInfo(int index, long offset, int compressedSize, long firstRow, long rowCount,
        Optional<ColumnStats> stats) {

    public PageInfo {
        requireNonNull(stats, "stats is null");
        if (index < 0 || offset < 0 || compressedSize < 0 || firstRow < 0 || rowCount < 0) {
            throw new IllegalArgumentException("Page fields must be >= 0, got index " + index + ", offset " + offset
                    + ", size " + compressedSize + ", first row " + firstRow + ", rows " + rowCount);
        }
    }

    /** The page's bytes in the object: header and values. */
    public ByteRange byteRange() {
        return ByteRange.of(offset, compressedSize);
    }

    /** Whether row {@code rowInGroup} is in this page. */
    public boolean containsRow(long rowInGroup) {
        return rowInGroup >= firstRow && rowInGroup < firstRow + rowCount;
    }
}
