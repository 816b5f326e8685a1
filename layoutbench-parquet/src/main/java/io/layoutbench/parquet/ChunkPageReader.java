package io.layoutbench.parquet;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The pages of one fetched column chunk, for parquet-column's {@code ColumnReaderImpl}, each checked against the CRC32
 * its header records. Uncompressed pages are views of the fetched buffer, not copies.
 */
final class ChunkPageReader implements PageReader {

    private final DictionaryPage dictionaryPage;
    private final Deque<DataPage> dataPages = new ArrayDeque<>();
    private final long valueCount;

    /**
     * @param chunk  the chunk's bytes, position 0 at {@code info.byteRange().offset()}
     * @param where  "column X of row group N of KEY", for errors
     */
    ChunkPageReader(ByteBuffer chunk, ColumnChunkInfo info, PageDecompressor decompressor, String where) {
        boolean compressed = info.codec() != CompressionCodecName.UNCOMPRESSED;
        long chunkOffset = info.byteRange().offset();
        DictionaryPage dictionary = null;
        long values = 0;
        int position = 0;
        int limit = chunk.remaining();
        while (position < limit) {
            PageHeaders.Parsed parsed = PageHeaders.read(chunk, position, limit, chunkOffset, where);
            PageHeader header = parsed.header();
            long pageOffset = chunkOffset + position;
            PageHeaders.verifyCrc(chunk, parsed, chunkOffset, where);
            int stored = parsed.dataEnd() - parsed.dataStart();
            boolean wholePageCompressed = compressed && (header.getType() == PageType.DATA_PAGE
                    || header.getType() == PageType.DICTIONARY_PAGE);
            BytesInput data = !wholePageCompressed
                    ? bytes(chunk, parsed.dataStart(), stored)
                    : decompress(decompressor, info, chunk, parsed.dataStart(), stored,
                            header.getUncompressed_page_size(), pageOffset, where);
            switch (header.getType()) {
                case DICTIONARY_PAGE -> {
                    if (dictionary != null || !dataPages.isEmpty()) {
                        throw new ParquetFormatException("Unexpected dictionary page at offset " + pageOffset
                                + " of " + where + ": a chunk has at most one, before its data pages");
                    }
                    dictionary = new DictionaryPage(data, header.getUncompressed_page_size(),
                            header.getDictionary_page_header().getNum_values(),
                            encoding(header.getDictionary_page_header().getEncoding(), pageOffset, where));
                }
                case DATA_PAGE -> {
                    DataPageHeader page = header.getData_page_header();
                    dataPages.add(new DataPageV1(data, page.getNum_values(), header.getUncompressed_page_size(),
                            null, encoding(page.getRepetition_level_encoding(), pageOffset, where),
                            encoding(page.getDefinition_level_encoding(), pageOffset, where),
                            encoding(page.getEncoding(), pageOffset, where)));
                    values += page.getNum_values();
                }
                case DATA_PAGE_V2 -> {
                    DataPageHeaderV2 page = header.getData_page_header_v2();
                    int repetition = page.getRepetition_levels_byte_length();
                    int definition = page.getDefinition_levels_byte_length();
                    int dataLength = parsed.dataEnd() - parsed.dataStart() - repetition - definition;
                    if (repetition < 0 || definition < 0 || dataLength < 0) {
                        throw new ParquetFormatException("The V2 page at offset " + pageOffset + " of " + where
                                + " has level lengths " + repetition + " and " + definition + " that overrun its "
                                + (parsed.dataEnd() - parsed.dataStart()) + " bytes of data");
                    }
                    int start = parsed.dataStart();
                    int levels = repetition + definition;
                    // V2 pages compress only their values, and say whether they did.
                    BytesInput pageValues = compressed && (!page.isSetIs_compressed() || page.isIs_compressed())
                            ? decompress(decompressor, info, chunk, start + levels, dataLength,
                                    header.getUncompressed_page_size() - levels, pageOffset, where)
                            : bytes(chunk, start + levels, dataLength);
                    dataPages.add(DataPageV2.uncompressed(page.getNum_rows(), page.getNum_nulls(),
                            page.getNum_values(), bytes(chunk, start, repetition),
                            bytes(chunk, start + repetition, definition),
                            encoding(page.getEncoding(), pageOffset, where), pageValues, null));
                    values += page.getNum_values();
                }
                default -> {
                    // Index pages and unknown page types are skipped, as the format allows.
                }
            }
            position = parsed.dataEnd();
        }
        if (values != info.valueCount()) {
            throw new ParquetFormatException("The data pages of " + where + " at " + info.byteRange() + " hold "
                    + values + " values but its metadata says " + info.valueCount());
        }
        this.dictionaryPage = dictionary;
        this.valueCount = values;
    }

    @Override
    public DictionaryPage readDictionaryPage() {
        return dictionaryPage;
    }

    @Override
    public long getTotalValueCount() {
        return valueCount;
    }

    @Override
    public DataPage readPage() {
        return dataPages.poll();
    }

    private static BytesInput decompress(PageDecompressor decompressor, ColumnChunkInfo info, ByteBuffer chunk,
            int start, int length, int uncompressedSize, long pageOffset, String where) {
        ByteBuffer page;
        try {
            page = decompressor.decompress(info.codec(), chunk.slice(start, length), uncompressedSize);
        } catch (ParquetFormatException e) {
            throw new ParquetFormatException("Cannot decompress the page at offset " + pageOffset + " of " + where
                    + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new ParquetFormatException("Cannot decompress the " + info.codec() + " page at offset " + pageOffset
                    + " of " + where + " (" + length + " bytes to " + uncompressedSize + "): " + e, e);
        }
        if (page.remaining() != uncompressedSize) {
            throw new ParquetFormatException("The " + info.codec() + " page at offset " + pageOffset + " of " + where
                    + " decompressed to " + page.remaining() + " bytes but its header says " + uncompressedSize);
        }
        return BytesInput.from(page);
    }

    private static BytesInput bytes(ByteBuffer chunk, int start, int length) {
        return BytesInput.from(chunk.slice(start, length));
    }

    private static Encoding encoding(org.apache.parquet.format.Encoding encoding, long pageOffset, String where) {
        try {
            return Encoding.valueOf(encoding.name());
        } catch (IllegalArgumentException e) {
            throw new ParquetFormatException("The page at offset " + pageOffset + " of " + where
                    + " uses the unknown encoding " + encoding, e);
        }
    }
}
