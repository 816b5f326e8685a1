package io.layoutbench.parquet.model;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;

/**
 * One Parquet file as {@code ParquetTableWriter} (parquet-java 1.18) writes it, replayed from value sizes: OPTIONAL
 * metadata columns, optionally a REQUIRED plain blob column last; pages closed by the column store's size check and
 * row groups closed by the record writer's, with the same check schedule; a byte count where the writer would write
 * bytes. {@link #dataSize()} is {@code ParquetWriter.getDataSize()}, which L3's writer compares with its file-size
 * limit before each row.
 *
 * <p>The writer checks sizes after every row when the table has a blob column (the layouts set it so, to keep blob
 * pages near the page size) and on parquet-java's estimated schedule (100 to 10,000 rows apart) otherwise.
 *
 * <p>Not thread-safe.
 */
public final class ParquetFileModel {

    /** Told where each blob page lies, when its row group is written. */
    public interface BlobPageSink {
        /**
         * @param rowGroup the row group's position in the file
         * @param offset   the page's offset in the file (its header's)
         * @param bytes    header and values
         * @param firstRow the dataset row of its first value
         * @param rows     values in the page
         */
        void page(int rowGroup, long offset, long bytes, int firstRow, int rows);
    }

    /** The file once written: its row groups and its end. */
    public record Written(List<RowGroup> rowGroups, ParquetFooterModel footer) {
    }

    /** A written row group: its rows, its offset in the file, and the bytes of each column chunk in file order. */
    public record RowGroup(int firstRow, int rows, long offset, long[] chunkBytes) {
        /** Bytes of the row group: every column chunk. */
        public long bytes() {
            long total = 0;
            for (long b : chunkBytes) {
                total += b;
            }
            return total;
        }

        /** Bytes of the first {@code metadataColumns} column chunks, which lie side by side. */
        public long metadataBytes(int metadataColumns) {
            long total = 0;
            for (int i = 0; i < metadataColumns; i++) {
                total += chunkBytes[i];
            }
            return total;
        }
    }

    private static final int MAGIC = 4;

    private final List<ColumnModel> columns;
    private final IntToLongFunction blobs;
    private final long rowGroupSize;
    private final long pageSize;
    private final int minCheck;
    private final int maxCheck;
    private final BlobPageSink sink;
    private final List<RowGroup> rowGroups = new ArrayList<>();
    private final ParquetFooterModel.Builder footer;
    private long[] blobPages = new long[3 * 64];
    private int blobPagesInGroup;

    private long position = MAGIC;
    private long lastRowGroupEnd;
    private ChunkModel[] chunks;
    private int firstRow = -1;
    private int rowCount;
    private long nextSizeCheck;
    private long nextMemoryCheck;
    private int totalRows;

    private long blobWritten;
    private long blobPageRaw;
    private int blobPageRows;
    private int blobPageFirstRow;

    /**
     * @param columns      the non-blob columns in file order
     * @param columnNameBytes sum of the lengths of all column names, for the footer
     * @param blobs        each row's blob size, or null for a table without a blob column
     * @param rowGroupSize target row-group size
     * @param pageSize     target page size
     * @param sink         told of every blob page, or null
     */
    public ParquetFileModel(List<ColumnModel> columns, int columnNameBytes, IntToLongFunction blobs, long rowGroupSize,
            long pageSize, BlobPageSink sink) {
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        this.footer = new ParquetFooterModel.Builder(columns.size() + (blobs != null ? 1 : 0), columnNameBytes);
        this.blobs = blobs;
        this.rowGroupSize = rowGroupSize;
        this.pageSize = pageSize;
        this.minCheck = blobs != null ? 1 : 100;
        this.maxCheck = blobs != null ? 1 : 10_000;
        this.sink = sink;
        this.nextMemoryCheck = minCheck;
        startRowGroup();
    }

    private void startRowGroup() {
        chunks = new ChunkModel[columns.size()];
        for (int i = 0; i < chunks.length; i++) {
            chunks[i] = new ChunkModel(columns.get(i));
        }
        rowCount = 0;
        firstRow = -1;
        nextSizeCheck = minCheck;
        blobWritten = 0;
        blobPageRaw = 0;
        blobPageRows = 0;
        blobPagesInGroup = 0;
    }

    /** Appends dataset row {@code row}. */
    public void write(int row) {
        if (firstRow < 0) {
            firstRow = row;
        }
        for (ChunkModel chunk : chunks) {
            chunk.add(row);
        }
        if (blobs != null) {
            if (blobPageRows == 0) {
                blobPageFirstRow = rowCount;
            }
            blobPageRaw += 4 + blobs.applyAsLong(row);
            blobPageRows++;
        }
        rowCount++;
        totalRows++;
        if (rowCount >= nextSizeCheck) {
            sizeCheck();
        }
        checkRowGroupSize();
    }

