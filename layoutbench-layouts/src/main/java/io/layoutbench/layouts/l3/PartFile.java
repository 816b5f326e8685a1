package io.layoutbench.layouts.l3;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.ColumnVectorBuilder;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.predicate.ColumnStatistics;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.api.predicate.GroupStatistics;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.MetadataTable;
import io.layoutbench.layouts.common.PayloadColumns;
import io.layoutbench.layouts.common.RecordingBackend;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.parquet.BackendInputFile;
import io.layoutbench.parquet.ColumnChunkInfo;
import io.layoutbench.parquet.ColumnPageIndex;
import io.layoutbench.parquet.ColumnStats;
import io.layoutbench.parquet.FetchOptions;
import io.layoutbench.parquet.MetadataColumns;
import io.layoutbench.parquet.ParquetChecksums;
import io.layoutbench.parquet.ParquetColumn;
import io.layoutbench.parquet.ParquetFooter;
import io.layoutbench.parquet.ParquetFormatException;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.RowGroupInfo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What an L3 client keeps about one part file once loaded: the footer with each row group's statistics, the
 * metadata columns of row groups it has evaluated, and the page index of the blob column, each with the requests its
 * load took (for the cold-run plan). Loads go through the backend of the query that needs them, so a cold query
 * pays for them; what is cached serves later queries with no request. Thread-safe.
 *
 * <pre>{@code
 * PartFile part = PartFile.load(meteredBackend, backend, 0, object, null, tableSchema, null,
 *         "l3 dataset at 'mini/l3'", executor);
 * RowGroupMetadata rows = ObjectBackend.await(part.metadata(0, meteredBackend));
 * }</pre>
 */
final class PartFile implements L3Planner.Part {

    /**
     * The metadata columns of one row group, with each row's blob size, each payload field's size (-1 where the row
     * lacks it) and checksum ({@code fieldSizes[field][row]}), and the requests loading them took. A row's blob
     * holds its fields one after another in field order.
     */
    record RowGroupMetadata(ColumnarTable table, long[] sizes, long[][] fieldSizes, int[][] fieldCrcs,
            long[][] blobOffsets, List<PlannedRequest> loadRequests) {

        /** Where field {@code field} of row {@code row} starts in the part's blob file, or -1 if in the row. */
        long blobOffset(int field, int row) {
            return blobOffsets == null ? -1 : blobOffsets[field][row];
        }
    }

    private final int index;
    private final String key;
    private final String where;
    private final ParquetTableSchema schema;
    private final PayloadColumns payload;
    /** The key of the part's blob file, if it has one. */
    private final String blobsKey;
    /** The footer and page-index cache; never read through (each read uses {@link #reader}'s backend). */
    private final ParquetObject parsed;
    private final List<PlannedRequest> footerRequests;
    /** Round trips opening the part took: the footer's reads, or the metadata file's when it took more. */
    private final int openRounds;
    private final List<GroupStatistics> statistics;
    private final AtomicReferenceArray<CompletableFuture<RowGroupMetadata>> metadata;
    private final Object pageIndexLock = new Object();
    private volatile List<PlannedRequest> pageIndexRequests;

    private PartFile(int index, String key, String where, ParquetTableSchema schema, String blobsKey,
            ParquetObject parsed, List<PlannedRequest> footerRequests, int openRounds,
            List<PlannedRequest> pageIndexRequests, boolean hasMetadataFile) {
        this.index = index;
        this.key = key;
        this.where = where;
        this.schema = schema;
        this.blobsKey = blobsKey;
        this.parsed = parsed;
        this.footerRequests = List.copyOf(footerRequests);
        this.openRounds = openRounds;
        this.pageIndexRequests = pageIndexRequests;
        this.payload = PayloadColumns.of(schema.metadata());
        // With a metadata file every row group's metadata comes with the part, and evaluating it costs less than
        // turning the footer's statistics into ones the predicate can prune with: no row group is pruned.
        this.statistics = parsed.footer().rowGroups().stream().map(g -> hasMetadataFile
                ? new GroupStatistics(g.rowCount(), Map.of()) : statistics(g)).toList();
        this.metadata = new AtomicReferenceArray<>(parsed.footer().rowGroups().size());
    }

