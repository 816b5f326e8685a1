package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * How {@link ParquetTableWriter} lays out a file: row-group size, page size, dictionary page size, and key-value
 * metadata stored in the footer. Column and offset indexes are always written (the blob column gets an offset
 * index only), and pages are uncompressed.
 *
 * <pre>{@code
 * ParquetWriteOptions options = ParquetWriteOptions.defaults()
 *         .withRowGroupSize(8 << 20)          // smaller row groups prune better
 *         .withPageSize(256 << 10);           // and smaller pages fetch fewer unneeded blob bytes
 * }</pre>
 *
 * @param rowGroupSize       target bytes per row group (as buffered in memory before it is written); the writer
 *                           holds at most about one row group in memory. A row group holds at least one row, so a
 *                           blob over three times this size makes parquet-java log "Too much memory used" (harmless)
 * @param pageSize           target bytes per page; pages are checked after every row when there is a blob column,
 *                           so a blob page holds about this many bytes (at least one blob)
 * @param dictionaryPageSize largest dictionary per column chunk; a column whose dictionary would grow larger falls
 *                           back to plain encoding for the rest of the chunk
 * @param keyValueMetadata   extra key-value pairs for the footer
 */
public record ParquetWriteOptions(
        long rowGroupSize, int pageSize, int dictionaryPageSize, Map<String, String> keyValueMetadata) {

    /** 128 MB, the row-group size of the LayoutBench paper's files (and of parquet-java). */
    public static final long DEFAULT_ROW_GROUP_SIZE = 128L << 20;
    /** 1 MiB. */
    public static final int DEFAULT_PAGE_SIZE = 1 << 20;
    /** 1 MiB. */
    public static final int DEFAULT_DICTIONARY_PAGE_SIZE = 1 << 20;

    private static final ParquetWriteOptions DEFAULTS = new ParquetWriteOptions(
            DEFAULT_ROW_GROUP_SIZE, DEFAULT_PAGE_SIZE, DEFAULT_DICTIONARY_PAGE_SIZE, Map.of());

    public ParquetWriteOptions {
        if (rowGroupSize < 1) {
            throw new IllegalArgumentException("rowGroupSize must be positive, got " + rowGroupSize);
        }
        if (pageSize < 1) {
            throw new IllegalArgumentException("pageSize must be positive, got " + pageSize);
        }
        if (dictionaryPageSize < 1) {
            throw new IllegalArgumentException("dictionaryPageSize must be positive, got " + dictionaryPageSize);
        }
        keyValueMetadata = Map.copyOf(requireNonNull(keyValueMetadata, "keyValueMetadata is null"));
    }

    /** 128 MB row groups, 1 MiB pages, 1 MiB dictionaries, no extra metadata. */
    public static ParquetWriteOptions defaults() {
        return DEFAULTS;
    }

    /** These options with another {@link #rowGroupSize}. */
    public ParquetWriteOptions withRowGroupSize(long rowGroupSize) {
        return new ParquetWriteOptions(rowGroupSize, pageSize, dictionaryPageSize, keyValueMetadata);
    }

    /** These options with another {@link #pageSize}. */
    public ParquetWriteOptions withPageSize(int pageSize) {
        return new ParquetWriteOptions(rowGroupSize, pageSize, dictionaryPageSize, keyValueMetadata);
    }

    /** These options with another {@link #dictionaryPageSize}. */
    public ParquetWriteOptions withDictionaryPageSize(int dictionaryPageSize) {
        return new ParquetWriteOptions(rowGroupSize, pageSize, dictionaryPageSize, keyValueMetadata);
    }

    /** These options with other {@link #keyValueMetadata}. */
    public ParquetWriteOptions withKeyValueMetadata(Map<String, String> keyValueMetadata) {
        return new ParquetWriteOptions(rowGroupSize, pageSize, dictionaryPageSize, keyValueMetadata);
    }
}
