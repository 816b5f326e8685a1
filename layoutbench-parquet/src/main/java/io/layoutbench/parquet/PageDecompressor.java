package io.layoutbench.parquet;

import java.nio.ByteBuffer;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Decompresses the data of one Parquet page. {@link #NONE} reads only {@code UNCOMPRESSED} pages (what this
 * project writes); {@link CommonDecompressor} reads SNAPPY and GZIP pages too (what other tools write).
 *
 * <pre>{@code
 * PageDecompressor snappy = (codec, page, size) -> ByteBuffer.wrap(Snappy.uncompress(toArray(page)));
 * ColumnVector prices = ParquetObject.decodeChunk(footer, 0, "l_extendedprice", chunkBytes, snappy);
 * }</pre>
 */
@FunctionalInterface
public interface PageDecompressor {

    /** Accepts only uncompressed pages. */
    PageDecompressor NONE = (codec, compressed, uncompressedSize) -> {
        throw new ParquetFormatException("Pages compressed with " + codec + " cannot be decoded: no decompressor "
                + "was given, and only UNCOMPRESSED pages are read without one");
    };

    /**
     * The {@code uncompressedSize} bytes that {@code compressed} (exactly the page's compressed data) decompresses
     * to.
     *
     * @throws ParquetFormatException if {@code codec} is not supported or the data is corrupt
     */
    ByteBuffer decompress(CompressionCodecName codec, ByteBuffer compressed, int uncompressedSize);
}
