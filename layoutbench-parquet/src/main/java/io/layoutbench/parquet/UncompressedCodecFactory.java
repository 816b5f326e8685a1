package io.layoutbench.parquet;

import java.nio.ByteBuffer;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The only codec this package writes: none. parquet-java's own factory loads Hadoop's codec classes even for
 * UNCOMPRESSED, and this package must run without Hadoop. Stateless and thread-safe.
 */
final class UncompressedCodecFactory implements CompressionCodecFactory {

    static final UncompressedCodecFactory INSTANCE = new UncompressedCodecFactory();

    private static final BytesInputCompressor COMPRESSOR = new BytesInputCompressor() {
        @Override
        public BytesInput compress(BytesInput bytes) {
            return bytes;
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.UNCOMPRESSED;
        }

        @Override
        public void release() {
        }
    };

    private static final BytesInputDecompressor DECOMPRESSOR = new BytesInputDecompressor() {
        @Override
        public BytesInput decompress(BytesInput bytes, int decompressedSize) {
            return bytes;
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize) {
            output.put(input.duplicate().limit(input.position() + compressedSize));
            input.position(input.position() + compressedSize);
        }

        @Override
        public void release() {
        }
    };

    private UncompressedCodecFactory() {
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codecName) {
        return COMPRESSOR.getCodecName() == check(codecName) ? COMPRESSOR : null;
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codecName) {
        check(codecName);
        return DECOMPRESSOR;
    }

    @Override
    public void release() {
    }

    private static CompressionCodecName check(CompressionCodecName codecName) {
        if (codecName != CompressionCodecName.UNCOMPRESSED) {
            throw new UnsupportedOperationException("Codec " + codecName + " is not supported: layoutbench writes "
                    + "and reads only UNCOMPRESSED Parquet pages, so that no Hadoop or native code is needed");
        }
        return codecName;
    }
}
