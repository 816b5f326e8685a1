package io.layoutbench.evaluation.tpch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Snappy for parquet-java's writer without Hadoop's codec classes (which parquet-java's own factory loads), by
 * snappy-java. Parquet's SNAPPY pages are raw Snappy blocks. Stateless and thread-safe.
 */
final class SnappyCodecFactory implements CompressionCodecFactory {

    static final SnappyCodecFactory INSTANCE = new SnappyCodecFactory();

    private static final BytesInputCompressor COMPRESSOR = new BytesInputCompressor() {
        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            return BytesInput.from(Snappy.compress(toArray(bytes)));
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.SNAPPY;
        }

        @Override
        public void release() {
        }
    };

    private static final BytesInputDecompressor DECOMPRESSOR = new BytesInputDecompressor() {
        @Override
        public BytesInput decompress(BytesInput bytes, int decompressedSize) throws IOException {
            return BytesInput.from(Snappy.uncompress(toArray(bytes)));
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize) {
            byte[] compressed = new byte[compressedSize];
            input.duplicate().get(compressed);
            input.position(input.position() + compressedSize);
            try {
                output.put(Snappy.uncompress(compressed));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void release() {
        }
    };

    private SnappyCodecFactory() {
    }

    private static byte[] toArray(BytesInput bytes) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream((int) bytes.size());
        bytes.writeAllTo(out);
        return out.toByteArray();
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codecName) {
        return codecName == CompressionCodecName.SNAPPY ? COMPRESSOR : null;
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codecName) {
        if (codecName != CompressionCodecName.SNAPPY) {
            throw new UnsupportedOperationException("Only SNAPPY is supported here, not " + codecName);
        }
        return DECOMPRESSOR;
    }

    @Override
    public void release() {
    }
}
