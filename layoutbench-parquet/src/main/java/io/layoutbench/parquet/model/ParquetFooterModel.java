package io.layoutbench.parquet.model;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.RangeCoalescer;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.parquet.FetchOptions;

import java.util.ArrayList;
import java.util.List;

/**
 * The end of a modelled Parquet file — page indexes, then the footer — and the requests a client sends to read them
 * and the metadata columns, as {@code BackendInputFile} and {@code ParquetObject} send them: the last
 * {@link FetchOptions#DEFAULT_TAIL_SIZE} bytes (or a tail size the caller gives) in one request, the rest of a
 * longer footer in a second, page indexes outside that tail in one more, and column chunks merged when at most 128 KiB apart (up to 16 MiB).
 *
 * <p>The page-index and footer sizes are estimates (Thrift structures whose size depends on statistics values this
 * model does not track), calibrated against files the layouts wrote; they decide only whether a footer or the page
 * indexes need a request of their own, and the bytes of that request.
 *
 * @param dataEnd        where the page indexes start (after the last row group)
 * @param pageIndexBytes bytes of column and offset indexes
 * @param footerBytes    bytes of the Thrift footer
 */
public record ParquetFooterModel(long dataEnd, long pageIndexBytes, long footerBytes) {

    /** Per footer, whatever the row groups: schema, key-value metadata, created-by, column orders. */
    private static final int FOOTER_BASE = 60;
    /** Per column in the schema and column orders. */
    private static final int FOOTER_PER_SCHEMA_COLUMN = 12;
    /** Per row group beyond its columns. */
    private static final int FOOTER_PER_ROW_GROUP = 24;
    /** Per column chunk: offsets, sizes, encodings, statistics of BIGINT size, index locations. */
    private static final int FOOTER_PER_CHUNK = 85;
    /** Per column index of a metadata column chunk, beyond its pages. */
    private static final int COLUMN_INDEX_BASE = 8;
    /** Per offset index, beyond its pages. */
    private static final int OFFSET_INDEX_BASE = 4;

    /** Bytes of the file: magic, row groups, page indexes, footer, footer length and magic. */
    public long fileBytes() {
        return dataEnd + pageIndexBytes + footerBytes + 8;
    }

    /** Where the page indexes lie. */
    public ByteRange pageIndexRange() {
        return ByteRange.of(dataEnd, pageIndexBytes);
    }

    /** The tail the first footer read fetches. */
    public ByteRange tail() {
        return tail(FetchOptions.DEFAULT_TAIL_SIZE);
    }

    /** The tail a first footer read of {@code tailSize} bytes fetches. */
    public ByteRange tail(long tailSize) {
        long length = fileBytes();
        return ByteRange.between(Math.max(0, length - tailSize), length);
    }

    /** Bytes from where the page indexes (or, without them, the footer) start to the end of the file. */
    public long metadataTailBytes() {
        return fileBytes() - dataEnd;
    }

    /** Whether the tail holds the page indexes (then reading them costs no request). */
    public boolean tailHoldsPageIndexes() {
        return tailHoldsPageIndexes(FetchOptions.DEFAULT_TAIL_SIZE);
    }

    /** Whether a tail of {@code tailSize} bytes holds the page indexes. */
    public boolean tailHoldsPageIndexes(long tailSize) {
        return pageIndexBytes == 0 || dataEnd >= tail(tailSize).offset();
    }

    /** The requests reading the footer: the tail, and the rest of a footer longer than the tail. */
    public List<PlannedRequest> footerRequests(String key) {
        return footerRequests(key, FetchOptions.DEFAULT_TAIL_SIZE);
    }

    /** The requests reading the footer with a first read of {@code tailSize} bytes. */
    public List<PlannedRequest> footerRequests(String key, long tailSize) {
        List<PlannedRequest> requests = new ArrayList<>(2);
        ByteRange tail = tail(tailSize);
        requests.add(new PlannedRequest(RequestKind.RANGE_GET, key, tail));
        long footerStart = fileBytes() - 8 - footerBytes;
        if (footerStart < tail.offset()) {
            requests.add(new PlannedRequest(RequestKind.RANGE_GET, key, ByteRange.between(footerStart, tail.offset())));
        }
        return requests;
    }