    /**
     * Reads the footer of part {@code object} through {@code backend} (one request for the tail, since the manifest
     * gives the length), checks it against the manifest's checksum of the footer region, and checks that it is an L3
     * table of {@code schema}. When the page indexes lie in that tail they are checked and parsed at once, at no
     * cost. Later loads through the part (metadata chunks, page indexes) are checked against the manifest, too.
     *
     * <p>A part with a metadata file ({@link L3Layout#METADATA_FILE}) reads it whole on {@code executor} (one
     * request), side by side with the footer, and slices it into the metadata of every row group, so no row group
     * costs a request of its own.
     *
     * @param backend      the backend the reads go through (the query's metered view)
     * @param home         the dataset's own backend, which the cached footer is bound to (and never read through)
     * @param metadataFile the part's metadata file, or null
     * @param dataset      the dataset, for errors ("l3 dataset at 'mini/l3'")
     * @throws ObjectNotFoundException naming the key if the part or its metadata file is missing
     * @throws CorruptDataException    naming the key if it is shorter than the manifest says, fails a checksum, or
     *                                 is not an L3 table; or if the metadata file does not describe the part's rows
     */
    static PartFile load(ObjectBackend backend, ObjectBackend home, int index, ManifestObject object,
            ManifestObject metadataFile, ParquetTableSchema schema, String blobsKey, String dataset,
            Executor executor) {
        String key = object.key();
        String where = "part file " + key + " of the " + dataset;
        RecordingBackend metadataRecorder = new RecordingBackend(backend);
        CompletableFuture<MetadataColumns> metadataColumns = metadataFile == null ? null
                : CompletableFuture.supplyAsync(() -> readMetadataFile(metadataRecorder, metadataFile, where),
                        executor);
        ParquetChecksums checksums = object.parquet().orElseThrow(() -> new CorruptDataException("The manifest "
                + "records no Parquet checksums for the " + where));
        RecordingBackend recorder = new RecordingBackend(backend);
        long footerStart = checksums.footer().range().offset();
        long metadataStart = checksums.pageIndexes().map(r -> r.range().offset()).orElse(footerStart);
        BackendInputFile file = new BackendInputFile(recorder, key, object.size(), FetchOptions.defaults()
                .withTailSize(openTailSize(object.size() - metadataStart, object.size() - footerStart)));
        ParquetObject opened;
        try {
            opened = ParquetObject.open(file, checksums);
            PayloadColumns payload = PayloadColumns.of(schema.metadata());
            if (opened.footer().findColumn(payload.blobOffset(0)).isPresent()) {
                // A part written after a field went out of line has the offset columns, and a blob file unless
                // none of its own fields went out of line: a row that points into a missing one fails when read.
                schema = L3Writer.tableSchema(schema.metadata(), true);
            }
            checkSchema(opened.footer(), schema, where);
        } catch (ObjectNotFoundException e) {
            throw new ObjectNotFoundException("Cannot read " + where + ": object " + key + " does not exist ("
                    + e.getMessage() + ")", e);
        } catch (RangeNotSatisfiableException e) {
            throw new CorruptDataException("Cannot read the footer of " + where + ": it is shorter than the "
                    + object.size() + " bytes the manifest records (truncated?): " + e.getMessage(), e);
        } catch (ParquetFormatException e) {
            throw new CorruptDataException("Cannot read " + where + " (" + object.size() + " bytes per the "
                    + "manifest): " + e.getMessage(), e);
        }
        List<PlannedRequest> pageIndexRequests = null;
        Optional<ByteRange> pageIndexes = opened.footer().pageIndexRange();
        long tailStart = Math.max(0, object.size() - file.options().tailSize());
        if (pageIndexes.isPresent() && pageIndexes.get().offset() >= tailStart) {
            // The tail, fetched already, holds them: parsing costs no request.
            parseBlobPageIndexes(opened, schema.blobColumns(), where);
            pageIndexRequests = List.of();
        }
        // Keep the parsed footer but not the fetched tail: a copy bound to the dataset's backend holds no buffers
        // (and no reference to this query's metered view).
        ParquetObject parsed = opened.withBackend(home, FetchOptions.defaults());
        List<PlannedRequest> footerRequests = recorder.recorded();
        if (metadataColumns == null) {
            return new PartFile(index, key, where, schema, blobsKey, parsed, footerRequests, footerRequests.size(),
                    pageIndexRequests, false);
        }
        MetadataColumns columns = ObjectBackend.await(metadataColumns);
        List<PlannedRequest> metadataRequests = metadataRecorder.recorded();
        List<PlannedRequest> opening = new ArrayList<>(footerRequests);
        opening.addAll(metadataRequests);
        PartFile part = new PartFile(index, key, where, schema, blobsKey, parsed, opening,
                Math.max(footerRequests.size(), metadataRequests.size()), pageIndexRequests, true);
        part.sliceMetadataFile(columns, metadataFile.key());
        return part;
    }

