package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVector;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.apache.parquet.VersionParser;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.Util;

/**
 * One Parquet object in an object store, opened for reading: its footer, its page indexes, its metadata columns as
 * arrays ({@link #readColumns}), and, through {@link BlobReader}, single blobs. Reads go through a
 * {@link BackendInputFile}, so that opening costs one request for the tail (plus one for the object's size unless
 * it was given, plus one when the footer is larger than {@link FetchOptions#tailSize()}), and the page indexes one
 * more (none when they lie in the tail).
 *
 * <p><b>Integrity.</b> Every page decoded is checked against its CRC32, when its writer recorded one. Opened with
 * {@link ParquetChecksums} recorded when the object was written ({@link #open(BackendInputFile, ParquetChecksums)}),
 * it also checks the footer region, the page-index region and each row group's metadata chunks as it reads them,
 * from the bytes it fetches anyway; a mismatch is a {@code CorruptDataException} naming the object and the region.
 *
 * <p>Thread-safe: the footer is immutable, page indexes are loaded once and cached.
 *
 * <pre>{@code
 * ParquetObject table = ParquetObject.open(backend, "l3/part-00000.parquet");
 * MetadataColumns metadata = table.readMetadataColumns();                   // every non-blob column
 * ColumnPageIndex pages = table.pageIndex(0, "image_bytes");                // page offsets and first rows
 * List<ByteBuffer> images = new BlobReader(table, "image_bytes").read(0, new int[] {3, 17, 250});
 * }</pre>
 */
public final class ParquetObject {

    /** Row groups whose column chunks are being fetched while earlier ones are decoded, by {@link #readColumns}. */
    static final int ROW_GROUPS_IN_FLIGHT = 8;

    private final BackendInputFile file;
    private final ParquetFooter footer;
    /** The regions' checksums to check reads against, or null. */
    private final ParquetChecksums expected;
    /** The indexes of the columns whose chunks {@link ParquetChecksums#metadataChunks()} covers, ascending. */
    private final int[] metadataColumns;
    private final VersionParser.ParsedVersion writerVersion;
    private final ConcurrentMap<Long, ColumnPageIndex> pageIndexes;
    /** Whether this object's file has checked the page-index region it keeps: each copy checks what it fetched. */
    private volatile boolean pageIndexesChecked;

    private ParquetObject(BackendInputFile file, ParquetChecksums expected) {
        this.file = requireNonNull(file, "file is null");
        this.footer = ParquetFooter.read(file, expected);
        this.expected = expected;
        this.metadataColumns = ParquetChecksums.metadataColumns(footer).stream().mapToInt(ParquetColumn::index)
                .toArray();
        this.writerVersion = writerVersion(footer);
        this.pageIndexes = new ConcurrentHashMap<>();
    }

    private ParquetObject(BackendInputFile file, ParquetObject parsed) {
        this.file = file;
        this.footer = parsed.footer;
        this.expected = parsed.expected;
        this.metadataColumns = parsed.metadataColumns;
        this.writerVersion = parsed.writerVersion;
        this.pageIndexes = parsed.pageIndexes;
    }

    /** Opens {@code key} of {@code backend} with the default {@link FetchOptions}, reading its footer. */
    public static ParquetObject open(ObjectBackend backend, String key) {
        return open(new BackendInputFile(backend, key));
    }

    /**
     * Opens the object {@code file} reads, reading its footer.
     *
     * @throws ParquetFormatException if the object is not a flat Parquet table (bad magic, truncated footer...)
     */
    public static ParquetObject open(BackendInputFile file) {
        return new ParquetObject(file, (ParquetChecksums) null);
    }

    /**
     * Opens the object {@code file} reads, reading its footer, and checks what it reads against {@code expected}
     * (recorded when the object was written): the footer region now, the page-index region when it is loaded, and a
     * row group's metadata chunks when {@link #readColumns} or {@link #readColumnsAsync} read all of them. Checking
     * costs no request: it uses the bytes that reading fetches anyway. Copies made with {@link #withBackend} check as
     * this one does.
     *
     * @throws CorruptDataException   naming the object and region when the footer region fails its checksum
     * @throws ParquetFormatException if the object is not a flat Parquet table
     */
    public static ParquetObject open(BackendInputFile file, ParquetChecksums expected) {
        return new ParquetObject(file, requireNonNull(expected, "expected is null"));
    }

