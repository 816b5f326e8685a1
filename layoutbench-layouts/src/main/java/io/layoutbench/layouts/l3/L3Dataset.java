package io.layoutbench.layouts.l3;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultRange;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.SupportsMetadataScan;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.ManifestDataset;
import io.layoutbench.layouts.common.PreparedResult;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.PayloadColumns;
import io.layoutbench.layouts.common.SampleChecksum;
import io.layoutbench.layouts.common.SampleKeys;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.layouts.retrieval.FieldRead;
import io.layoutbench.layouts.retrieval.LazyBlob;
import io.layoutbench.layouts.retrieval.ReadTask;
import io.layoutbench.parquet.BlobReader;
import io.layoutbench.parquet.FetchOptions;
import io.layoutbench.parquet.ParquetTableSchema;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * An L3 dataset: its part files' footers, row-group metadata and blob page indexes, loaded through the first query
 * that needs them and cached ({@link PartFile}), planned by {@link L3Planner}, and read as row groups (paper) or
 * blob pages (optimized). Footers, page indexes and metadata chunks are checked against the manifest's checksums of
 * each part as they are loaded; each blob page against its CRC32, and each sample's CRC32C against the crc32c
 * column.
 *
 * <p>Paper mode knows the matches before it reads (to plan, and to stop at a LIMIT) by reading the metadata chunks
 * of each row group at planning, once; DuckDB finds them in the row group it reads. So a cold paper run sends one
 * small request (a few KB) per row group more than DuckDB; warm runs read what DuckDB reads.
 */
final class L3Dataset extends ManifestDataset implements SupportsMetadataScan {

    /** Opens footers in parallel: opening blocks on the backend's futures. Daemon threads, idle ones exit. */
    private static final ExecutorService FOOTER_LOADER = Executors.newCachedThreadPool(new DaemonThreads());

    private final ParquetTableSchema tableSchema;
    private final List<ManifestObject> partObjects;
    /** Each part's metadata file ({@link L3Layout#METADATA_FILE}), null where it has none. */
    private final List<ManifestObject> metadataObjects;
    private final AtomicReferenceArray<CompletableFuture<PartFile>> parts;
    private final SampleKeys keys;
    private final PayloadColumns payload;
    private final Catalog catalog = new Catalog();
    private volatile boolean rowCountChecked;

    L3Dataset(ObjectBackend backend, String prefix) {
        super(L3Layout.NAME, L3Layout.FORMAT_VERSION, backend, prefix);
        this.tableSchema = L3Writer.tableSchema(schema());
        Map<String, ManifestObject> objects = new HashMap<>();
        manifest.objects().forEach(o -> objects.put(o.key(), o));
        this.partObjects = partObjects(objects);
        this.metadataObjects = metadataObjects(objects);
        this.parts = new AtomicReferenceArray<>(partObjects.size());
        this.keys = SampleKeys.of(schema());
        this.payload = PayloadColumns.of(schema());
    }

    private List<ManifestObject> partObjects(Map<String, ManifestObject> objects) {
        String count = manifest.property(L3Writer.PARTS, null);
        if (count == null) {
            throw new CorruptDataException("Manifest of the " + describe() + " has no '" + L3Writer.PARTS
                    + "' property (the number of part files)");
        }
        List<ManifestObject> listed = new ArrayList<>();
        int n;
        try {
            n = Integer.parseInt(count);
        } catch (NumberFormatException e) {
            throw new CorruptDataException("Manifest of the " + describe() + ": property '" + L3Writer.PARTS
                    + "' is not a number: '" + count + "'");
        }
        for (int i = 0; i < n; i++) {
            String key = manifest.property(L3Writer.partProperty(i), null);
            ManifestObject object = key == null ? null : objects.get(key);
            if (object == null) {
                throw new CorruptDataException("Manifest of the " + describe() + " lists " + n + " parts but "
                        + (key == null ? "names no part " + i + " (property " + L3Writer.partProperty(i) + ")"
                                : "does not list the object " + key + " of part " + i));
            }
            listed.add(object);
        }
        return List.copyOf(listed);
    }