    /**
     * Largest footer and page indexes read in the one request opening a part: 1 MiB. Beyond it the first read is the
     * footer alone (up to 1 MiB, else the default 64 KiB tail), and the page indexes are read when a query needs
     * them.
     */
    static final long MAX_OPEN_TAIL = 1L << 20;

    /**
     * Bytes the request opening a part reads from its end, whose page indexes and footer take {@code metadataBytes}
     * and footer alone {@code footerBytes} (Thrift footer, length and magic): all of them up to
     * {@link #MAX_OPEN_TAIL}, so a part whose footer passes the default tail (one of many row groups) takes one round
     * trip, not three (tail, rest of the footer, page indexes); else the footer whole up to that size (its page
     * indexes then take a request when a query needs them); else the default tail. The model opens its parts with
     * this, too.
     */
    static int openTailSize(long metadataBytes, long footerBytes) {
        long tail = metadataBytes <= MAX_OPEN_TAIL ? metadataBytes
                : footerBytes <= MAX_OPEN_TAIL ? footerBytes : FetchOptions.DEFAULT_TAIL_SIZE;
        return (int) Math.max(FetchOptions.DEFAULT_TAIL_SIZE, tail);
    }

    /**
     * Largest metadata file read whole, in one request; a larger one is read as a Parquet object (tail, then
     * chunks). 16 MiB, the largest merged request of {@link FetchOptions}: metadata of some 200,000 samples.
     */
    static final int WHOLE_METADATA_FILE = 16 << 20;

    /** Every column of metadata file {@code object}, read whole when it is small and checked against the manifest. */
    private static MetadataColumns readMetadataFile(ObjectBackend backend, ManifestObject object, String part) {
        String what = "metadata file " + object.key() + " of the " + part;
        ParquetChecksums checksums = object.parquet().orElseThrow(() -> new CorruptDataException("The manifest "
                + "records no Parquet checksums for the " + what));
        int tail = (int) Math.max(8, Math.min(object.size(), WHOLE_METADATA_FILE));
        BackendInputFile file = new BackendInputFile(backend, object.key(), object.size(),
                FetchOptions.defaults().withTailSize(tail));
        try {
            // Opening reads the tail, here the whole file: the columns are decoded from it with no more requests.
            return ParquetObject.open(file, checksums).readMetadataColumns();
        } catch (ObjectNotFoundException e) {
            throw new ObjectNotFoundException("Cannot read the " + what + ": object " + object.key()
                    + " does not exist (" + e.getMessage() + ")", e);
        } catch (RangeNotSatisfiableException e) {
            throw new CorruptDataException("Cannot read the " + what + ": it is shorter than the " + object.size()
                    + " bytes the manifest records (truncated?): " + e.getMessage(), e);
        } catch (ParquetFormatException e) {
            throw new CorruptDataException("Cannot read the " + what + " (" + object.size() + " bytes per the "
                    + "manifest): " + e.getMessage(), e);
        }
    }

    /**
     * Caches the metadata of every row group from {@code columns}, the part's metadata file ({@code key}): rows in
     * part order, which the row groups' row counts split. Its loads are the part's opening reads, so each row
     * group's metadata records none.
     */
    private void sliceMetadataFile(MetadataColumns columns, String key) {
        if (columns.rowCount() != parsed.footer().rowCount()) {
            throw new CorruptDataException("Metadata file " + key + " holds " + columns.rowCount() + " rows but "
                    + where + " holds " + parsed.footer().rowCount() + ": they were not written together");
        }
        Map<String, ColumnType> expected = new HashMap<>();
        for (int i = 0; i < schema.metadataNames().size(); i++) {
            expected.put(schema.metadataNames().get(i), schema.metadata().columns().get(i).type());
        }
        schema.extraColumns().forEach(extra -> expected.put(extra.name(), extra.type()));
        for (String name : metadataNames()) {
            Optional<ColumnVector> column = columns.find(name);
            if (column.isEmpty() || column.get().type() != expected.get(name)) {
                throw new CorruptDataException("Metadata file " + key + " does not describe " + where + ": expected "
                        + "column '" + name + "' of type " + expected.get(name) + ", found "
                        + column.map(c -> c.type().name()).orElse("no such column"));
            }
        }
        for (RowGroupInfo rowGroup : parsed.footer().rowGroups()) {
            int from = Math.toIntExact(rowGroup.firstRow());
            int to = Math.toIntExact(rowGroup.firstRow() + rowGroup.rowCount());
            List<ColumnVector> sliced = new ArrayList<>(columns.names().size());
            for (ColumnVector column : columns.columns()) {
                sliced.add(slice(column, from, to));
            }
            MetadataColumns group = new MetadataColumns(to - from, columns.names(), sliced);
            metadata.set(rowGroup.index(), CompletableFuture.completedFuture(toRowGroupMetadata(group,
                    "row group " + rowGroup.index() + " of " + where + " (from metadata file " + key + ")",
                    List.of())));
        }
    }

