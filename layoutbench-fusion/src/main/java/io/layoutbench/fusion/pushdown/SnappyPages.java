package io.layoutbench.fusion.pushdown;

import io.layoutbench.parquet.PageDecompressor;
import io.layoutbench.parquet.ParquetFormatException;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/** Decompresses Snappy pages (raw Snappy blocks, as Parquet stores them) with snappy-java; uncompressed pass. */
final class SnappyPages implements PageDecompressor {

    static final SnappyPages INSTANCE = new SnappyPages();

    private SnappyPages() {
    }

    @Override
    public ByteBuffer decompress(CompressionCodecName codec, ByteBuffer compressed, int uncompressedSize) {
        if (codec == CompressionCodecName.UNCOMPRESSED) {
            return compressed.slice();
        }
        if (codec != CompressionCodecName.SNAPPY) {
            throw new ParquetFormatException("Pages compressed with " + codec + " are not supported here; "
                    + "SNAPPY and UNCOMPRESSED are");
        }
        byte[] in = new byte[compressed.remaining()];
        compressed.duplicate().get(in);
        byte[] out = new byte[uncompressedSize];
        try {
            int length = Snappy.uncompress(in, 0, in.length, out, 0);
            return ByteBuffer.wrap(out, 0, length);
        } catch (IOException e) {
            throw new ParquetFormatException("Corrupt Snappy data (" + in.length + " bytes): " + e.getMessage(), e);
        }
    }
}