    private List<ManifestObject> metadataObjects(Map<String, ManifestObject> objects) {
        List<ManifestObject> listed = new ArrayList<>(partObjects.size());
        for (int i = 0; i < partObjects.size(); i++) {
            String key = manifest.property(L3Writer.metadataProperty(i), null);
            ManifestObject object = key == null ? null : objects.get(key);
            if (key != null && object == null) {
                throw new CorruptDataException("Manifest of the " + describe() + " names " + key + " as the "
                        + "metadata file of part " + i + " but does not list that object");
            }
            if (key != null && !key.equals(L3Writer.metadataKeyOf(partObjects.get(i).key()))) {
                throw new CorruptDataException("Manifest of the " + describe() + " names " + key + " as the "
                        + "metadata file of part " + i + ", " + partObjects.get(i).key() + "; a part's metadata file "
                        + "is " + L3Writer.metadataKeyOf(partObjects.get(i).key()));
            }
            listed.add(object);
        }
        return java.util.Collections.unmodifiableList(listed);
    }

    private String describe() {
        return L3Layout.NAME + " dataset at '" + prefix + "'";
    }

    @Override
    protected PreparedResult prepare(ObjectBackend backend, BoundQuery query, QueryOptions options) {
        int[] requested = payload.indexesOf(options.fieldsOf(schema()));
        // The blob columns of the fields asked for: one for the paper's tables, one a field otherwise.
        List<String> columns = new ArrayList<>(requested.length);
        for (int f : requested) {
            columns.add(payload.single() ? L3Layout.IMAGE_BYTES : payload.blobColumn(f));
        }
        L3Planner.Matches<PartFile.RowGroupMetadata> matches = L3Planner.match(catalog, backend, query, options,
                columns);
        return new PreparedResult(this.backend, resultId(query, options), options, matches.coldRequests(),
                matches.metadataRounds(), matches.samples(), matches.payloadBytes()) {
            @Override
            protected long gap(List<ResultRange> ranges) {
                return matches.gap(ranges);
            }

            @Override
            protected Reads reads(List<ResultRange> ranges, long gap) {
                List<L3Planner.Read<PartFile.RowGroupMetadata>> reads = matches.reads(ranges, gap);
                return new Reads(tasks(reads, requested, columns), matches.payloadBytes(reads));
            }
        };
    }

    private List<ReadTask> tasks(List<L3Planner.Read<PartFile.RowGroupMetadata>> reads, int[] requested,
            List<String> columns) {
        // Inside a page run every page is fetched in one request: the run's span (a span per column).
        FetchOptions oneRequest = FetchOptions.defaults().withMergeGap(Long.MAX_VALUE)
                .withMaxMergedSize(Long.MAX_VALUE);
        List<ReadTask> tasks = new ArrayList<>(reads.size());
        for (L3Planner.Read<PartFile.RowGroupMetadata> read : reads) {
            PartFile part = (PartFile) read.part();
            int rowGroup = read.rowGroup();
            int[] rows = read.rows();
            if (read.wholeRowGroup()) {
                tasks.add(new RowGroupTask(read, requested, io -> BlobReader.readWholeRowGroupAsync(
                        part.reader(io, FetchOptions.defaults()), rowGroup, rows, columns)));
            } else {
                tasks.add(new RowGroupTask(read, requested, io -> {
                    List<CompletableFuture<List<ByteBuffer>>> perColumn = new ArrayList<>(columns.size());
                    for (String column : columns) {
                        perColumn.add(new BlobReader(part.reader(io, oneRequest), column).readAsync(rowGroup, rows));
                    }
                    return CompletableFuture.allOf(perColumn.toArray(CompletableFuture[]::new))
                            .thenApply(done -> perColumn.stream().map(CompletableFuture::join).toList());
                }));
            }
        }
        return tasks;
    }