    /** ColumnWriteStoreBase.sizeCheck: close the pages that are full, and schedule the next check. */
    private void sizeCheck() {
        long minRowsToWait = Long.MAX_VALUE;
        long nextRowCountCheck = rowCount + ParquetSizes.PAGE_ROW_COUNT_LIMIT;
        int n = chunks.length + (blobs != null ? 1 : 0);
        for (int c = 0; c < n; c++) {
            boolean blob = c == chunks.length;
            long used = blob ? blobPageRaw : chunks[c].pageBuffered();
            long rows = blob ? blobPageRows : chunks[c].pageRows();
            long remaining = pageSize - used;
            if (rows > 0 && ParquetSizes.pageFull(used, rows, pageSize)) {
                if (blob) {
                    writeBlobPage();
                } else {
                    chunks[c].writePage();
                }
                remaining = pageSize;
            } else {
                nextRowCountCheck = Math.min(nextRowCountCheck, rowCount - rows + ParquetSizes.PAGE_ROW_COUNT_LIMIT);
            }
            long rowsToFill = used == 0 ? maxCheck : rows * remaining / used;
            minRowsToWait = Math.min(minRowsToWait, rowsToFill);
        }
        if (minRowsToWait == Long.MAX_VALUE) {
            minRowsToWait = minCheck;
        }
        nextSizeCheck = rowCount + Math.min(Math.max(minRowsToWait / 2, minCheck), maxCheck);
        if (nextRowCountCheck < nextSizeCheck) {
            nextSizeCheck = nextRowCountCheck;
        }
    }

    /** InternalParquetRecordWriter.checkBlockSizeReached. */
    private void checkRowGroupSize() {
        if (rowCount < nextMemoryCheck) {
            return;
        }
        long memory = buffered();
        long recordSize = memory / rowCount;
        if (memory > rowGroupSize - 2 * recordSize) {
            flushRowGroup();
            nextMemoryCheck = minCheck;
        } else if (recordSize == 0) {
            nextMemoryCheck = rowCount + maxCheck;
        } else {
            nextMemoryCheck = Math.min(Math.max(minCheck, (rowCount + (long) (rowGroupSize / (float) recordSize)) / 2),
                    rowCount + maxCheck);
        }
    }

    private void writeBlobPage() {
        long bytes = ParquetSizes.dataPageHeader(blobPageRaw, blobPageRows) + blobPageRaw;
        if (3 * blobPagesInGroup + 3 > blobPages.length) {
            blobPages = java.util.Arrays.copyOf(blobPages, blobPages.length * 2);
        }
        blobPages[3 * blobPagesInGroup] = blobWritten;
        blobPages[3 * blobPagesInGroup + 1] = bytes;
        blobPages[3 * blobPagesInGroup + 2] = blobPageFirstRow;
        blobPagesInGroup++;
        blobWritten += bytes;
        blobPageRaw = 0;
        blobPageRows = 0;
    }

    private long buffered() {
        long total = blobWritten + blobPageRaw;
        for (ChunkModel chunk : chunks) {
            total += chunk.buffered();
        }
        return total;
    }

    private void flushRowGroup() {
        long[] bytes = new long[chunks.length + (blobs != null ? 1 : 0)];
        for (int c = 0; c < chunks.length; c++) {
            bytes[c] = chunks[c].finish();
        }
        if (blobs != null) {
            if (blobPageRows > 0) {
                writeBlobPage();
            }
            bytes[chunks.length] = blobWritten;
        }
        RowGroup group = new RowGroup(firstRow, rowCount, position, bytes);
        int[] metadataPages = new int[chunks.length];
        long[] statistics = new long[chunks.length];
        for (int c = 0; c < chunks.length; c++) {
            metadataPages[c] = chunks[c].pages();
            statistics[c] = chunks[c].statisticsBytes();
        }
        long[] pages = null;
        if (blobs != null) {
            long blobStart = position + group.metadataBytes(chunks.length);
            pages = java.util.Arrays.copyOf(blobPages, 3 * blobPagesInGroup);
            for (int p = 0; p < blobPagesInGroup; p++) {
                pages[3 * p] += blobStart;
                if (sink != null) {
                    int rows = (int) ((p + 1 < blobPagesInGroup ? pages[3 * p + 5] : rowCount) - pages[3 * p + 2]);
                    sink.page(rowGroups.size(), pages[3 * p], pages[3 * p + 1], firstRow + (int) pages[3 * p + 2],
                            rows);
                }
            }
        }
        footer.rowGroup(metadataPages, statistics, pages);
        rowGroups.add(group);
        position += group.bytes();
        lastRowGroupEnd = position;
        startRowGroup();
    }

    /** {@code ParquetWriter.getDataSize()}: bytes of the row groups written and of the one being buffered. */
    public long dataSize() {
        return lastRowGroupEnd + buffered();
    }

    /** Rows written. */
    public int rowCount() {
        return totalRows;
    }

    /** Writes the last row group, the page indexes and the footer. */
    public Written close() {
        if (rowCount > 0) {
            flushRowGroup();
        }
        return new Written(List.copyOf(rowGroups), footer.build(position));
    }
}
