package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

import java.util.Objects;
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
 * <p>A dataset's footers stay on the heap while it is open, one of these per column per row group (a quarter of a
 * million for the fac layout at medium), so it keeps its ranges as primitives and builds the {@link ByteRange}s and
 * {@link Optional}s its accessors return on demand instead of holding three ranges and three optionals per chunk.
 * It compares, hashes and prints as the record it was.
 */
public final class ColumnChunkInfo {

    private static final long ABSENT = -1;

    private final String column;
    private final int columnIndex;
    private final long chunkOffset;
    private final long chunkLength;
    private final long dataPageOffset;
    private final boolean hasDictionaryPage;
    private final long valueCount;
    private final CompressionCodecName codec;
    private final long uncompressedSize;
    private final long decodedSize;
    private final ColumnStats stats;
    private final long offsetIndexOffset;
    private final long offsetIndexLength;
    private final long columnIndexOffset;
    private final long columnIndexLength;

    /**
     * @param column           the column's physical name
     * @param columnIndex      the column's position in the schema
     * @param byteRange        the chunk's bytes: its dictionary page, if any, and all its data pages
     * @param dataPageOffset   offset of the first data page
     * @param hasDictionaryPage whether the chunk starts with a dictionary page
     * @param valueCount       number of values (rows, for a flat column), nulls included
     * @param codec            compression of the pages
     * @param uncompressedSize the pages' size before compression (headers included), as the footer says
     * @param decodedSize      the values' size once decoded, PLAIN-encoded: the width times the value count for
     *                         fixed-width types; for BYTE_ARRAY 4 bytes per value plus the footer's unencoded byte
     *                         count (its size statistics), or the uncompressed size when the footer has none
     * @param stats            min, max and null count of the chunk, when written
     * @param offsetIndexRange where the chunk's offset index (page locations) lies, when written
     * @param columnIndexRange where the chunk's column index (page min/max) lies, when written
     */
    public ColumnChunkInfo(String column, int columnIndex, ByteRange byteRange, long dataPageOffset,
            boolean hasDictionaryPage, long valueCount, CompressionCodecName codec, long uncompressedSize,
            long decodedSize, Optional<ColumnStats> stats, Optional<ByteRange> offsetIndexRange,
            Optional<ByteRange> columnIndexRange) {
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
        this.column = column;
        this.columnIndex = columnIndex;
        this.chunkOffset = byteRange.offset();
        this.chunkLength = byteRange.length();
        this.dataPageOffset = dataPageOffset;
        this.hasDictionaryPage = hasDictionaryPage;
        this.valueCount = valueCount;
        this.codec = codec;
        this.uncompressedSize = uncompressedSize;
        this.decodedSize = decodedSize;
        this.stats = stats.orElse(null);
        this.offsetIndexOffset = offsetIndexRange.map(ByteRange::offset).orElse(ABSENT);
        this.offsetIndexLength = offsetIndexRange.map(ByteRange::length).orElse(ABSENT);
        this.columnIndexOffset = columnIndexRange.map(ByteRange::offset).orElse(ABSENT);
        this.columnIndexLength = columnIndexRange.map(ByteRange::length).orElse(ABSENT);
    }

    public String column() {
        return column;
    }

    public int columnIndex() {
        return columnIndex;
    }

    public ByteRange byteRange() {
        return ByteRange.of(chunkOffset, chunkLength);
    }

    public long dataPageOffset() {
        return dataPageOffset;
    }

    public boolean hasDictionaryPage() {
        return hasDictionaryPage;
    }

    public long valueCount() {
        return valueCount;
    }

    public CompressionCodecName codec() {
        return codec;
    }

    public long uncompressedSize() {
        return uncompressedSize;
    }

    public long decodedSize() {
        return decodedSize;
    }

    public Optional<ColumnStats> stats() {
        return Optional.ofNullable(stats);
    }

    public Optional<ByteRange> offsetIndexRange() {
        return offsetIndexOffset == ABSENT ? Optional.empty()
                : Optional.of(ByteRange.of(offsetIndexOffset, offsetIndexLength));
    }

    public Optional<ByteRange> columnIndexRange() {
        return columnIndexOffset == ABSENT ? Optional.empty()
                : Optional.of(ByteRange.of(columnIndexOffset, columnIndexLength));
    }

    /**
     * How many times larger the decoded values are than the stored chunk: encoding (dictionaries, run lengths) and
     * compression together, as the Fusion paper's compressibility (TPC-H lineitem's chunks reach 63); 1 for an
     * empty chunk.
     */
    public double compressibility() {
        return chunkLength == 0 ? 1.0 : (double) decodedSize / chunkLength;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ColumnChunkInfo that && column.equals(that.column) && columnIndex == that.columnIndex
                && chunkOffset == that.chunkOffset && chunkLength == that.chunkLength
                && dataPageOffset == that.dataPageOffset && hasDictionaryPage == that.hasDictionaryPage
                && valueCount == that.valueCount && codec == that.codec && uncompressedSize == that.uncompressedSize
                && decodedSize == that.decodedSize && Objects.equals(stats, that.stats)
                && offsetIndexOffset == that.offsetIndexOffset && offsetIndexLength == that.offsetIndexLength
                && columnIndexOffset == that.columnIndexOffset && columnIndexLength == that.columnIndexLength;
    }

    @Override
    public int hashCode() {
        return Objects.hash(column, columnIndex, chunkOffset, chunkLength, dataPageOffset,
                hasDictionaryPage, valueCount, codec, uncompressedSize, decodedSize, stats, offsetIndexOffset,
                offsetIndexLength, columnIndexOffset, columnIndexLength);
    }

    @Override
    public String toString() {
        return "ColumnChunkInfo[column=" + column + ", columnIndex=" + columnIndex + ", byteRange=" + byteRange()
                + ", dataPageOffset=" + dataPageOffset + ", hasDictionaryPage=" + hasDictionaryPage + ", valueCount="
                + valueCount + ", codec=" + codec + ", uncompressedSize=" + uncompressedSize + ", decodedSize="
                + decodedSize + ", stats=" + stats() + ", offsetIndexRange=" + offsetIndexRange()
                + ", columnIndexRange=" + columnIndexRange() + "]";
    }
}