    /** The checksums this object checks its reads against, if it was opened with them. */
    public Optional<ParquetChecksums> expectedChecksums() {
        return Optional.ofNullable(expected);
    }

    /**
     * This object read through {@code backend} with {@code options}, without a request: the parsed footer is reused,
     * and page indexes parsed by either object are cached for both. The new object's file keeps no fetched region
     * (not even the tail), so each of its reads is a request through {@code backend}, unless served from a page
     * index cached already. Use it to count one query's reads in a per-query backend view while footers and page
     * indexes stay cached across queries.
     *
     * <pre>{@code
     * ParquetObject cached = ParquetObject.open(backend, key);                  // footer read once
     * ParquetObject forQuery = cached.withBackend(backend.withMetrics(metrics), FetchOptions.defaults());
     * }</pre>
     */
    public ParquetObject withBackend(ObjectBackend backend, FetchOptions options) {
        return new ParquetObject(new BackendInputFile(backend, key(), footer.objectLength(), options), this);
    }

    /** The file this object is read through. */
    public BackendInputFile file() {
        return file;
    }

    /** The object's key. */
    public String key() {
        return file.key();
    }

    /** The footer. */
    public ParquetFooter footer() {
        return footer;
    }

    /**
     * Fetches the region of all page indexes in one request and keeps it (no request when it lies in the tail
     * already fetched). Called by {@link #pageIndex} when needed; call it first to control when the request is sent.
     */
    public void loadPageIndexes() {
        footer.pageIndexRange().ifPresent(range -> {
            ByteBuffer bytes = file.retain(range);
            if (expected != null && !pageIndexesChecked) {
                expected.pageIndexes().orElseThrow().verify("the page-index region of " + key(), bytes);
                pageIndexesChecked = true;
            }
        });
    }

    /**
     * The pages of {@code column} in row group {@code rowGroup}, from its offset index and, when written, its column
     * index. The first call loads the page-index region ({@link #loadPageIndexes}); results are cached.
     *
     * @throws ParquetFormatException if the chunk has no offset index or it is corrupt
     */
    public ColumnPageIndex pageIndex(int rowGroup, String column) {
        RowGroupInfo group = footer.rowGroup(rowGroup);
        ColumnChunkInfo chunk = group.column(column);
        long cacheKey = ((long) rowGroup << 32) | chunk.columnIndex();
        ColumnPageIndex cached = pageIndexes.get(cacheKey);
        if (cached != null) {
            return cached;
        }
        loadPageIndexes();
        ColumnPageIndex parsed = parsePageIndex(group, chunk);
        ColumnPageIndex raced = pageIndexes.putIfAbsent(cacheKey, parsed);
        return raced != null ? raced : parsed;
    }

    /** Every column that has a metadata type (all but blob columns), as arrays. */
    public MetadataColumns readMetadataColumns() {
        return readColumns(footer.columns().stream().filter(c -> c.type().isPresent())
                .map(ParquetColumn::name).toList());
    }