    /** The request reading the page indexes, when the tail does not hold them. */
    public List<PlannedRequest> pageIndexRequests(String key) {
        return pageIndexRequests(key, FetchOptions.DEFAULT_TAIL_SIZE);
    }

    /** The request reading the page indexes, when a tail of {@code tailSize} bytes does not hold them. */
    public List<PlannedRequest> pageIndexRequests(String key, long tailSize) {
        return tailHoldsPageIndexes(tailSize) ? List.of()
                : List.of(new PlannedRequest(RequestKind.RANGE_GET, key, pageIndexRange()));
    }

    /**
     * The requests reading {@code chunks} (of one row group), merged as {@code BackendInputFile.readAllAsync}
     * merges them; chunks inside {@code kept} (a tail the reader holds, or null) cost nothing.
     */
    public static List<PlannedRequest> chunkRequests(String key, List<ByteRange> chunks, ByteRange kept) {
        List<ByteRange> remote = new ArrayList<>(chunks.size());
        for (ByteRange chunk : chunks) {
            if (kept == null || !kept.contains(chunk)) {
                remote.add(chunk);
            }
        }
        List<PlannedRequest> requests = new ArrayList<>();
        for (RangeCoalescer.Merged merged : RangeCoalescer.coalesce(remote, FetchOptions.DEFAULT_MERGE_GAP,
                FetchOptions.DEFAULT_MAX_MERGED_SIZE)) {
            requests.add(new PlannedRequest(RequestKind.RANGE_GET, key, merged.range()));
        }
        return requests;
    }

    /** Accumulates the estimate while row groups are added. */
    static final class Builder {
        private final int columns;
        private long pageIndexBytes;
        private long footerBytes;

        /**
         * @param columns        columns of the file, blob included
         * @param nameBytes      sum of the column names' lengths
         */
        Builder(int columns, int nameBytes) {
            this.columns = columns;
            this.footerBytes = FOOTER_BASE + (long) columns * FOOTER_PER_SCHEMA_COLUMN + nameBytes;
        }

        /**
         * Adds a row group.
         *
         * @param metadataPages    data pages of each metadata column chunk
         * @param statisticsBytes  bytes of each metadata chunk's min and max values together
         * @param blobPages        the blob chunk's pages as (offset, size, first row) triples, or null for none
         */
        Builder rowGroup(int[] metadataPages, long[] statisticsBytes, long[] blobPages) {
            footerBytes += FOOTER_PER_ROW_GROUP + (long) columns * FOOTER_PER_CHUNK;
            for (int c = 0; c < metadataPages.length; c++) {
                footerBytes += statisticsBytes[c] + 4;
                // Column index: per page a null flag, min and max, a null count and a definition-level histogram.
                pageIndexBytes += COLUMN_INDEX_BASE + (long) metadataPages[c] * (statisticsBytes[c] + 6);
                // Offset index: per page its offset, size and first row.
                pageIndexBytes += OFFSET_INDEX_BASE + (long) metadataPages[c] * 10;
            }
            if (blobPages != null) {
                pageIndexBytes += OFFSET_INDEX_BASE + ParquetSizes.varint(blobPages.length / 3);
                for (int i = 0; i < blobPages.length; i += 3) {
                    pageIndexBytes += 4 + ParquetSizes.zigzag(blobPages[i]) + ParquetSizes.zigzag(blobPages[i + 1])
                            + ParquetSizes.zigzag(blobPages[i + 2]);
                }
            }
            return this;
        }

        ParquetFooterModel build(long dataEnd) {
            return new ParquetFooterModel(dataEnd, pageIndexBytes, footerBytes);
        }
    }
}