    /** Every row group's metadata columns and sizes, read (and cached) a part at a time; no blob is read. */
    @Override
    public DatasetMetadata scanMetadata(String name) {
        DatasetMetadata.Builder builder = DatasetMetadata.builder(name, schema());
        for (PartFile part : loadParts(backend, L3Planner.MAX_FOOTERS_IN_FLIGHT)) {
            for (int g = 0; g < part.rowGroupCount(); g++) {
                PartFile.RowGroupMetadata group = ObjectBackend.await(part.metadata(g, backend));
                for (int row = 0; row < group.table().rowCount(); row++) {
                    builder.add(group.table().row(row), group.sizes()[row]);
                }
            }
        }
        return builder.build();
    }

    /** The parts as {@link L3Planner} sees them: loaded and cached here. */
    private final class Catalog implements L3Planner.Catalog<PartFile.RowGroupMetadata> {
        @Override
        public List<PartFile> parts(ObjectBackend reads, int window) {
            return loadParts(reads, window);
        }

        @Override
        public CompletableFuture<PartFile.RowGroupMetadata> metadata(L3Planner.Part part, int rowGroup,
                ObjectBackend reads) {
            return ((PartFile) part).metadata(rowGroup, reads);
        }

        @Override
        public List<PlannedRequest> loadRequests(PartFile.RowGroupMetadata metadata) {
            return metadata.loadRequests();
        }

        @Override
        public Selection select(PartFile.RowGroupMetadata metadata, BoundQuery query) {
            return query.select(metadata.table());
        }

        @Override
        public long payloadBytes(PartFile.RowGroupMetadata metadata, int[] rows) {
            long bytes = 0;
            for (int row : rows) {
                bytes += metadata.sizes()[row];
            }
            return bytes;
        }

        @Override
        public CompletableFuture<List<PlannedRequest>> pageIndexes(L3Planner.Part part, ObjectBackend reads) {
            return ((PartFile) part).loadPageIndexesAsync(reads, FOOTER_LOADER);
        }
    }

    /** The footers of every part, loaded through {@code backend}, {@code window} at a time, on first use. */
    private List<PartFile> loadParts(ObjectBackend backend, int window) {
        List<CompletableFuture<PartFile>> futures = new ArrayList<>(partObjects.size());
        Deque<CompletableFuture<PartFile>> started = new ArrayDeque<>();
        for (int i = 0; i < partObjects.size(); i++) {
            CompletableFuture<PartFile> cached = parts.get(i);
            if (cached == null) {
                while (started.size() >= window) {
                    ObjectBackend.await(started.poll());
                }
                cached = startLoad(i, backend);
                started.add(cached);
            }
            futures.add(cached);
        }
        List<PartFile> loaded = new ArrayList<>(futures.size());
        for (CompletableFuture<PartFile> future : futures) {
            loaded.add(ObjectBackend.await(future));
        }
        if (!rowCountChecked) {
            long rows = loaded.stream().mapToLong(p -> p.footer().rowCount()).sum();
            if (rows != manifest.sampleCount()) {
                throw new CorruptDataException("The parts of the " + describe() + " hold " + rows
                        + " rows but its manifest records " + manifest.sampleCount() + " samples");
            }
            rowCountChecked = true;
        }
        return loaded;
    }

    private CompletableFuture<PartFile> startLoad(int index, ObjectBackend reads) {
        while (true) {
            CompletableFuture<PartFile> cached = parts.get(index);
            if (cached != null) {
                return cached;
            }
            CompletableFuture<PartFile> loading = new CompletableFuture<>();
            if (parts.compareAndSet(index, null, loading)) {
                ManifestObject object = partObjects.get(index);
                CompletableFuture
                        .supplyAsync(() -> PartFile.load(reads, backend, index, object, metadataObjects.get(index),
                                tableSchema, manifest.property(L3Writer.blobsProperty(index), null), describe(),
                                FOOTER_LOADER), FOOTER_LOADER)
                        .whenComplete((part, failure) -> {
                            if (failure == null) {
                                loading.complete(part);
                                return;
                            }
                            parts.compareAndSet(index, loading, null);   // a later query tries again
                            loading.completeExceptionally(failure instanceof CompletionException
                                    && failure.getCause() != null ? failure.getCause() : failure);
                        });
                return loading;
            }
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < parts.length(); i++) {
            parts.set(i, null);
        }
        rowCountChecked = false;
    }

