package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Fetches the blobs of chosen rows from the blob column of a {@link ParquetObject}, decoding the pages itself: each
 * blob is a read-only slice of the fetched page buffer, not a copy.
 *
 * <p>Two modes:
 * <ul>
 *   <li>{@link #readAsync selective}: the offset index says which pages hold the rows; only those pages are
 *       fetched, pages closer than {@link FetchOptions#mergeGap()} in one request.</li>
 *   <li>{@link #readWholeRowGroupAsync whole row group}, the LayoutBench paper's mode (DuckDB reads entire row
 *       groups): every column chunk of the row group is fetched, one request per chunk, and the blob chunk is
 *       decoded page after page as it streams in, without the page index: a read holds a page at a time, not
 *       the chunk.</li>
 * </ul>
 *
 * <p>Each page a blob is sliced out of is first checked against the CRC32 its header records (parquet-java writes
 * one per page), so a damaged page is a {@code CorruptDataException} naming its offset, not a wrong blob.
 *
 * <p>The blob column must be REQUIRED, plain-encoded, uncompressed {@code BINARY}, as {@link ParquetTableWriter}
 * writes it. Pages are decoded here rather than by parquet-java's {@code readFilteredRowGroup}, which can return the
 * wrong blob for sparse rows (apache/parquet-java#3747).
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * BlobReader images = new BlobReader(ParquetObject.open(backend, "l3/part-00000.parquet"), "image_bytes");
 * List<ByteBuffer> jpegs = images.read(2, new int[] {4, 90, 91, 1200});   // rows of row group 2, ascending
 * }</pre>
 */
public final class BlobReader {

    private final ParquetObject object;
    private final ParquetColumn column;

    /**
     * A reader of the blob column {@code column} (ignoring case) of {@code object}.
     *
     * @throws IllegalArgumentException if there is no such column, or it is not a REQUIRED BINARY column
     */
    public BlobReader(ParquetObject object, String column) {
        this.object = requireNonNull(object, "object is null");
        this.column = object.footer().column(requireNonNull(column, "column is null"));
        if (this.column.physicalType() != PrimitiveTypeName.BINARY || !this.column.required()) {
            throw new IllegalArgumentException("Column " + this.column.name() + " of " + object.key() + " is "
                    + (this.column.required() ? "REQUIRED " : "OPTIONAL ") + this.column.physicalType()
                    + "; blobs are read from a REQUIRED BINARY column");
        }
    }

    /** The blob column's name. */
    public String column() {
        return column.name();
    }

    /**
     * The pages holding {@code rows} of row group {@code rowGroup}, before merging: what {@link #readAsync} fetches.
     * Loads the page indexes on first use.
     */
    public List<PageInfo> pagesFor(int rowGroup, int[] rows) {
        checkRows(rowGroup, rows);
        return object.pageIndex(rowGroup, column.name()).pagesFor(rows);
    }

    /** Blocking {@link #readAsync}. */
    public List<ByteBuffer> read(int rowGroup, int[] rows) {
        return ObjectBackend.await(readAsync(rowGroup, rows));
    }

    /**
     * Fetches only the pages that hold {@code rows} (indices within the row group, strictly ascending) and returns
     * each row's blob, in the order of {@code rows}. Loads the page indexes on first use (one blocking request, or
     * none when they lie in the footer's tail); the page requests are sent at once.
     *
     * @return a future of one read-only buffer per row; it fails with {@link ParquetFormatException} naming the key,
     *         row group, column and offset if a page cannot be decoded
     */
    public CompletableFuture<List<ByteBuffer>> readAsync(int rowGroup, int[] rows) {
        List<PageInfo> pages = pagesFor(rowGroup, rows);
        ColumnChunkInfo chunk = checkChunk(rowGroup);
        List<CompletableFuture<ByteBuffer>> fetched =
                object.file().readEachAsync(pages.stream().map(PageInfo::byteRange).toList());
        ByteBuffer[] blobs = new ByteBuffer[rows.length];
        List<CompletableFuture<Void>> decoded = new ArrayList<>(pages.size());
        int from = 0;
        for (int p = 0; p < pages.size(); p++) {
            PageInfo page = pages.get(p);
            int to = from;
            while (to < rows.length && page.containsRow(rows[to])) {
                to++;
            }
            int first = from;
            int last = to;
            decoded.add(fetched.get(p).thenAccept(bytes -> decodePage(bytes, page.offset(), page.firstRow(),
                    page.rowCount(), rows, first, last, blobs, rowGroup, chunk)));
            from = to;
        }
        return CompletableFuture.allOf(decoded.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> Arrays.asList(blobs));
    }

    /** Blocking {@link #readWholeRowGroupAsync}. */
    public List<ByteBuffer> readWholeRowGroup(int rowGroup, int[] rows) {
        return ObjectBackend.await(readWholeRowGroupAsync(rowGroup, rows));
    }

    /**
     * The paper's mode: fetches every column chunk of row group {@code rowGroup} (one request per chunk, sent at
     * once, whatever the merge gap) and returns the blobs of {@code rows} (strictly ascending), decoded by walking
     * the blob chunk's pages as they arrive. Needs no page index. The other chunks are fetched for their cost only.
     * Blobs that are less than half of their page are copies, so that a sample kept does not keep its page in
     * memory.
     */
    public CompletableFuture<List<ByteBuffer>> readWholeRowGroupAsync(int rowGroup, int[] rows) {
        return readWholeRowGroupAsync(object, rowGroup, rows, List.of(column.name())).thenApply(all -> all.get(0));
    }

    /**
     * {@link #readWholeRowGroupAsync(int, int[])} for several blob columns of {@code object}: every column chunk
     * fetched once, the blobs of {@code rows} decoded from each of {@code columns}, a list per column in that order.
     *
     * <p>Each chunk is streamed ({@link ObjectBackend#streamRangeAsync}), one request each as before, and decoded
     * page by page as its bytes arrive: a read holds the page being decoded and the blobs kept, not the chunk (128 MB
     * at the paper's settings). The other chunks are read for their cost only, their bytes dropped as they come.
     *
     * @throws IllegalArgumentException if a column is not a blob column, or a row is out of range
     */
    public static CompletableFuture<List<List<ByteBuffer>>> readWholeRowGroupAsync(ParquetObject object,
            int rowGroup, int[] rows, List<String> columns) {
        List<BlobReader> readers = columns.stream().map(c -> new BlobReader(object, c)).toList();
        RowGroupInfo group = object.footer().rowGroup(rowGroup);
        List<ChunkStream> decoders = new ArrayList<>(readers.size());
        Consumer<ByteBuffer> readForItsCost = piece -> { };
        List<Consumer<ByteBuffer>> consumers = new ArrayList<>(Collections.nCopies(group.columns().size(),
                readForItsCost));
        for (BlobReader reader : readers) {
            reader.checkRows(rowGroup, rows);
            ChunkStream decoder = new ChunkStream(object.where(rowGroup, reader.column.name()),
                    reader.checkChunk(rowGroup), group.rowCount(), rows);
            decoders.add(decoder);
            int c = reader.column.index();   // a column asked for twice is decoded twice from one read
            consumers.set(c, consumers.get(c) == readForItsCost ? decoder : consumers.get(c).andThen(decoder));
        }
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int c = 0; c < consumers.size(); c++) {
            all.add(object.file().streamAsync(group.columns().get(c).byteRange(), consumers.get(c)));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            List<List<ByteBuffer>> blobs = new ArrayList<>(decoders.size());
            for (ChunkStream decoder : decoders) {
                blobs.add(decoder.finish());
            }
            return blobs;
        });
    }

    /**
     * Decodes the blobs of some rows out of a blob column chunk handed over in pieces of any size, in order: page
     * headers are parsed as they come (one cut by a piece's end is gathered with the next), pages holding a wanted
     * row are gathered whole, checked against their CRC and decoded, and the others are skipped unread. It holds at
     * most the page being gathered, a page header, and the blobs found. Pieces come one at a time
     * ({@link ObjectBackend#streamRangeAsync}); {@link #finish} is called once they have all come.
     */
    private static final class ChunkStream implements Consumer<ByteBuffer> {
        /**
         * The largest page header gathered across pieces: a page header is tens of bytes (a blob column has no
         * statistics), so a longer one is corrupt, not slow to come.
         */
        static final int MAX_HEADER_BYTES = 1 << 20;
        /** Bytes of a piece joined at a time to the start of a page header the previous piece cut. */
        static final int HEADER_JOIN_BYTES = 64 << 10;

        private final ColumnChunkInfo chunk;
        private final String where;
        private final long rowGroupRows;
        private final int[] rows;
        private final ByteBuffer[] blobs;
        /** Bytes of the chunk consumed: the next byte lies at chunk offset + consumed. */
        private long consumed;
        /** The start of a page header cut by the end of a piece, or null. */
        private ByteBuffer headerStart;
        /** The page being gathered (it holds a wanted row), its header, offset and header length; or null. */
        private ByteBuffer page;
        private PageHeader pageHeader;
        private long pageOffset;
        private int headerLength;
        /** Bytes of a page holding no wanted row still to skip. */
        private long skip;
        private long pageFirstRow;
        private int pageRows;
        /** The first row not yet decoded, and one past the last of the page being gathered. */
        private int next;
        private int to;

        ChunkStream(String where, ColumnChunkInfo chunk, long rowGroupRows, int[] rows) {
            this.where = where;
            this.chunk = chunk;
            this.rowGroupRows = rowGroupRows;
            this.rows = rows;
            this.blobs = new ByteBuffer[rows.length];
        }

        @Override
        public void accept(ByteBuffer piece) {
            ByteBuffer bytes = piece.duplicate();   // the piece's position is its giver's
            while (headerStart != null && bytes.hasRemaining()) {
                // The header's start, and as much of the piece as a header can take, parsed together; what they
                // hold beyond the header is consumed with them, and the rest of the piece after them.
                int take = Math.min(bytes.remaining(), HEADER_JOIN_BYTES);
                ByteBuffer joined = ByteBuffer.allocate(headerStart.remaining() + take);
                joined.put(headerStart).put(bytes.duplicate().limit(bytes.position() + take)).flip();
                bytes.position(bytes.position() + take);
                headerStart = null;
                consume(joined);
            }
            consume(bytes);
        }

        /** Consumes {@code bytes}, the next of the chunk; a page header they end within is kept for the next. */
        private void consume(ByteBuffer bytes) {
            while (bytes.hasRemaining()) {
                if (page != null) {
                    int n = Math.min(page.remaining(), bytes.remaining());
                    page.put(bytes.duplicate().limit(bytes.position() + n));
                    bytes.position(bytes.position() + n);
                    consumed += n;
                    if (!page.hasRemaining()) {
                        decodePage();
                    }
                } else if (skip > 0) {
                    int n = (int) Math.min(skip, bytes.remaining());
                    bytes.position(bytes.position() + n);
                    consumed += n;
                    skip -= n;
                } else if (next == rows.length) {
                    consumed += bytes.remaining();   // every row found: the rest is read for its cost only
                    return;
                } else if (!startPage(bytes)) {
                    if (bytes.remaining() > MAX_HEADER_BYTES) {
                        throw new ParquetFormatException("Cannot parse the page header at offset " + offset()
                                + " of " + where + ": no header ends within " + bytes.remaining() + " bytes");
                    }
                    headerStart = ByteBuffer.allocate(bytes.remaining()).put(bytes).flip();
                    return;
                }
            }
        }

        /** Parses the page header at the start of {@code bytes} and consumes it; false if it is cut short. */
        private boolean startPage(ByteBuffer bytes) {
            long end = chunk.byteRange().end();
            PageHeaders.Parsed parsed = PageHeaders.readHeader(bytes, bytes.position(), bytes.limit(),
                    offset() - bytes.position(), where, offset() + bytes.remaining() < end);
            if (parsed == null) {
                return false;
            }
            long at = offset();
            int length = parsed.dataStart() - parsed.start();
            long data = parsed.header().getCompressed_page_size();
            if (data < 0 || at + length + data > end) {
                throw new ParquetFormatException("The page header at offset " + at + " of " + where + " claims "
                        + data + " bytes of data from offset " + (at + length) + ", overrunning its chunk, which ends"
                        + " at offset " + end);
            }
            pageRows = dataPageValues(parsed.header(), at, where);
            to = next;
            while (to < rows.length && rows[to] < pageFirstRow + pageRows) {
                to++;
            }
            bytes.position(bytes.position() + length);
            consumed += length;
            if (to == next) {
                skip = data;
                pageFirstRow += pageRows;
                return true;
            }
            pageHeader = parsed.header();
            pageOffset = at;
            headerLength = length;
            page = ByteBuffer.allocate((int) data);
            if (data == 0) {
                decodePage();
            }
            return true;
        }

        /** Checks and decodes the page gathered, then drops it (the blobs it holds are kept, copied if sparse). */
        private void decodePage() {
            ByteBuffer data = page.flip();
            page = null;
            PageHeaders.Parsed parsed = new PageHeaders.Parsed(pageHeader, -headerLength, 0, data.limit());
            String pageRowsWhere = rowsOf(where, pageFirstRow, pageRows);
            PageHeaders.verifyCrc(data, parsed, pageOffset + headerLength, pageRowsWhere);
            decodeValues(data, parsed, pageOffset, pageFirstRow, pageRows, rows, next, to, blobs, where);
            detachedIfSparse(blobs, next, to, data.limit());
            next = to;
            pageFirstRow += pageRows;
        }

        /** The object offset of the next byte. */
        private long offset() {
            return chunk.byteRange().offset() + consumed;
        }

        /** Every row's blob, once the whole chunk has been handed over; an error if the chunk ended too soon. */
        List<ByteBuffer> finish() {
            if (next < rows.length) {
                if (page != null || skip > 0 || headerStart != null) {
                    throw new ParquetFormatException("The pages of " + where + " at " + chunk.byteRange()
                            + " end within a page at offset " + offset() + ": the chunk was cut short");
                }
                throw new ParquetFormatException("The pages of " + where + " at " + chunk.byteRange() + " end after "
                        + pageFirstRow + " rows, before row " + rows[next] + " of its " + rowGroupRows);
            }
            return Arrays.asList(blobs);
        }
    }

    /**
     * Copies {@code blobs[from, to)}, slices of one page of {@code pageBytes}, out of it when together they hold less
     * than half of it. A slice keeps the whole page reachable: a few samples the consumer keeps would hold their
     * pages. A page mostly wanted stays shared: copying it would hold it twice while decoding, for samples that are
     * most of it anyway (with 24 MiB samples, one a page, that doubling is what a 128 MB heap cannot take). The copy
     * runs at memory speed, well above what the page's read takes.
     */
    private static void detachedIfSparse(ByteBuffer[] blobs, int from, int to, long pageBytes) {
        long kept = 0;
        for (int i = from; i < to; i++) {
            kept += blobs[i].remaining();
        }
        if (kept * 2 >= pageBytes) {
            return;
        }
        for (int i = from; i < to; i++) {
            ByteBuffer copy = ByteBuffer.allocate(blobs[i].remaining());
            copy.put(blobs[i].duplicate()).flip();
            blobs[i] = copy.asReadOnlyBuffer();
        }
    }

    /** Decodes rows {@code rows[from, to)} out of one fetched page into {@code blobs}. */
    private void decodePage(ByteBuffer page, long pageOffset, long pageFirstRow, long pageRowCount, int[] rows,
            int from, int to, ByteBuffer[] blobs, int rowGroup, ColumnChunkInfo chunk) {
        String where = object.where(rowGroup, column.name());
        PageHeaders.Parsed parsed = PageHeaders.read(page, 0, page.remaining(), pageOffset, where);
        PageHeaders.verifyCrc(page, parsed, pageOffset, rowsOf(where, pageFirstRow, pageRowCount));
        int values = dataPageValues(parsed.header(), pageOffset, where);
        if (values != pageRowCount) {
            throw new ParquetFormatException("The page at offset " + pageOffset + " of " + where + " holds " + values
                    + " values but the offset index says " + pageRowCount + " rows (chunk " + chunk.byteRange()
                    + ")");
        }
        decodeValues(page, parsed, pageOffset, pageFirstRow, values, rows, from, to, blobs, where);
    }

    /** "column X of row group N of KEY (rows a to b of the row group)", for a page's errors. */
    private static String rowsOf(String where, long firstRow, long rowCount) {
        return where + " (rows " + firstRow + " to " + (firstRow + rowCount - 1) + " of the row group)";
    }

    /**
     * Walks the PLAIN {@code BYTE_ARRAY} values of a parsed page (4-byte little-endian length, then the bytes) and
     * slices out those of rows {@code rows[from, to)}, which lie in this page.
     */
    private static void decodeValues(ByteBuffer buffer, PageHeaders.Parsed parsed, long pageOffset, long pageFirstRow,
            int values, int[] rows, int from, int to, ByteBuffer[] blobs, String where) {
        ByteBuffer le = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int position = parsed.dataStart() + levelsLength(parsed.header());
        int end = parsed.dataEnd();
        long bufferOffset = pageOffset - parsed.start();
        int value = 0;
        for (int i = from; i < to; i++) {
            int wanted = Math.toIntExact(rows[i] - pageFirstRow);
            for (; ; value++) {
                if (value >= values || position + 4 > end) {
                    throw new ParquetFormatException("Row " + rows[i] + " is past the end of the page at offset "
                            + pageOffset + " of " + where + ": it holds " + values + " values, of which " + value
                            + " fit in its data ending at offset " + (bufferOffset + end));
                }
                int length = le.getInt(position);
                if (length < 0 || length > end - position - 4) {
                    throw new ParquetFormatException("Value " + value + " of the page at offset " + pageOffset + " of "
                            + where + " claims " + length + " bytes at offset " + (bufferOffset + position)
                            + ", overrunning the page's data, which ends at offset " + (bufferOffset + end));
                }
                if (value == wanted) {
                    blobs[i] = buffer.slice(position + 4, length).asReadOnlyBuffer();
                    position += 4 + length;
                    value++;
                    break;
                }
                position += 4 + length;
            }
        }
    }

    /** The number of values of a data page whose values this reader can decode, or an error saying why not. */
    private static int dataPageValues(PageHeader header, long pageOffset, String where) {
        Encoding encoding;
        int values;
        switch (header.getType()) {
            case DATA_PAGE -> {
                DataPageHeader page = header.getData_page_header();
                encoding = page.getEncoding();
                values = page.getNum_values();
            }
            case DATA_PAGE_V2 -> {
                DataPageHeaderV2 page = header.getData_page_header_v2();
                if (page.isSetIs_compressed() && page.isIs_compressed()
                        && header.getCompressed_page_size() != header.getUncompressed_page_size()) {
                    throw new ParquetFormatException("The V2 page at offset " + pageOffset + " of " + where
                            + " is compressed; blobs are read from uncompressed pages only");
                }
                encoding = page.getEncoding();
                values = page.getNum_values();
            }
            default -> throw new ParquetFormatException("Found a " + header.getType() + " at offset " + pageOffset
                    + " of " + where + "; a blob column must be plain-encoded, with no dictionary page");
        }
        if (encoding != Encoding.PLAIN) {
            throw new ParquetFormatException("The page at offset " + pageOffset + " of " + where + " is " + encoding
                    + "-encoded; a blob column must be PLAIN-encoded");
        }
        if (values < 0) {
            throw new ParquetFormatException("The page at offset " + pageOffset + " of " + where + " claims "
                    + values + " values");
        }
        return values;
    }

    /** Bytes of levels before the values: none in V1 pages of a REQUIRED flat column, as the header says in V2. */
    private static int levelsLength(PageHeader header) {
        if (header.getType() == org.apache.parquet.format.PageType.DATA_PAGE_V2) {
            DataPageHeaderV2 page = header.getData_page_header_v2();
            return page.getRepetition_levels_byte_length() + page.getDefinition_levels_byte_length();
        }
        return 0;
    }

    private ColumnChunkInfo checkChunk(int rowGroup) {
        ColumnChunkInfo chunk = object.footer().rowGroup(rowGroup).columns().get(column.index());
        String where = object.where(rowGroup, column.name());
        if (chunk.codec() != CompressionCodecName.UNCOMPRESSED) {
            throw new ParquetFormatException("Cannot read blobs of " + where + ": its pages are " + chunk.codec()
                    + "-compressed; blobs are sliced out of uncompressed pages only");
        }
        if (chunk.hasDictionaryPage()) {
            throw new ParquetFormatException("Cannot read blobs of " + where + ": it is dictionary-encoded; a blob "
                    + "column must be plain-encoded");
        }
        return chunk;
    }

    private void checkRows(int rowGroup, int[] rows) {
        requireNonNull(rows, "rows is null");
        RowGroupInfo group = object.footer().rowGroup(rowGroup);
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] < 0 || rows[i] >= group.rowCount()) {
                throw new IllegalArgumentException("Row " + rows[i] + " is not in row group " + rowGroup + " of "
                        + object.key() + ", which has " + group.rowCount() + " rows");
            }
            if (i > 0 && rows[i] <= rows[i - 1]) {
                throw new IllegalArgumentException("Rows must be strictly ascending: row " + rows[i] + " at position "
                        + i + " follows " + rows[i - 1]);
            }
        }
    }

    @Override
    public String toString() {
        return "BlobReader[" + column.name() + " of " + object.key() + "]";
    }
}
