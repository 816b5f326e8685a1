package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

import java.util.Optional;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Where one column's values of one row group lie, and what the footer says about them.
 *
 * <pre>{@code
 * ColumnChunkInfo blobs = footer.rowGroups().get(3).column("image_bytes");
 * ByteBuffer chunk = file.read(blobs.byteRange());    // dictionary page (if any) and all data pages
 * }</pre>
 *
 * @param column           the column's physical name
 * @param columnIndex      the column's position in the schema
 * @param byteRange        the chunk's bytes: its dictionary page, if any, and all its data pages
 * @param dataPageOffset   offset of the first data page
 * @param hasDictionaryPage whether the chunk starts with a dictionary page
 * @param valueCount       number of values (rows, for a flat column), nulls included
 * @param codec            compression of the pages
 * @param uncompressedSize the pages' size before compression (headers included), as the footer says
 * @param decodedSize      the values' size once decoded, PLAIN-encoded: the width times the value count for
 *                         fixed-width types; for BYTE_ARRAY 4 bytes per value plus the footer's unencoded byte count
 *                         (its size statistics), or the uncompressed size when the footer has none
 * @param stats            min, max and null count of the chunk, when written
 * @param offsetIndexRange where the chunk's offset index (page locations) lies, when written
 * @param columnIndexRange where the chunk's column index (page min/max) lies, when written
 */
public record ColumnChunkInfo(
        String column,
        int columnIndex,
        ByteRange byteRange,
        long dataPageOffset,
        boolean hasDictionaryPage,
        long valueCount,
        CompressionCodecName codec,
        long uncompressedSize,
        long decodedSize,
        Optional<ColumnStats> stats,
        Optional<ByteRange> offsetIndexRange,
        Optional<ByteRange> columnIndexRange) {

    public ColumnChunkInfo {
        requireNonNull(column, "column is null");
        requireNonNull(byteRange, "byteRange is null");
        requireNonNull(codec, "codec is null");
        requireNonNull(stats, "stats is null");
        requireNonNull(offsetIndexRange, "offsetIndexRange is null");
        requireNonNull(columnIndexRange, "columnIndexRange is null");
        if (uncompressedSize < 0 || decodedSize < 0) {
            throw new IllegalArgumentException("Column chunk " + column + " has a negative size: uncompressed "
                    + uncompressedSize + ", decoded " + decodedSize);
        }
    }

    /**
     * How many times larger the decoded values are than the stored chunk: encoding (dictionaries, run lengths) and
     * compression together, as the Fusion paper's compressibility (TPC-H lineitem's chunks reach 63); 1 for an
     * empty chunk.
     */
    public double compressibility() {
        return byteRange.length() == 0 ? 1.0 : (double) decodedSize / byteRange.length();
    }
}
