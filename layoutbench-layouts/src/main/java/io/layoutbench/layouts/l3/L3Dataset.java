package io.layoutbench.layouts.l3;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.ManifestDataset;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.SampleChecksum;
import io.layoutbench.parquet.BlobReader;
import io.layoutbench.parquet.ColumnChunkInfo;
import io.layoutbench.parquet.FetchOptions;
import io.layoutbench.parquet.PageInfo;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.RowGroupInfo;
import io.layoutbench.api.layout.RangeCoalescer;
import io.layoutbench.layouts.retrieval.ReadTask;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * An L3 dataset. A query loads the footers of all parts (cached), skips row groups whose statistics rule the
 * predicate out, and evaluates it on the metadata columns of the others (read once, cached). Then, in paper mode,
 * it reads whole each row group that holds a matching sample, one request per column chunk (the paper: DuckDB
 * "fetches entire row groups containing the requested samples"); in optimized mode it reads only
 * the blob pages holding matching rows, pages within the coalescing gap (lowered to fit the read budget,
 * {@code RangeCoalescer.gapWithinBudget}) in one request. {@code LIMIT n} stops at the
 * n-th match in dataset order (part, row group, row). Each sample's CRC32C is checked against the crc32c column.
 *
 * <p>Paper mode knows the matches before it reads (to plan, and to stop at a LIMIT) by reading the metadata chunks
 * of each row group at planning, once; DuckDB finds them in the row group it reads. So a cold paper run sends one
 * small request (a few KB) per row group more than DuckDB; warm runs read what DuckDB reads.
 */
final class L3Dataset extends ManifestDataset {

    /** Footers loaded at once, at most. */
    static final int MAX_FOOTERS_IN_FLIGHT = 32;
    /** Row groups whose metadata columns are loaded at once, at most (one at a time under a LIMIT). */
    static final int MAX_METADATA_IN_FLIGHT = 16;

    /** Opens footers in parallel: opening blocks on the backend's futures. Daemon threads, idle ones exit. */
    private static final ExecutorService FOOTER_LOADER = Executors.newCachedThreadPool(new DaemonThreads());

    private final ParquetTableSchema tableSchema;
    private final List<ObjectInfo> partObjects;
    private final AtomicReferenceArray<CompletableFuture<PartFile>> parts;
    private final int filesizeColumn;
    private final int filenameColumn;
    private volatile boolean rowCountChecked;

    L3Dataset(ObjectBackend backend, String prefix) {
        super(L3Layout.NAME, L3Layout.FORMAT_VERSION, backend, prefix);
        this.tableSchema = L3Writer.tableSchema(schema());
        this.partObjects = partObjects();
        this.parts = new AtomicReferenceArray<>(partObjects.size());
        this.filesizeColumn = schema().indexOf(MetadataSchema.FILESIZE_BYTES).orElse(-1);
        this.filenameColumn = schema().indexOf(MetadataSchema.FILENAME).orElse(-1);
    }

    private List<ObjectInfo> partObjects() {
        String count = manifest.property(L3Writer.PARTS, null);
        if (count == null) {
            throw new CorruptDataException("Manifest of the " + describe() + " has no '" + L3Writer.PARTS
                    + "' property (the number of part files)");
        }
        Map<String, ObjectInfo> objects = new HashMap<>();
        manifest.objects().forEach(o -> objects.put(o.key(), o));
        List<ObjectInfo> listed = new ArrayList<>();
        int n;
        try {
            n = Integer.parseInt(count);
        } catch (NumberFormatException e) {
            throw new CorruptDataException("Manifest of the " + describe() + ": property '" + L3Writer.PARTS
                    + "' is not a number: '" + count + "'");
        }
        for (int i = 0; i < n; i++) {
            String key = manifest.property(L3Writer.partProperty(i), null);
            ObjectInfo object = key == null ? null : objects.get(key);
            if (object == null) {
                throw new CorruptDataException("Manifest of the " + describe() + " lists " + n + " parts but "
                        + (key == null ? "names no part " + i + " (property " + L3Writer.partProperty(i) + ")"
                                : "does not list the object " + key + " of part " + i));
            }
            listed.add(object);
        }
        return List.copyOf(listed);
    }

    private String describe() {
        return L3Layout.NAME + " dataset at '" + prefix + "'";
    }

