package io.layoutbench.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;

/** Reads Thrift page headers out of fetched buffers, checking that each page lies within its buffer. */
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
        ByteBufferInputStream in = new ByteBufferInputStream(buffer.duplicate().position(position).limit(limit));
        PageHeader header;
        try {
            header = Util.readPageHeader(in);
        } catch (IOException | RuntimeException e) {
            throw new ParquetFormatException("Cannot parse the page header at offset " + (bufferOffset + position)
                    + " of " + where + ": " + (in.available() == 0 ? "it runs past the end of the fetched bytes at "
                    + (bufferOffset + limit) + " (truncated chunk or wrong offset): " : "corrupt Thrift: ")
                    + e.getMessage(), e);
        }
        int dataStart = position + in.consumed();
        long dataEnd = (long) dataStart + header.getCompressed_page_size();
        if (header.getCompressed_page_size() < 0 || dataEnd > limit) {
            throw new ParquetFormatException("The page header at offset " + (bufferOffset + position) + " of " + where
                    + " claims " + header.getCompressed_page_size() + " bytes of data from offset "
                    + (bufferOffset + dataStart) + ", overrunning its " + (position == 0 && limit == buffer.limit()
                    ? "page" : "chunk") + ", which ends at offset " + (bufferOffset + limit));
        }
        return new Parsed(header, position, dataStart, (int) dataEnd);
    }
}