    /** The key of the part's blob file (fields stored out of line), or null. */
    String blobsKey() {
        return blobsKey;
    }

    /** Position of this part among the dataset's parts. */
    @Override
    public int index() {
        return index;
    }

    @Override
    public String key() {
        return key;
    }

    /** "part file KEY of the l3 dataset at 'PREFIX'", for errors. */
    String where() {
        return where;
    }

    ParquetFooter footer() {
        return parsed.footer();
    }

    /** The reads opening the part took: its footer's and, if it has one, its metadata file's. */
    @Override
    public List<PlannedRequest> footerRequests() {
        return footerRequests;
    }

    @Override
    public int openRounds() {
        return openRounds;
    }

    @Override
    public int rowGroupCount() {
        return parsed.footer().rowGroups().size();
    }

    /**
     * Statistics of row group {@code rowGroup} from the footer, keyed by metadata column name; none (nothing to
     * prune with) for a part with a metadata file.
     */
    @Override
    public GroupStatistics statistics(int rowGroup) {
        return statistics.get(rowGroup);
    }

    @Override
    public List<ByteRange> chunkRanges(int rowGroup) {
        return parsed.footer().rowGroup(rowGroup).columns().stream().map(ColumnChunkInfo::byteRange).toList();
    }

    /** This part read through {@code backend}: no request, the footer and page indexes are shared. */
    ParquetObject reader(ObjectBackend backend, FetchOptions options) {
        return parsed.withBackend(backend, options);
    }

    /**
     * The metadata columns and checksums of row group {@code rowGroup}, loaded through {@code backend} (one request
     * for the adjacent metadata chunks) on first use, then cached; a part with a metadata file has them all from
     * when it was loaded. A failed load is forgotten, so a later query
     * tries again.
     */
    CompletableFuture<RowGroupMetadata> metadata(int rowGroup, ObjectBackend backend) {
        while (true) {
            CompletableFuture<RowGroupMetadata> cached = metadata.get(rowGroup);
            if (cached != null) {
                return cached;
            }
            CompletableFuture<RowGroupMetadata> loading = new CompletableFuture<>();
            if (metadata.compareAndSet(rowGroup, null, loading)) {
                loadMetadata(rowGroup, backend).whenComplete((loaded, failure) -> {
                    if (failure != null) {
                        metadata.compareAndSet(rowGroup, loading, null);
                        loading.completeExceptionally(failure);
                    } else {
                        loading.complete(loaded);
                    }
                });
                return loading;
            }
        }
    }