    /** Reads blobs of some rows of one row group and turns them into checked samples. */
    private final class RowGroupTask implements ReadTask {
        private final L3Planner.Read<PartFile.RowGroupMetadata> read;
        private final int[] requested;
        private final java.util.function.Function<ObjectBackend, CompletableFuture<List<List<ByteBuffer>>>> blobs;

        /** {@code blobs} reads each requested field's column: a list per field, a buffer per row. */
        RowGroupTask(L3Planner.Read<PartFile.RowGroupMetadata> read, int[] requested,
                java.util.function.Function<ObjectBackend, CompletableFuture<List<List<ByteBuffer>>>> blobs) {
            this.read = read;
            this.requested = requested;
            this.blobs = blobs;
        }

        @Override
        public List<PlannedRequest> requests() {
            return read.requests();
        }

        @Override
        public int sampleCount() {
            return read.rows().length;
        }

        @Override
        public CompletableFuture<List<Sample>> run(ObjectBackend reads) {
            CompletableFuture<List<List<ByteBuffer>>> fetched;
            try {
                fetched = blobs.apply(reads);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
            return fetched.thenApply(columns -> samples(reads, columns));
        }

        private List<Sample> samples(ObjectBackend reads, List<List<ByteBuffer>> columns) {
            PartFile.RowGroupMetadata metadata = read.metadata();
            int[] rows = read.rows();
            List<Sample> samples = new ArrayList<>(rows.length);
            for (int i = 0; i < rows.length; i++) {
                int row = rows[i];
                String where = read.part().key() + " (row group " + read.rowGroup() + ", row " + row + ")";
                samples.add(new Sample(metadata.table().row(row), fields(reads, metadata, row, columns, i, where)));
            }
            return samples;
        }

        /**
         * The fields the query asked for: each from its blob column, checked, or, stored out of line, as a lazily
         * read blob of the part's blob file.
         */
        private Map<String, Blob> fields(ObjectBackend reads, PartFile.RowGroupMetadata metadata, int row,
                List<List<ByteBuffer>> columns, int position, String where) {
            Map<String, Blob> fields = new LinkedHashMap<>();
            String name = keys.describe(metadata.table(), row);
            for (int c = 0; c < requested.length; c++) {
                int f = requested[c];
                long size = metadata.fieldSizes()[f][row];
                if (size < 0) {
                    continue;   // the sample lacks the field
                }
                String field = payload.field(f);
                long outOfLine = metadata.blobOffset(f, row);
                if (outOfLine >= 0) {
                    String blobsKey = ((PartFile) read.part()).blobsKey();
                    if (blobsKey == null) {
                        throw new CorruptDataException("Sample '" + name + "' field '" + field + "' in " + where
                                + " is stored out of line at offset " + outOfLine + ", but the manifest names no "
                                + "blob file for the part");
                    }
                    fields.put(field, new LazyBlob(reads, new FieldRead(field, blobsKey,
                            outOfLine, size, MetadataParquet.stored(metadata.fieldCrcs()[f][row])), name));
                    continue;
                }
                ByteBuffer bytes = columns.get(c).get(position);
                if (bytes.remaining() != size) {
                    throw new CorruptDataException("Sample '" + name + "' field '" + field + "' in " + where
                            + " has " + bytes.remaining() + " bytes in its blob column but its size is " + size);
                }
                SampleChecksum.verify(bytes, metadata.fieldCrcs()[f][row],
                        payload.single() ? name : name + "' field '" + field, where);
                fields.put(field, Blob.of(bytes));
            }
            return fields;
        }
    }

    private static final class DaemonThreads implements ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task, "layoutbench-l3-footers-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    }
}
