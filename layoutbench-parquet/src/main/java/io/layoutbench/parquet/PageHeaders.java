package io.layoutbench.parquet;

import io.layoutbench.api.backend.CorruptDataException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;

/**
 * Reads Thrift page headers out of fetched buffers, checking that each page lies within its buffer, and checks a
 * page's CRC32 where its writer recorded one (parquet-java does, for every page).
 */
final class PageHeaders {

    private PageHeaders() {
    }

    /**
     * A parsed page header and where its page lies in the buffer it was read from.
     *
     * @param header      the Thrift header
     * @param start       position in the buffer of the header's first byte
     * @param dataStart   position of the page's first data byte (just after the header)
     * @param dataEnd     one past the page's last data byte
     */
    record Parsed(PageHeader header, int start, int dataStart, int dataEnd) {
    }

    /**
     * Parses the page header at {@code position} of {@code buffer} (whose position 0 lies at {@code bufferOffset} of
     * the object) and checks that the page's data ends within {@code limit}.
     *
     * @param where the column chunk, for errors: "column X of row group N of KEY"
     */
    static Parsed read(ByteBuffer buffer, int position, int limit, long bufferOffset, String where) {
        Parsed parsed = readHeader(buffer, position, limit, bufferOffset, where, false);
        PageHeader header = parsed.header();
        int dataStart = parsed.dataStart();
        long dataEnd = (long) dataStart + header.getCompressed_page_size();
        if (header.getCompressed_page_size() < 0 || dataEnd > limit) {
            throw new ParquetFormatException("The page header at offset " + (bufferOffset + position) + " of " + where
                    + " claims " + header.getCompressed_page_size() + " bytes of data from offset "
                    + (bufferOffset + dataStart) + ", overrunning its " + (position == 0 && limit == buffer.limit()
                    ? "page" : "chunk") + ", which ends at offset " + (bufferOffset + limit));
        }
        return new Parsed(header, position, dataStart, (int) dataEnd);
    }

    /**
     * Parses the page header at {@code position} of {@code buffer}, as {@link #read} does, without checking where
     * its data ends; for a chunk read in pieces, where the data is still to come. {@code dataEnd} is the data's end
     * if it fits an {@code int}, else {@code Integer.MAX_VALUE}.
     *
     * @param more whether more bytes follow {@code limit}: then a header they cut short gives null, not an error
     */
    static Parsed readHeader(ByteBuffer buffer, int position, int limit, long bufferOffset, String where,
            boolean more) {
        ByteBufferInputStream in = new ByteBufferInputStream(buffer.duplicate().position(position).limit(limit));
        PageHeader header;
        try {
            header = Util.readPageHeader(in);
        } catch (IOException | RuntimeException e) {
            if (more && in.available() == 0) {
                return null;
            }
            throw new ParquetFormatException("Cannot parse the page header at offset " + (bufferOffset + position)
                    + " of " + where + ": " + (in.available() == 0 ? "it runs past the end of the fetched bytes at "
                    + (bufferOffset + limit) + " (truncated chunk or wrong offset): " : "corrupt Thrift: ")
                    + e.getMessage(), e);
        }
        int dataStart = position + in.consumed();
        long dataEnd = (long) dataStart + Math.max(0, header.getCompressed_page_size());
        return new Parsed(header, position, dataStart, (int) Math.min(Integer.MAX_VALUE, dataEnd));
    }

    /**
     * Checks the page's data against the CRC32 its header records, if any: the CRC of the bytes after the header as
     * stored (compressed; levels and values of a V2 page), as the Parquet format defines it.
     *
     * @param bufferOffset the object offset of the buffer's position 0
     * @param where        the column chunk, for errors: "column X of row group N of KEY"
     * @throws CorruptDataException naming the page's offset, the column chunk and both checksums on a mismatch
     */
    static void verifyCrc(ByteBuffer buffer, Parsed parsed, long bufferOffset, String where) {
        if (!parsed.header().isSetCrc()) {
            return;
        }
        CRC32 crc = new CRC32();
        crc.update(buffer.duplicate().limit(parsed.dataEnd()).position(parsed.dataStart()));
        int actual = (int) crc.getValue();
        if (actual != parsed.header().getCrc()) {
            throw new CorruptDataException(String.format("Checksum mismatch in the page at offset %d of %s: CRC32 of "
                    + "its %d bytes of data is %08x, its header records %08x", bufferOffset + parsed.start(), where,
                    parsed.dataEnd() - parsed.dataStart(), actual, parsed.header().getCrc()));
        }
    }
}