    /**
     * The named columns (ignoring case) of all rows, as arrays. Per row group, the chunks of these columns are
     * fetched with as few requests as the file's {@link FetchOptions#mergeGap()} allows (one, for the metadata
     * columns of a table written by {@link ParquetTableWriter}, which lie together), and
     * {@value #ROW_GROUPS_IN_FLIGHT} row groups are fetched ahead while earlier ones are decoded.
     *
     * @throws IllegalArgumentException if a column does not exist or is a blob column
     * @throws ParquetFormatException   if a chunk cannot be decoded, naming the row group, column and offset
     */
    public MetadataColumns readColumns(List<String> names) {
        List<ParquetColumn> columns = metadataColumns(names);
        if (footer.rowCount() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("Cannot read the columns of " + key() + " into arrays: "
                    + footer.rowCount() + " rows is more than an array holds");
        }
        int rowCount = (int) footer.rowCount();
        List<ColumnDecoder> decoders = columns.stream().map(c -> ColumnDecoder.create(c, rowCount)).toList();
        List<ColumnDescriptor> descriptors = columns.stream()
                .map(c -> footer.messageType().getColumnDescription(new String[] {c.name()})).toList();
        List<RowGroupInfo> rowGroups = footer.rowGroups();
        Deque<CompletableFuture<List<ByteBuffer>>> inFlight = new ArrayDeque<>();
        int next = 0;
        for (RowGroupInfo rowGroup : rowGroups) {
            while (next < rowGroups.size() && inFlight.size() < ROW_GROUPS_IN_FLIGHT) {
                RowGroupInfo ahead = rowGroups.get(next++);
                inFlight.add(file.readAllAsync(columns.stream()
                        .map(c -> ahead.columns().get(c.index()).byteRange()).toList()));
            }
            List<ByteBuffer> chunks = ObjectBackend.await(inFlight.poll());
            verifyMetadataChunks(rowGroup, columns, chunks);
            for (int c = 0; c < columns.size(); c++) {
                ColumnChunkInfo chunk = rowGroup.columns().get(columns.get(c).index());
                decoders.get(c).decode(chunks.get(c), chunk, rowGroup.firstRow(), descriptors.get(c), writerVersion,
                        PageDecompressor.NONE, where(rowGroup.index(), chunk.column()));
            }
        }
        return new MetadataColumns(rowCount, columns.stream().map(ParquetColumn::name).toList(),
                decoders.stream().map(ColumnDecoder::finish).toList());
    }

    /**
     * The named columns (ignoring case) of the rows of row group {@code rowGroup} only, as arrays indexed by row
     * within the row group. The chunks are fetched with as few requests as {@link FetchOptions#mergeGap()} allows
     * (one for the metadata columns of a table written by {@link ParquetTableWriter}).
     *
     * @return a future that fails with {@link ParquetFormatException} naming the row group, column and offset if a
     *         chunk cannot be decoded
     * @throws IllegalArgumentException if a column does not exist or is a blob column, or there is no such row group
     */
    public CompletableFuture<MetadataColumns> readColumnsAsync(int rowGroup, List<String> names) {
        return readColumnsAsync(rowGroup, names, PageDecompressor.NONE);
    }

    /**
     * {@link #readColumnsAsync(int, List)} of a file whose pages may be compressed, with {@code decompressor} (for
     * example {@link CommonDecompressor}): what other tools write.
     */
    public CompletableFuture<MetadataColumns> readColumnsAsync(int rowGroup, List<String> names,
            PageDecompressor decompressor) {
        requireNonNull(decompressor, "decompressor is null");
        List<ParquetColumn> columns = metadataColumns(names);
        RowGroupInfo group = footer.rowGroup(rowGroup);
        int rowCount = Math.toIntExact(group.rowCount());
        List<ColumnDescriptor> descriptors = columns.stream()
                .map(c -> footer.messageType().getColumnDescription(new String[] {c.name()})).toList();
        return file.readAllAsync(columns.stream().map(c -> group.columns().get(c.index()).byteRange()).toList())
                .thenApply(chunks -> {
                    verifyMetadataChunks(group, columns, chunks);
                    List<ColumnVector> values = new ArrayList<>(columns.size());
                    for (int c = 0; c < columns.size(); c++) {
                        ColumnChunkInfo chunk = group.columns().get(columns.get(c).index());
                        ColumnDecoder decoder = ColumnDecoder.create(columns.get(c), rowCount);
                        decoder.decode(chunks.get(c), chunk, 0, descriptors.get(c), writerVersion,
                                decompressor, where(group.index(), chunk.column()));
                        values.add(decoder.finish());
                    }
                    return new MetadataColumns(rowCount, columns.stream().map(ParquetColumn::name).toList(),
                            values);
                });
    }