    private CompletableFuture<RowGroupMetadata> loadMetadata(int rowGroup, ObjectBackend backend) {
        RecordingBackend recorder = new RecordingBackend(backend);
        CompletableFuture<MetadataColumns> read;
        try {
            read = parsed.withBackend(recorder, FetchOptions.defaults()).readColumnsAsync(rowGroup, metadataNames());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return read.thenApply(columns -> toRowGroupMetadata(columns, "row group " + rowGroup + " of " + where,
                recorder.recorded()));
    }

    /** The columns a row group's metadata is made of: metadata, checksums, sizes and, if any, blob-file offsets. */
    private List<String> metadataNames() {
        List<String> names = new ArrayList<>(schema.metadataNames());
        for (int f = 0; f < payload.count(); f++) {
            names.add(payload.checksum(f));
            if (payload.sizeIsExtra(f)) {
                names.add(payload.size(f));
            }
            if (outOfLine()) {
                names.add(payload.blobOffset(f));
            }
        }
        return names;
    }

    /** Whether the part has the blob-offset columns (whether or not any of its own fields went out of line). */
    private boolean outOfLine() {
        String firstOffset = payload.blobOffset(0);
        return schema.extraColumns().stream().anyMatch(c -> c.name().equals(firstOffset));
    }

    /**
     * Rows {@code [from, to)} of {@code column}: arrays copied; a string column's values in a dictionary of their
     * own.
     */
    private static ColumnVector slice(ColumnVector column, int from, int to) {
        if (column instanceof ColumnVector.Longs l) {
            return new ColumnVector.Longs(Arrays.copyOfRange(l.values(), from, to), sliceNulls(l.nulls(), from, to));
        }
        if (column instanceof ColumnVector.Doubles d) {
            return new ColumnVector.Doubles(Arrays.copyOfRange(d.values(), from, to), sliceNulls(d.nulls(), from, to));
        }
        if (column instanceof ColumnVector.Booleans b) {
            return new ColumnVector.Booleans(Arrays.copyOfRange(b.values(), from, to),
                    sliceNulls(b.nulls(), from, to));
        }
        // A string column gets a dictionary of its own rows' values: a predicate on strings is evaluated per
        // dictionary entry (LIKE, for one), so sharing the part's dictionary would evaluate all of it per row group.
        ColumnVectorBuilder.Strings strings = ColumnVectorBuilder.strings(to - from);
        for (int row = from; row < to; row++) {
            strings.append(column, row);
        }
        return strings.build();
    }

    private static long[] sliceNulls(long[] nulls, int from, int to) {
        if (nulls.length == 0) {
            return ColumnVector.NO_NULLS;
        }
        long[] sliced = new long[ColumnVector.bitmapWords(to - from)];
        for (int row = from; row < to; row++) {
            if (ColumnVector.isNull(nulls, row)) {
                sliced[(row - from) >>> 6] |= 1L << (row - from);
            }
        }
        return sliced;   // the record makes a bitmap without a set bit NO_NULLS
    }

    /** A row group's metadata from its decoded columns; {@code group} names it in errors. */
    private RowGroupMetadata toRowGroupMetadata(MetadataColumns columns, String group,
            List<PlannedRequest> loadRequests) {
        boolean outOfLine = outOfLine();
        ColumnarTable table = MetadataTable.toColumnarTable(columns, schema);
        long[][] fieldSizes = new long[payload.count()][];
        int[][] fieldCrcs = new int[payload.count()][];
        for (int f = 0; f < payload.count(); f++) {
            String size = payload.sizeIsExtra(f) ? payload.size(f) : schema.physicalName(payload.size(f));
            fieldSizes[f] = payload.single() ? notNullLongs(columns, size, group, "size")
                    : orMinusOne(columns, size, group);
            long[] crcs = payload.single() ? notNullLongs(columns, payload.checksum(f), group, "checksum")
                    : orMinusOne(columns, payload.checksum(f), group);
            fieldCrcs[f] = new int[crcs.length];
            for (int row = 0; row < crcs.length; row++) {
                fieldCrcs[f][row] = MetadataParquet.crc(crcs[row]);
            }
        }
        long[][] blobOffsets = null;
        if (outOfLine) {
            blobOffsets = new long[payload.count()][];
            for (int f = 0; f < payload.count(); f++) {
                blobOffsets[f] = orMinusOne(columns, payload.blobOffset(f), group);
            }
        }
        long[] sizes = fieldSizes[0];
        if (!payload.single()) {
            sizes = new long[table.rowCount()];
            for (long[] field : fieldSizes) {
                for (int row = 0; row < sizes.length; row++) {
                    sizes[row] += Math.max(0, field[row]);
                }
            }
        }
        return new RowGroupMetadata(table, sizes, fieldSizes, fieldCrcs, blobOffsets, loadRequests);
    }

    /** A BIGINT column of a field's sizes or checksums, NULL (a row without the field) as -1. */
    private static long[] orMinusOne(MetadataColumns columns, String name, String group) {
        if (!(columns.column(name) instanceof ColumnVector.Longs values)) {
            throw new CorruptDataException("Column " + name + " of " + group + " is not a BIGINT column");
        }
        return PayloadColumns.orMinusOne(values);
    }

    /** A BIGINT column that every sample needs a value of. */
    private static long[] notNullLongs(MetadataColumns columns, String name, String group, String what) {
        if (!(columns.column(name) instanceof ColumnVector.Longs values) || values.hasNulls()) {
            throw new CorruptDataException("Column " + name + " of " + group + " is not a BIGINT column without "
                    + "NULLs; every sample needs its " + what);
        }
        return values.values();
    }

    /**
     * Makes sure the blob column's page indexes of every row group are cached, loading them through
     * {@code backend} (one request for the page-index region) if the footer's tail did not hold them.
     *
     * @return the requests the load took, whether now or earlier (empty when the tail held them)
     */
    List<PlannedRequest> loadPageIndexes(ObjectBackend backend) {
        List<PlannedRequest> loaded = pageIndexRequests;
        if (loaded != null) {
            return loaded;
        }
        synchronized (pageIndexLock) {
            if (pageIndexRequests == null) {
                RecordingBackend recorder = new RecordingBackend(backend);
                parseBlobPageIndexes(parsed.withBackend(recorder, FetchOptions.defaults()), schema.blobColumns(),
                        where);
                pageIndexRequests = recorder.recorded();
            }
            return pageIndexRequests;
        }
    }

    /** {@link #loadPageIndexes} on {@code executor}; completes at once when they are cached. */
    CompletableFuture<List<PlannedRequest>> loadPageIndexesAsync(ObjectBackend backend, Executor executor) {
        List<PlannedRequest> loaded = pageIndexRequests;
        if (loaded != null) {
            return CompletableFuture.completedFuture(loaded);
        }
        return CompletableFuture.supplyAsync(() -> loadPageIndexes(backend), executor);
    }

    /** The pages of blob column {@code column} in row group {@code rowGroup}, once {@link #loadPageIndexes} ran. */
    @Override
    public ColumnPageIndex blobPages(int rowGroup, String column) {
        if (pageIndexRequests == null) {
            throw new IllegalStateException("Page indexes of " + where + " are not loaded");
        }
        // Cached by the shared page-index map, so this sends no request.
        return parsed.pageIndex(rowGroup, column);
    }

    private static void parseBlobPageIndexes(ParquetObject object, List<String> blobColumns, String where) {
        try {
            for (int rowGroup = 0; rowGroup < object.footer().rowGroups().size(); rowGroup++) {
                for (String blobColumn : blobColumns) {
                    object.pageIndex(rowGroup, blobColumn);
                }
            }
        } catch (ParquetFormatException e) {
            throw new CorruptDataException("Cannot read the blob page index of " + where + ": " + e.getMessage(), e);
        }
    }

    /** Row-group statistics from the footer, under the metadata columns' names; unknown columns are left out. */
    private GroupStatistics statistics(RowGroupInfo rowGroup) {
        Map<String, ColumnStatistics> columns = new HashMap<>();
        List<Column> metadataColumns = schema.metadata().columns();
        for (int i = 0; i < metadataColumns.size(); i++) {
            ColumnChunkInfo chunk = rowGroup.column(schema.metadataNames().get(i));
            Optional<ColumnStats> stats = chunk.stats();
            if (stats.isEmpty()) {
                continue;
            }
            ColumnStatistics column = stats.get().toColumnStatistics(rowGroup.rowCount());
            columns.put(metadataColumns.get(i).name(), column);
        }
        return new GroupStatistics(rowGroup.rowCount(), columns);
    }

    private static void checkSchema(ParquetFooter footer, ParquetTableSchema schema, String where) {
        List<Column> columns = schema.metadata().columns();
        for (int i = 0; i < columns.size(); i++) {
            expect(footer, schema.metadataNames().get(i), Optional.of(columns.get(i).type()), where);
        }
        for (Column extra : schema.extraColumns()) {
            expect(footer, extra.name(), Optional.of(extra.type()), where);
        }
        for (String blob : schema.blobColumns()) {
            expect(footer, blob, Optional.empty(), where);
        }
    }

    private static void expect(ParquetFooter footer, String name, Optional<ColumnType> type, String where) {
        Optional<ParquetColumn> column = footer.findColumn(name);
        if (column.isEmpty() || !column.get().type().equals(type)
                || (type.isEmpty() && !column.get().isBlob())) {
            throw new CorruptDataException("The footer of " + where + " does not describe an L3 table: expected "
                    + "column '" + name + "' of type " + type.map(Enum::name).orElse("BINARY (blob)") + ", found "
                    + column.map(c -> c.physicalType() + c.type().map(t -> " (" + t + ")").orElse(""))
                            .orElse("no such column"));
        }
    }
}