    @Override
    protected Planned plan(ObjectBackend backend, BoundQuery query, QueryOptions options) {
        int footerWindow = Math.min(options.maxConcurrency(), MAX_FOOTERS_IN_FLIGHT);
        List<PartFile> loaded = loadParts(backend, footerWindow);
        List<PlannedRequest> cold = new ArrayList<>();
        List<RowGroupRef> candidates = new ArrayList<>();
        // Round trips of a cold load, for prediction: footers go footerWindow at a time (a footer larger than the
        // tail takes a second trip), row-group metadata window at a time, then the page indexes side by side.
        int longestFooter = 0;
        for (PartFile part : loaded) {
            longestFooter = Math.max(longestFooter, part.footerRequests().size());
            cold.addAll(part.footerRequests());
            for (int g = 0; g < part.footer().rowGroups().size(); g++) {
                if (!query.prune(part.statistics(g)).canSkip()) {
                    candidates.add(new RowGroupRef(part, g));
                }
            }
        }
        long remaining = query.limit().orElse(Long.MAX_VALUE);
        boolean paper = options.mode() == RetrievalMode.PAPER;
        long gap = paper ? 0 : RangeCoalescer.gapFor(options);
        // Under a LIMIT, a row group's metadata is read only once the earlier ones did not reach it, as a cold
        // client would: so the plan's cold reads are exactly those a cold run makes.
        int window = query.limit().isPresent() ? 1 : Math.min(options.maxConcurrency(), MAX_METADATA_IN_FLIGHT);
        Deque<CompletableFuture<PartFile.RowGroupMetadata>> inFlight = new ArrayDeque<>();
        List<ReadTask> tasks = new ArrayList<>();
        // Optimized reads need the blob page index of each part with matches: loaded in the background, all at once,
        // while the loop goes on, and planned from once the loop is done.
        List<PendingPages> pending = new ArrayList<>();
        long samples = 0;
        long payload = 0;
        int next = 0;
        int metadataLoads = 0;
        for (int c = 0; c < candidates.size() && remaining > 0; c++) {
            while (next < candidates.size() && inFlight.size() < window) {
                RowGroupRef ahead = candidates.get(next++);
                inFlight.add(ahead.part().metadata(ahead.rowGroup(), backend));
            }
            RowGroupRef candidate = candidates.get(c);
            PartFile.RowGroupMetadata metadata = ObjectBackend.await(inFlight.poll());
            cold.addAll(metadata.loadRequests());
            metadataLoads++;
            Selection matches = query.select(metadata.table());
            if (matches.size() > remaining) {
                matches = matches.limit(remaining);
            }
            int[] rows = matches.toArray();
            if (rows.length == 0) {
                // Nothing to fetch: DuckDB's filter on the metadata columns drops the row group, too.
            } else if (paper) {
                tasks.add(wholeRowGroupTask(candidate, metadata, rows));
            } else {
                pending.add(new PendingPages(candidate, metadata, rows, candidate.part().loadPageIndexesAsync(backend, FOOTER_LOADER)));
            }
            samples += rows.length;
            payload += payloadBytes(metadata.table(), rows);
            remaining -= rows.length;
        }
        boolean[] pageIndexesCounted = new boolean[partObjects.size()];
        int pageIndexRounds = 0;
        List<List<PageInfo>> pagesOfGroups = new ArrayList<>(pending.size());
        for (PendingPages pages : pending) {
            PartFile part = pages.ref().part();
            List<PlannedRequest> pageIndexReads = ObjectBackend.await(pages.pageIndexLoad());
            if (!pageIndexesCounted[part.index()]) {
                pageIndexesCounted[part.index()] = true;
                cold.addAll(pageIndexReads);
                pageIndexRounds = Math.max(pageIndexRounds, pageIndexReads.size());   // the parts' loads overlap
            }
            pagesOfGroups.add(part.blobPages(pages.ref().rowGroup()).pagesFor(pages.rows()));
        }
        if (!pending.isEmpty()) {
            // Row groups of one part lie apart, so the gaps between their pages are counted per row group.
            gap = RangeCoalescer.gapWithinBudget(pagesOfGroups.stream()
                    .map(pages -> pages.stream().map(PageInfo::byteRange).toList()).toList(), gap,
                    options.maxReadAmplification());
        }
        for (int p = 0; p < pending.size(); p++) {
            PendingPages pages = pending.get(p);
            tasks.addAll(pageRunTasks(pages.ref(), pages.metadata(), pages.rows(), pagesOfGroups.get(p), gap,
                    RangeCoalescer.maxMergedBytesFor(options)));
        }
        // Loads sent ahead are left to finish and fill the cache; without a LIMIT every one of them was needed.
        int rounds = (loaded.size() + footerWindow - 1) / footerWindow * longestFooter
                + (metadataLoads + window - 1) / window + pageIndexRounds;
        rounds = Math.max(cold.isEmpty() ? 0 : 1, Math.min(rounds, cold.size()));
        return new Planned(cold, tasks, samples, payload, rounds);
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
                ObjectInfo object = partObjects.get(index);
                CompletableFuture
                        .supplyAsync(() -> PartFile.load(reads, backend, index, object, tableSchema, describe()),
                                FOOTER_LOADER)
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

    /** Paper mode: every column chunk of the row group, one request each, as DuckDB reads a row group. */
    private ReadTask wholeRowGroupTask(RowGroupRef ref, PartFile.RowGroupMetadata metadata, int[] rows) {
        PartFile part = ref.part();
        RowGroupInfo group = part.footer().rowGroup(ref.rowGroup());
        List<PlannedRequest> requests = new ArrayList<>(group.columns().size());
        for (ColumnChunkInfo chunk : group.columns()) {
            requests.add(new PlannedRequest(RequestKind.RANGE_GET, part.key(), chunk.byteRange()));
        }
        return new RowGroupTask(requests, reads -> new BlobReader(part.reader(reads, FetchOptions.defaults()),
                L3Layout.IMAGE_BYTES).readWholeRowGroupAsync(ref.rowGroup(), rows), ref, metadata, rows);
    }

    /**
     * Optimized mode: the blob pages holding {@code rows}, grouped into runs of pages that lie within {@code gap}
     * of each other (and within {@code maxMerged} bytes); one task and one request per run.
     */
    private List<ReadTask> pageRunTasks(RowGroupRef ref, PartFile.RowGroupMetadata metadata, int[] rows,
            List<PageInfo> pages, long gap, long maxMerged) {
        PartFile part = ref.part();
        List<RangeCoalescer.Merged> runs = RangeCoalescer.coalesce(pages.stream().map(PageInfo::byteRange).toList(),
                gap, maxMerged);
        // Inside a task every page of its run is fetched in one request: the run's span.
        FetchOptions oneRequest = FetchOptions.defaults().withMergeGap(Long.MAX_VALUE)
                .withMaxMergedSize(Long.MAX_VALUE);
        List<ReadTask> tasks = new ArrayList<>(runs.size());
        int from = 0;
        for (RangeCoalescer.Merged run : runs) {
            // Pages are in row order and offset order, so a run's members are consecutive pages.
            PageInfo last = pages.get(run.members().get(run.members().size() - 1));
            int to = from;
            while (to < rows.length && rows[to] < last.firstRow() + last.rowCount()) {
                to++;
            }
            int[] runRows = Arrays.copyOfRange(rows, from, to);
            from = to;
            List<PlannedRequest> requests = List.of(new PlannedRequest(RequestKind.RANGE_GET, part.key(),
                    run.range()));
            tasks.add(new RowGroupTask(requests, reads -> new BlobReader(part.reader(reads, oneRequest),
                    L3Layout.IMAGE_BYTES).readAsync(ref.rowGroup(), runRows), ref, metadata, runRows));
        }
        if (from != rows.length) {
            throw new IllegalStateException("Blob pages of row group " + ref.rowGroup() + " of " + part.where()
                    + " do not cover row " + rows[from]);
        }
        return tasks;
    }

    private long payloadBytes(ColumnarTable table, int[] rows) {
        if (filesizeColumn < 0) {
            return 0;
        }
        long bytes = 0;
        for (int row : rows) {
            if (!table.isNull(filesizeColumn, row)) {
                bytes += table.getLong(filesizeColumn, row);
            }
        }
        return bytes;
    }

    @Override
    public void close() {
        for (int i = 0; i < parts.length(); i++) {
            parts.set(i, null);
        }
        rowCountChecked = false;
    }

    /** One row group of one part. */
    /** Matching rows of a row group, waiting for their part's page index. */
    private record PendingPages(RowGroupRef ref, PartFile.RowGroupMetadata metadata, int[] rows,
            CompletableFuture<List<PlannedRequest>> pageIndexLoad) {
    }

    private record RowGroupRef(PartFile part, int rowGroup) {
    }

    /** Reads blobs of some rows of one row group and turns them into checked samples. */
    private final class RowGroupTask implements ReadTask {
        private final List<PlannedRequest> requests;
        private final Function<ObjectBackend, CompletableFuture<List<ByteBuffer>>> read;
        private final RowGroupRef ref;
        private final PartFile.RowGroupMetadata metadata;
        private final int[] rows;

        RowGroupTask(List<PlannedRequest> requests,
                Function<ObjectBackend, CompletableFuture<List<ByteBuffer>>> read,
                RowGroupRef ref, PartFile.RowGroupMetadata metadata, int[] rows) {
            this.requests = List.copyOf(requests);
            this.read = read;
            this.ref = ref;
            this.metadata = metadata;
            this.rows = rows;
        }

        @Override
        public List<PlannedRequest> requests() {
            return requests;
        }

        @Override
        public CompletableFuture<List<Sample>> run(ObjectBackend reads) {
            CompletableFuture<List<ByteBuffer>> blobs;
            try {
                blobs = read.apply(reads);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
            return blobs.thenApply(this::samples);
        }

        private List<Sample> samples(List<ByteBuffer> blobs) {
            List<Sample> samples = new ArrayList<>(rows.length);
            for (int i = 0; i < rows.length; i++) {
                int row = rows[i];
                String name = filenameColumn >= 0 && !metadata.table().isNull(filenameColumn, row)
                        ? metadata.table().getString(filenameColumn, row)
                        : "row " + row;
                SampleChecksum.verify(blobs.get(i), MetadataParquet.crc(metadata.crcs()[row]), name,
                        ref.part().key() + " (row group " + ref.rowGroup() + ", row " + row + ")");
                samples.add(new Sample(metadata.table().row(row), blobs.get(i)));
            }
            return samples;
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