    /**
     * Checks the chunks of {@code columns} of {@code group} against their checksum when they are all the metadata
     * chunks the checksum covers; a subset is left to the pages' own CRCs.
     */
    private void verifyMetadataChunks(RowGroupInfo group, List<ParquetColumn> columns, List<ByteBuffer> chunks) {
        if (expected == null || columns.isEmpty() || columns.size() != metadataColumns.length) {
            return;
        }
        ByteBuffer[] inColumnOrder = new ByteBuffer[metadataColumns.length];
        for (int c = 0; c < columns.size(); c++) {
            int position = java.util.Arrays.binarySearch(metadataColumns, columns.get(c).index());
            if (position < 0 || inColumnOrder[position] != null) {
                return;
            }
            inColumnOrder[position] = chunks.get(c);
        }
        ByteRange span = group.columns().get(metadataColumns[0]).byteRange()
                .span(group.columns().get(metadataColumns[metadataColumns.length - 1]).byteRange());
        ParquetChecksums.verify(expected.metadataChunks().get(group.index()), "the metadata column chunks of row "
                + "group " + group.index() + " of " + key() + " " + span, inColumnOrder);
    }

    private List<ParquetColumn> metadataColumns(List<String> names) {
        requireNonNull(names, "names is null");
        List<ParquetColumn> columns = new ArrayList<>();
        for (String name : names) {
            ParquetColumn column = footer.column(name);
            if (column.type().isEmpty()) {
                throw new IllegalArgumentException("Column " + column.name() + " of " + key() + " is "
                        + column.physicalType() + " with no metadata type (a blob column?); read it with BlobReader");
            }
            columns.add(column);
        }
        return columns;
    }

    /**
     * Decodes one column chunk that was fetched elsewhere: {@code chunk} holds exactly the bytes of
     * {@code footer.rowGroup(rowGroup).column(column).byteRange()}. Values are indexed by row within the row group.
     * For code that holds chunks without the object, such as a storage node that holds a block of it.
     *
     * <pre>{@code
     * ColumnChunkInfo info = footer.rowGroup(2).column("l_quantity");
     * ColumnVector quantities = ParquetObject.decodeChunk(footer, 2, "l_quantity", blockSlice, snappy);
     * }</pre>
     *
     * @throws ParquetFormatException naming the row group, column and offset when the chunk cannot be decoded
     * @throws IllegalArgumentException if the column does not exist or is a blob column
     */
    public static ColumnVector decodeChunk(ParquetFooter footer, int rowGroup, String column, ByteBuffer chunk,
            PageDecompressor decompressor) {
        requireNonNull(chunk, "chunk is null");
        requireNonNull(decompressor, "decompressor is null");
        ParquetColumn parquetColumn = footer.column(column);
        if (parquetColumn.type().isEmpty()) {
            throw new IllegalArgumentException("Column " + parquetColumn.name() + " of " + footer.key() + " is "
                    + parquetColumn.physicalType() + " with no metadata type (a blob column?); read it with "
                    + "BlobReader");
        }
        RowGroupInfo group = footer.rowGroup(rowGroup);
        ColumnChunkInfo info = group.columns().get(parquetColumn.index());
        String where = "column " + info.column() + " of row group " + rowGroup + " of " + footer.key();
        if (chunk.remaining() != info.byteRange().length()) {
            throw new ParquetFormatException("Cannot decode " + where + ": got " + chunk.remaining()
                    + " bytes but the chunk is " + info.byteRange().length() + " bytes at " + info.byteRange());
        }
        ColumnDescriptor descriptor = footer.messageType().getColumnDescription(new String[] {parquetColumn.name()});
        ColumnDecoder decoder = ColumnDecoder.create(parquetColumn, Math.toIntExact(group.rowCount()));
        decoder.decode(chunk, info, 0, descriptor, writerVersion(footer), decompressor, where);
        return decoder.finish();
    }

