package io.layoutbench.parquet;

import io.layoutbench.api.backend.ByteRange;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;

/**
 * How a Parquet footer lies in its object and is parsed: the magics, the footer length, the Thrift metadata, where a
 * column chunk starts. The steps that {@link ParquetFooter} (flat tables, for queries) and
 * {@link ParquetChunkLayout} (any Parquet object, for placing its bytes) share, so that every footer is checked and
 * parsed in this one place, with the same errors. Each step throws {@link ParquetFormatException} naming the object
 * and the offset at fault. Stateless and thread-safe.
 */
final class FooterFormat {

    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);

    private FooterFormat() {
    }

    /** Fails unless {@code length} bytes can hold a leading magic, a footer length and a trailing magic. */
    static void checkLength(String key, long length) {
        if (length < 12) {
            throw new ParquetFormatException("Cannot read " + key + " as Parquet: it is " + length
                    + " bytes, fewer than the 12 of a leading magic, a footer length and a trailing magic");
        }
    }

    /**
     * Where the Thrift footer lies in an object of {@code length} bytes (at least 12), from its last
     * {@code tail.remaining()} bytes (at least 8): checks the trailing magic, the leading one when the tail is the
     * whole object, and that the footer length fits.
     */
    static ByteRange locate(String key, long length, ByteBuffer tail) {
        ByteBuffer bytes = tail.slice().order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[4];
        bytes.get(bytes.remaining() - 4, magic);
        if (Arrays.equals(magic, ENCRYPTED_MAGIC)) {
            throw new ParquetFormatException("Cannot read " + key + ": its footer is encrypted (magic PARE at offset "
                    + (length - 4) + "), which is not supported");
        }
        if (!Arrays.equals(magic, MAGIC)) {
            throw new ParquetFormatException("Cannot read " + key + " as Parquet: bad magic at offset "
                    + (length - 4) + ": expected PAR1, found " + describe(magic) + " (truncated or not Parquet?)");
        }
        if (bytes.remaining() == length) {
            checkLeadingMagic(key, bytes);
        }
        long footerLength = Integer.toUnsignedLong(bytes.getInt(bytes.remaining() - 8));
        long footerStart = length - 8 - footerLength;
        if (footerLength == 0 || footerStart < 4 || footerLength > Integer.MAX_VALUE - 8) {
            throw new ParquetFormatException("Cannot read " + key + " as Parquet: the footer length " + footerLength
                    + " read at offset " + (length - 8) + " does not fit in the object of " + length
                    + " bytes (truncated footer?)");
        }
        return ByteRange.of(footerStart, footerLength);
    }

    /** Checks the magic at offset 0, from {@code head}, which starts there. */
    static void checkLeadingMagic(String key, ByteBuffer head) {
        byte[] magic = new byte[4];
        head.get(head.position(), magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new ParquetFormatException("Cannot read " + key + " as Parquet: bad magic at offset 0: "
                    + "expected PAR1, found " + describe(magic));
        }
    }

    /** The Thrift metadata in {@code footer}, the bytes of {@code footerRange}: the one place it is parsed. */
    static FileMetaData parseMetadata(String key, ByteBuffer footer, ByteRange footerRange) {
        try {
            return Util.readFileMetaData(new ByteBufferInputStream(footer));
        } catch (IOException | RuntimeException e) {
            throw new ParquetFormatException("Cannot parse the footer of " + key + " at " + footerRange
                    + ": truncated or corrupt Thrift: " + e.getMessage(), e);
        }
    }

    /**
     * Where a column chunk starts: at its dictionary page when it has one, else at its first data page. Some
     * writers set {@code dictionary_page_offset} to 0 for "none"; a real dictionary page lies before the data pages.
     */
    static long chunkStart(ColumnMetaData metadata) {
        return hasDictionaryPage(metadata) ? metadata.getDictionary_page_offset() : metadata.getData_page_offset();
    }

    static boolean hasDictionaryPage(ColumnMetaData metadata) {
        return metadata.isSetDictionary_page_offset() && metadata.getDictionary_page_offset() > 0
                && metadata.getDictionary_page_offset() < metadata.getData_page_offset();
    }

    private static String describe(byte[] magic) {
        StringBuilder text = new StringBuilder();
        for (byte b : magic) {
            text.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b & 0xff));
        }
        return "'" + text + "'";
    }
}
