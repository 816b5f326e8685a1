package io.layoutbench.parquet.model;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * One OPTIONAL metadata column chunk as parquet-java writes it, row by row, counting bytes: values go into the
 * current page, buffered at their plain size (parquet-java decides when to close a page from the raw size, even when
 * it will dictionary-encode it); a closed page is dictionary ids (one byte of bit width and the hybrid run) or, after
 * a fallback, plain values, behind its definition levels and header. The dictionary falls back to plain when the
 * first page would not be smaller with it, or when it passes {@link ParquetSizes#MAX_DICTIONARY_BYTES}; a
 * dictionary that was used is written as a dictionary page at the end of the chunk.
 *
 * <p>Not counted: the few bytes of definition levels parquet-java holds in its encoder while a page is open (zero
 * for a column without NULLs). Not thread-safe.
 */
final class ChunkModel {

    private final ColumnModel column;
    private final LongIntMap dictionary = new LongIntMap();
    private long dictionaryBytes;
    private long usedDictionaryBytes;
    private int usedDictionaryEntries;
    private boolean fellBack;
    private boolean firstPage = true;

    private int[] pageIds = new int[64];
    private boolean[] pageDefined = new boolean[64];
    private int pageRows;
    private int pageValues;
    private long pageRaw;

    private long writtenBytes;
    private int pages;
    private long valueBytes;
    private long values;

    ChunkModel(ColumnModel column) {
        this.column = requireNonNull(column, "column is null");
        this.fellBack = !column.dictionaryEncoded();
    }

    /** Appends row {@code row}'s value. */
    void add(int row) {
        if (pageRows == pageDefined.length) {
            pageDefined = Arrays.copyOf(pageDefined, pageRows * 2);
        }
        boolean defined = !column.isNull(row);
        pageDefined[pageRows++] = defined;
        if (!defined) {
            return;
        }
        int size = column.plainSize(row);
        pageRaw += size;
        valueBytes += size;
        values++;
        if (!fellBack) {
            int before = dictionary.size();
            int id = dictionary.idOf(column.key(row));
            if (dictionary.size() > before) {
                dictionaryBytes += size;
            }
            if (pageValues == pageIds.length) {
                pageIds = Arrays.copyOf(pageIds, pageValues * 2);
            }
            pageIds[pageValues] = id;
            if (dictionaryBytes > ParquetSizes.MAX_DICTIONARY_BYTES) {
                fallBack();
            }
        }
        pageValues++;
    }

    private void fallBack() {
        fellBack = true;
        if (usedDictionaryEntries == 0) {
            dictionaryBytes = 0;   // never used: dropped, no dictionary page
        }
    }

    /** Bytes buffered in the open page, as parquet-java measures it to decide whether to close the page. */
    long pageBuffered() {
        return pageRaw;
    }

    /** Rows in the open page. */
    int pageRows() {
        return pageRows;
    }

    /** Bytes buffered for this chunk: pages written and the open page (raw). */
    long buffered() {
        return writtenBytes + pageRaw;
    }

    /** Closes the open page. */
    void writePage() {
        long values;
        if (!column.dictionaryEncoded()) {
            values = pageRaw;
        } else if (fellBack) {
            values = pageRaw;
        } else {
            ParquetSizes.Hybrid ids = new ParquetSizes.Hybrid(ParquetSizes.bitWidth(dictionary.size()));
            for (int i = 0; i < pageValues; i++) {
                ids.add(pageIds[i]);
            }
            long encoded = 1 + ids.finish();
            if (firstPage && encoded + dictionaryBytes >= pageRaw) {
                fallBack();
                values = pageRaw;
            } else {
                values = encoded;
                usedDictionaryBytes = dictionaryBytes;
                usedDictionaryEntries = dictionary.size();
            }
        }
        ParquetSizes.Hybrid levels = new ParquetSizes.Hybrid(1);
        for (int i = 0; i < pageRows; i++) {
            levels.add(pageDefined[i] ? 1 : 0);
        }
        long data = 4 + levels.finish() + values;
        writtenBytes += ParquetSizes.dataPageHeader(data, pageRows) + data;
        pages++;
        pageRows = 0;
        pageValues = 0;
        pageRaw = 0;
        firstPage = false;
    }

    /** Closes the open page if it has rows, adds the dictionary page, and returns the chunk's bytes. */
    long finish() {
        if (pageRows > 0) {
            writePage();
        }
        if (usedDictionaryEntries > 0) {
            writtenBytes += ParquetSizes.dictionaryPageHeader(usedDictionaryBytes, usedDictionaryEntries)
                    + usedDictionaryBytes;
        }
        return writtenBytes;
    }

    /** Data pages written so far. */
    int pages() {
        return pages;
    }

    /**
     * Bytes of the chunk's min and max statistics together, estimated from the mean value size (strings are
     * truncated to 64 bytes in column indexes).
     */
    long statisticsBytes() {
        if (values == 0) {
            return 0;
        }
        long mean = valueBytes / values;
        return mean == 8 ? 18 : 2 * (Math.min(64, Math.max(0, mean - 4)) + 1);
    }
}