    private static VersionParser.ParsedVersion writerVersion(ParquetFooter footer) {
        try {
            return VersionParser.parse(footer.createdBy());
        } catch (RuntimeException | VersionParser.VersionParseException e) {
            return null;   // only used to work around bugs of old writers
        }
    }

    @Override
    public String toString() {
        return "ParquetObject[" + file + ", " + footer.rowCount() + " rows, " + footer.rowGroups().size()
                + " row groups]";
    }

    /** "column X of row group N of KEY", for errors. */
    String where(int rowGroup, String column) {
        return "column " + column + " of row group " + rowGroup + " of " + key();
    }

    private ColumnPageIndex parsePageIndex(RowGroupInfo group, ColumnChunkInfo chunk) {
        String where = where(group.index(), chunk.column());
        ByteRange offsetRange = chunk.offsetIndexRange().orElseThrow(() -> new ParquetFormatException(
                "Cannot locate the pages of " + where + ": it has no offset index (written without page indexes?)"));
        OffsetIndex offsetIndex;
        try {
            offsetIndex = Util.readOffsetIndex(new ByteBufferInputStream(file.read(offsetRange)));
        } catch (IOException | RuntimeException e) {
            throw new ParquetFormatException("Cannot parse the offset index of " + where + " at " + offsetRange
                    + ": " + e.getMessage(), e);
        }
        ParquetColumn column = footer.columns().get(chunk.columnIndex());
        ColumnIndex columnIndex = null;
        if (chunk.columnIndexRange().isPresent() && column.type().isPresent()) {
            ByteRange columnRange = chunk.columnIndexRange().get();
            try {
                columnIndex = Util.readColumnIndex(new ByteBufferInputStream(file.read(columnRange)));
            } catch (IOException | RuntimeException e) {
                throw new ParquetFormatException("Cannot parse the column index of " + where + " at " + columnRange
                        + ": " + e.getMessage(), e);
            }
        }
        List<PageLocation> locations = offsetIndex.getPage_locations();
        if (columnIndex != null && columnIndex.getNull_pagesSize() != locations.size()) {
            throw new ParquetFormatException("The column index of " + where + " describes "
                    + columnIndex.getNull_pagesSize() + " pages but its offset index " + locations.size());
        }
        List<PageInfo> pages = new ArrayList<>(locations.size());
        for (int i = 0; i < locations.size(); i++) {
            PageLocation location = locations.get(i);
            long nextFirstRow = i + 1 < locations.size() ? locations.get(i + 1).getFirst_row_index() : group.rowCount();
            ByteRange pageRange = ByteRange.of(location.getOffset(), location.getCompressed_page_size());
            if (!chunk.byteRange().contains(pageRange) || nextFirstRow < location.getFirst_row_index()) {
                throw new ParquetFormatException("The offset index of " + where + " puts page " + i + " at "
                        + pageRange + " holding rows from " + location.getFirst_row_index() + " to " + nextFirstRow
                        + ", outside its chunk " + chunk.byteRange() + " of " + group.rowCount() + " rows");
            }
            Optional<ColumnStats> stats = columnIndex == null ? Optional.empty()
                    : Optional.of(pageStats(column, columnIndex, i));
            pages.add(new PageInfo(i, location.getOffset(), location.getCompressed_page_size(),
                    location.getFirst_row_index(), nextFirstRow - location.getFirst_row_index(), stats));
        }
        return new ColumnPageIndex(group.index(), chunk.column(), pages);
    }

    private static ColumnStats pageStats(ParquetColumn column, ColumnIndex index, int page) {
        ColumnType type = column.type().orElseThrow();
        long nullCount = index.isSetNull_counts() ? index.getNull_counts().get(page) : -1;
        if (index.getNull_pages().get(page)) {
            return new ColumnStats(type, null, null, nullCount);
        }
        Object min = ParquetFooter.decodeValue(column, index.getMin_values().get(page));
        Object max = ParquetFooter.decodeValue(column, index.getMax_values().get(page));
        return min == null || max == null
                ? new ColumnStats(type, null, null, nullCount)
                : new ColumnStats(type, min, max, nullCount);
    }
}
