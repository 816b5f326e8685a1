package io.layoutbench.parquet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import com.github.luben.zstd.Zstd;
import org.xerial.snappy.Snappy;

/**
 * Decompresses the pages other tools write: SNAPPY (the default of pyarrow, DuckDB and Spark; with snappy-java), ZSTD
 * (with zstd-jni) and GZIP (with the JDK); UNCOMPRESSED pages pass. Other codecs are refused, naming the codec.
 * Thread-safe.
 *
 * <pre>{@code
 * MetadataColumns columns = ObjectBackend.await(parquet.readColumnsAsync(0, names, CommonDecompressor.INSTANCE));
 * }</pre>
 */
public final class CommonDecompressor implements PageDecompressor {

    /** The one instance. */
    public static final CommonDecompressor INSTANCE = new CommonDecompressor();

    private CommonDecompressor() {
    }

    @Override
    public ByteBuffer decompress(CompressionCodecName codec, ByteBuffer compressed, int uncompressedSize) {
        if (codec == CompressionCodecName.UNCOMPRESSED) {
            return compressed.slice();
        }
        byte[] in = new byte[compressed.remaining()];
        compressed.duplicate().get(in);
        byte[] out = new byte[uncompressedSize];
        try {
            return switch (codec) {
                case SNAPPY -> ByteBuffer.wrap(out, 0, Snappy.uncompress(in, 0, in.length, out, 0));
                case ZSTD -> {
                    long length = Zstd.decompressByteArray(out, 0, out.length, in, 0, in.length);
                    if (Zstd.isError(length)) {
                        throw new IOException(Zstd.getErrorName(length));
                    }
                    yield ByteBuffer.wrap(out, 0, (int) length);
                }
                case GZIP -> {
                    try (InputStream gzip = new GZIPInputStream(new ByteArrayInputStream(in))) {
                        yield ByteBuffer.wrap(out, 0, gzip.readNBytes(out, 0, out.length));
                    }
                }
                default -> throw new ParquetFormatException("Pages compressed with " + codec + " are not supported; "
                        + "SNAPPY, ZSTD, GZIP and UNCOMPRESSED are");
            };
        } catch (IOException e) {
            throw new ParquetFormatException("Corrupt " + codec + " data (" + in.length + " bytes): "
                    + e.getMessage(), e);
        }
    }
}
