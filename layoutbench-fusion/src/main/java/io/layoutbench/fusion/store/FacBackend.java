package io.layoutbench.fusion.store;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.codec.ErasureCodecs;
import io.layoutbench.fusion.codec.ErasureCoder;
import io.layoutbench.fusion.coding.BlockPlan;
import io.layoutbench.fusion.coding.ChunkMap;
import io.layoutbench.fusion.coding.CodingPlan;
import io.layoutbench.fusion.coding.CodingPlanner;
import io.layoutbench.fusion.coding.ObjectSource;
import io.layoutbench.fusion.coding.ParquetChunkMaps;
import io.layoutbench.fusion.coding.StripePlan;

import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * An object store whose objects are erasure coded across N storage nodes with Fusion's file-format-aware coding
 * (FAC): a Parquet object is cut into stripes so that no column chunk is split between data blocks, and each stripe's
 * n blocks go to n distinct nodes. Any other object is cut into fixed-size blocks. A node is any
 * {@link ObjectBackend}: a directory, a bucket, a prefix of one. To its users this is one ordinary
 * {@link ObjectBackend}, so any layout can run over it; the {@code fac} layout is L3 over it.
 *
 * <p><b>Put</b> reads the object (buffered in memory, or in a temporary file when large), reads its chunk map from
 * the Parquet footer, plans stripes with {@link FacOptions#planner()}, encodes each stripe with the
 * {@link io.layoutbench.fusion.codec.ErasureCodec} (data blocks zero-padded to the stripe's largest for coding only;
 * padding is never stored, nor are empty data blocks), writes the blocks under a new generation, then the
 * {@link FacManifest} to n - k + 1 nodes, then deletes the blocks of the version it replaced. A put needs every
 * node it writes to; it fails, naming the node, when one is down, and the old object stays readable.
 *
 * <p><b>Get</b> ({@link #readRangeAsync}) finds the data blocks that hold the range in the chunk location map and
 * reads just those byte ranges (rounded out to {@link FacOptions#checksumUnit() checksum units}, whose CRC32Cs are
 * checked): no parity is read and nothing is decoded while all nodes are up. When a block cannot be read, or fails
 * its checksum, only the units of the range are decoded from k other blocks of the stripe; the rebuilt bytes are
 * checked against the lost block's own checksums. When more than n - k blocks of a stripe cannot be used, the read
 * fails with {@link StripeUnavailableException} naming the stripe and the nodes; wrong bytes are never returned.
 *
 * <p><b>Repair</b>: {@link #repair(String)} rewrites the missing or damaged blocks and manifest replicas of one object
 * in place; {@link #repairNode(int, ObjectBackend)} rebuilds every block and manifest replica a lost node held onto
 * a replacement.
 *
 * <p><b>Layout on the nodes</b>: the manifest of {@code key} is {@code manifests/<key>.facm}; its blocks are
 * {@code blocks/<key>.fac/<generation>-s<stripe>-b<block>}. The manifest replicas lie on the nodes {@code h, h + 1,
 * ...} and stripe {@code s} on {@code h + s, ..., h + s + n - 1} (mod N), with {@code h} from the key's CRC32C.
 *
 * <p><b>Requests and metrics</b>: {@link #withMetrics} counts logical requests, as a single store would (one
 * {@code RANGE_GET} per ranged read, the object's bytes per put); what the nodes see is counted by the nodes'
 * own backends and summed in {@link #statistics()}. Transient node faults are not retried here: a failed block read
 * is rebuilt from other blocks, and node backends retry as they do.
 *
 * <p>Thread-safe. Manifests are cached per key; this backend's own puts and deletes update the cache, and a read
 * that fails reloads the manifest once in case another writer replaced the object.
 *
 * <pre>{@code
 * List<ObjectBackend> nodes = IntStream.range(0, 9).mapToObj(i -> (ObjectBackend) new FileBackend(root.resolve("node-" + i))).toList();
 * try (FacBackend fac = FacBackend.create(nodes, FacOptions.defaults(), true)) {
 *     fac.put("tpch/lineitem.parquet", Path.of("lineitem.parquet"));
 *     ByteBuffer chunk = fac.readRange("tpch/lineitem.parquet", ByteRange.of(4, 1 << 20));
 * }
 * }</pre>
 */
public final class FacBackend implements ObjectBackend {

    private static final String MANIFESTS = "manifests/";
    private static final String MANIFEST_SUFFIX = ".facm";
    private static final String BLOCKS = "blocks/";
    private static final String BLOCKS_SUFFIX = ".fac/";
    /** Room a block key needs beyond the object key. */
    private static final int KEY_OVERHEAD = BLOCKS.length() + BLOCKS_SUFFIX.length() + 48;
    /** Decoding window of repairs: whole blocks are rebuilt this many bytes at a time (rounded to units). */
    private static final int REBUILD_WINDOW = 4 << 20;
    /** Encoding window of puts. */
    private static final int ENCODE_WINDOW = 1 << 20;

    private final Core core;
    private final RequestMetrics metrics;
    private final boolean view;

    private FacBackend(Core core, RequestMetrics metrics, boolean view) {
        this.core = core;
        this.metrics = metrics;
        this.view = view;
    }

    /**
     * A FAC backend over {@code nodes}.
     *
     * @param nodes     the N storage nodes, N at least the code's n; their order is their identity (node i is index
     *                  i in every manifest), so reopen a store with its nodes in the same order
     * @param options   how puts encode
     * @param ownsNodes whether {@link #close()} closes the nodes
     * @throws IllegalArgumentException if there are fewer nodes than blocks in a stripe, or the codec is unknown
     */
    public static FacBackend create(List<? extends ObjectBackend> nodes, FacOptions options, boolean ownsNodes) {
        requireNonNull(nodes, "nodes is null");
        requireNonNull(options, "options is null");
        if (nodes.size() < options.code().totalBlocks()) {
            throw new IllegalArgumentException(options.code() + " puts each stripe's " + options.code().totalBlocks()
                    + " blocks on distinct nodes, but only " + nodes.size() + " nodes were given");
        }
        ErasureCodecs.get(options.codec()).coder(options.code());   // fails now, naming the known codecs
        return new FacBackend(new Core(List.copyOf(nodes), options, ownsNodes), RequestMetrics.NONE, false);
    }

    /** The nodes, in order; node {@code i} of every manifest is element {@code i}. */
    public List<ObjectBackend> nodes() {
        List<ObjectBackend> nodes = new ArrayList<>(core.nodes.length());
        for (int i = 0; i < core.nodes.length(); i++) {
            nodes.add(core.nodes.get(i));
        }
        return Collections.unmodifiableList(nodes);
    }

    /** How puts encode. */
    public FacOptions options() {
        return core.options;
    }

    /** What reads have done since this backend was created (views included). */
    public FacStatistics statistics() {
        return new FacStatistics(core.blockReads.get(), core.bytesFromNodes.get(), core.degradedReads.get(),
                core.decodedBytes.get(), core.checksumFailures.get(), core.failedBlockReads.get());
    }

    @Override
    public URI uri() {
        CodeParameters code = core.options.code();
        return URI.create("fac:rs-" + code.totalBlocks() + "-" + code.dataBlocks() + "-on-" + core.nodes.length()
                + "-nodes");
    }

    // ---- reads -------------------------------------------------------------------------------------------------

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        return read(key, range, RequestKind.RANGE_GET);
    }

    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        return read(key, null, RequestKind.GET);
    }

    private CompletableFuture<ByteBuffer> read(String key, ByteRange range, RequestKind kind) {
        ObjectKeys.check(key);
        checkKeyLength(key);
        core.checkOpen();
        long start = System.nanoTime();
        metrics.onRequestStarted(kind);
        CompletableFuture<ByteBuffer> result = core.manifestAsync(key, false)
                .thenCompose(manifest -> readWithReload(key, manifest, range, 0));
        return result.whenComplete((buffer, error) -> {
            if (error != null) {
                metrics.onRequestFailed(kind);
            } else {
                metrics.onFirstByte(kind, System.nanoTime() - start);
                metrics.onBytesReceived(kind, buffer.remaining());
            }
        });
    }

    /** Reads; when that fails, reloads the manifest and, if another writer replaced the object, reads again. */
    private CompletableFuture<ByteBuffer> readWithReload(String key, FacManifest manifest, ByteRange requested,
            int attempt) {
        ByteRange range = requested == null ? ByteRange.of(0, manifest.objectSize()) : requested;
        if (!range.fitsIn(manifest.objectSize())) {
            return CompletableFuture.failedFuture(new RangeNotSatisfiableException(key, range, manifest.objectSize()));
        }
        if (range.length() > Integer.MAX_VALUE - 8) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("Cannot read " + range + " of " + key
                    + " into one buffer: " + range.length() + " bytes is more than a buffer holds"));
        }
        return core.read(manifest, range).exceptionallyCompose(error -> {
            Throwable cause = unwrap(error);
            if (attempt >= 5 || !(cause instanceof StorageException)) {
                return CompletableFuture.failedFuture(cause);
            }
            return core.manifestAsync(key, true).handle((fresh, reloadError) -> {
                if (reloadError != null && unwrap(reloadError) instanceof ObjectNotFoundException gone) {
                    return CompletableFuture.<ByteBuffer>failedFuture(gone);   // deleted while it was being read
                }
                if (fresh == null || fresh.generation().equals(manifest.generation())) {
                    return CompletableFuture.<ByteBuffer>failedFuture(cause);
                }
                return readWithReload(key, fresh, requested, attempt + 1);
            }).thenCompose(f -> f);
        });
    }

    /**
     * The manifest of {@code key}, read from its replicas now (not from the cache).
     *
     * @throws ObjectNotFoundException if no replica holds it
     */
    public FacManifest manifest(String key) {
        ObjectKeys.check(key);
        return ObjectBackend.await(core.manifestAsync(key, true));
    }

    @Override
    public long size(String key) {
        ObjectKeys.check(key);
        checkKeyLength(key);
        core.checkOpen();
        long start = System.nanoTime();
        metrics.onRequestStarted(RequestKind.HEAD);
        try {
            long size = ObjectBackend.await(core.manifestAsync(key, false)).objectSize();
            metrics.onFirstByte(RequestKind.HEAD, System.nanoTime() - start);
            return size;
        } catch (RuntimeException e) {
            metrics.onRequestFailed(RequestKind.HEAD);
            throw e;
        }
    }

    @Override
    public Stream<ObjectInfo> list(String prefix) {
        ObjectKeys.checkPrefix(prefix);
        core.checkOpen();
        metrics.onRequestStarted(RequestKind.LIST);
        List<String> keys;
        try {
            keys = core.listKeys(prefix);
        } catch (RuntimeException e) {
            metrics.onRequestFailed(RequestKind.LIST);
            throw e;
        }
        metrics.onFirstByte(RequestKind.LIST, 0);
        return keys.stream().map(key -> new ObjectInfo(key, ObjectBackend.await(core.manifestAsync(key, false))
                .objectSize()));
    }

    // ---- writes ------------------------------------------------------------------------------------------------

    @Override
    public void put(String key, InputStream data, long length) {
        ObjectKeys.check(key);
        checkKeyLength(key);
        requireNonNull(data, "data is null");
        if (length < 0) {
            throw new IllegalArgumentException("Cannot store " + key + ": negative length " + length);
        }
        core.checkOpen();
        metrics.onRequestStarted(RequestKind.PUT);
        try (Spool spool = Spool.read(data, length, core.options.memorySpoolLimit(), core.options.tempDirectory(),
                key + " in " + uri())) {
            metrics.onBytesSent(RequestKind.PUT, length);
            core.store(key, spool.source());
        } catch (RuntimeException e) {
            metrics.onRequestFailed(RequestKind.PUT);
            throw e;
        }
    }

    /**
     * Stores {@code source} as {@code key} and returns its manifest: the same as {@link #put}, for callers that want
     * to see how the object was coded.
     */
    public FacManifest put(String key, ObjectSource source) {
        ObjectKeys.check(key);
        checkKeyLength(key);
        core.checkOpen();
        metrics.onRequestStarted(RequestKind.PUT);
        try {
            FacManifest manifest = core.store(key, source);
            metrics.onBytesSent(RequestKind.PUT, source.size());
            return manifest;
        } catch (RuntimeException e) {
            metrics.onRequestFailed(RequestKind.PUT);
            throw e;
        }
    }

    /**
     * Deletes the object: its manifest replicas first (so it is gone for readers), then its blocks. Blocks on nodes
     * that are down are left behind; a manifest replica that cannot be deleted fails the delete, since the object
     * would come back with its node.
     */
    @Override
    public void delete(String key) {
        ObjectKeys.check(key);
        checkKeyLength(key);
        core.checkOpen();
        metrics.onRequestStarted(RequestKind.DELETE);
        try {
            core.delete(key);
        } catch (RuntimeException e) {
            metrics.onRequestFailed(RequestKind.DELETE);
            throw e;
        }
    }

    // ---- repair ------------------------------------------------------------------------------------------------

    /**
     * Reads every block and manifest replica of {@code key}, checks them, and rebuilds onto its node every block that
     * is missing or fails its checksum, and every missing or damaged manifest replica.
     */
    public RepairReport repair(String key) {
        ObjectKeys.check(key);
        core.checkOpen();
        return core.repairObject(key);
    }

    /** {@link #repair(String)} of every object. */
    public RepairReport repairAll() {
        core.checkOpen();
        RepairReport total = new RepairReport(0, 0, 0, 0, 0, List.of());
        for (String key : core.listKeys("")) {
            total = add(total, core.repairObject(key));
        }
        return total;
    }

    /**
     * Rebuilds everything node {@code node} held onto {@code replacement}, which takes its place (an empty directory
     * or bucket standing in for a lost disk). Each block is decoded from k other blocks of its stripe, checked
     * against its checksums and written; manifest replicas are copied from other nodes.
     */
    public RepairReport repairNode(int node, ObjectBackend replacement) {
        requireNonNull(replacement, "replacement is null");
        core.checkOpen();
        if (node < 0 || node >= core.nodes.length()) {
            throw new IllegalArgumentException("There is no node " + node + "; nodes are 0 to "
                    + (core.nodes.length() - 1));
        }
        core.nodes.set(node, replacement);
        return core.rebuildNode(node);
    }

    private static RepairReport add(RepairReport a, RepairReport b) {
        List<String> failures = new ArrayList<>(a.failures());
        failures.addAll(b.failures());
        return new RepairReport(a.objects() + b.objects(), a.blocksChecked() + b.blocksChecked(),
                a.blocksRebuilt() + b.blocksRebuilt(), a.bytesWritten() + b.bytesWritten(),
                a.manifestsWritten() + b.manifestsWritten(), failures);
    }

    // ---- life cycle --------------------------------------------------------------------------------------------

    /** A view sharing everything with this backend that counts its logical requests into {@code metrics}. */
    @Override
    public FacBackend withMetrics(RequestMetrics metrics) {
        return new FacBackend(core, requireNonNull(metrics, "metrics is null"), true);
    }

    /** Stops the write threads and, if this backend owns them, closes the nodes. Views do nothing. */
    @Override
    public void close() {
        if (!view) {
            core.close();
        }
    }

    @Override
    public String toString() {
        return "FacBackend[" + uri() + "]";
    }

    private static void checkKeyLength(String key) {
        if (key.getBytes(StandardCharsets.UTF_8).length > ObjectKeys.MAX_KEY_BYTES - KEY_OVERHEAD) {
            throw new IllegalArgumentException("Object key '" + key.substring(0, Math.min(60, key.length()))
                    + "...' is too long for FAC: its block keys need " + KEY_OVERHEAD + " of the "
                    + ObjectKeys.MAX_KEY_BYTES + " bytes a key may have");
        }
    }

    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** What the backend and its views share. */
    private static final class Core {
        final AtomicReferenceArray<ObjectBackend> nodes;
        final FacOptions options;
        final CodingPlanner planner;
        final boolean ownsNodes;
        final ExecutorService writers;
        final Map<String, FacManifest> manifests = new ConcurrentHashMap<>();
        final AtomicBoolean closed = new AtomicBoolean();
        final AtomicLong lastGeneration = new AtomicLong();
        final SecureRandom random = new SecureRandom();
        final AtomicLong blockReads = new AtomicLong();
        final AtomicLong bytesFromNodes = new AtomicLong();
        final AtomicLong degradedReads = new AtomicLong();
        final AtomicLong decodedBytes = new AtomicLong();
        final AtomicLong checksumFailures = new AtomicLong();
        final AtomicLong failedBlockReads = new AtomicLong();

        Core(List<ObjectBackend> nodes, FacOptions options, boolean ownsNodes) {
            this.nodes = new AtomicReferenceArray<>(nodes.toArray(new ObjectBackend[0]));
            this.options = options;
            this.planner = options.planner();
            this.ownsNodes = ownsNodes;
            this.writers = Executors.newFixedThreadPool(options.ioThreads(), runnable -> {
                Thread thread = new Thread(runnable, "fac-writer");
                thread.setDaemon(true);
                return thread;
            });
        }

        void checkOpen() {
            if (closed.get()) {
                throw new IllegalStateException("The FAC backend over " + nodes.length() + " nodes is closed");
            }
        }

        void close() {
            if (closed.compareAndSet(false, true)) {
                writers.shutdownNow();
                manifests.clear();
                if (ownsNodes) {
                    for (int i = 0; i < nodes.length(); i++) {
                        nodes.get(i).close();
                    }
                }
            }
        }

        String nodeName(int node) {
            return "node " + node + " (" + nodes.get(node).uri() + ")";
        }

        // ---- placement and keys

        int home(String key) {
            CRC32C crc = new CRC32C();
            crc.update(key.getBytes(StandardCharsets.UTF_8));
            return (int) Long.remainderUnsigned(crc.getValue(), nodes.length());
        }

        int replicas(CodeParameters code) {
            return Math.min(nodes.length(), code.parityBlocks() + 1);
        }

        List<Integer> replicaNodes(String key, CodeParameters code) {
            List<Integer> result = new ArrayList<>();
            int home = home(key);
            for (int r = 0; r < replicas(code); r++) {
                result.add((home + r) % nodes.length());
            }
            return result;
        }

        static String manifestKey(String key) {
            return MANIFESTS + key + MANIFEST_SUFFIX;
        }

        static String blockPrefix(String key) {
            return BLOCKS + key + BLOCKS_SUFFIX;
        }

        static String blockKey(String key, String generation, int stripe, int block) {
            return blockPrefix(key) + generation + "-s" + stripe + "-b" + block;
        }

        static String blockKey(FacManifest manifest, int stripe, int block) {
            return blockKey(manifest.key(), manifest.generation(), stripe, block);
        }

        String newGeneration() {
            long now = System.currentTimeMillis() * 1000;
            long generation = lastGeneration.updateAndGet(last -> Math.max(last + 1, now));
            return String.format(Locale.ROOT, "%016x-%08x", generation, random.nextInt());
        }

        // ---- manifests

        CompletableFuture<FacManifest> manifestAsync(String key, boolean fresh) {
            if (!fresh) {
                FacManifest cached = manifests.get(key);
                if (cached != null) {
                    return CompletableFuture.completedFuture(cached);
                }
            }
            int home = home(key);
            int expected = replicas(options.code());
            List<String> failures = Collections.synchronizedList(new ArrayList<>());
            return loadReplica(key, home, 0, expected, failures, new boolean[] {true}).thenApply(manifest -> {
                manifests.merge(key, manifest, (old, loaded) ->
                        old.generation().compareTo(loaded.generation()) >= 0 ? old : loaded);
                return manifest;
            });
        }

        /** Tries node {@code home + r}, then the next; all-not-found among the expected replicas means no object. */
        private CompletableFuture<FacManifest> loadReplica(String key, int home, int r, int expected,
                List<String> failures, boolean[] allNotFound) {
            if (r >= nodes.length() || r >= expected && allNotFound[0]) {
                String message = "Cannot read the manifest of " + key + " from " + r + " nodes: "
                        + String.join("; ", failures);
                return CompletableFuture.failedFuture(allNotFound[0]
                        ? new ObjectNotFoundException("No object " + key + " in the FAC store over "
                                + nodes.length() + " nodes (no manifest on nodes " + home + " to "
                                + ((home + r - 1) % nodes.length()) + ")")
                        : new StorageException(message));
            }
            int node = (home + r) % nodes.length();
            CompletableFuture<ByteBuffer> raw;
            try {
                raw = nodes.get(node).readAllAsync(manifestKey(key));
            } catch (RuntimeException e) {
                raw = CompletableFuture.failedFuture(e);
            }
            return raw.thenApply(bytes -> FacManifest.decode(bytes, manifestKey(key) + " on " + nodeName(node)))
                    .thenApply(manifest -> {
                        if (!manifest.key().equals(key)) {
                            throw new CorruptDataException("The manifest " + manifestKey(key) + " on "
                                    + nodeName(node) + " describes " + manifest.key());
                        }
                        return manifest;
                    })
                    .exceptionallyCompose(error -> {
                        Throwable cause = unwrap(error);
                        if (!(cause instanceof ObjectNotFoundException)) {
                            allNotFound[0] = false;
                        }
                        failures.add(nodeName(node) + ": " + cause.getMessage());
                        return loadReplica(key, home, r + 1, expected, failures, allNotFound);
                    });
        }

        List<String> listKeys(String prefix) {
            TreeSet<String> keys = new TreeSet<>();
            List<String> failures = new ArrayList<>();
            int reachable = 0;
            for (int i = 0; i < nodes.length(); i++) {
                try (Stream<ObjectInfo> listed = nodes.get(i).list(MANIFESTS + prefix)) {
                    listed.map(ObjectInfo::key)
                            .filter(k -> k.endsWith(MANIFEST_SUFFIX))
                            .map(k -> k.substring(MANIFESTS.length(), k.length() - MANIFEST_SUFFIX.length()))
                            .filter(k -> k.startsWith(prefix))
                            .forEach(keys::add);
                    reachable++;
                } catch (StorageException e) {
                    failures.add(nodeName(i) + ": " + e.getMessage());
                }
            }
            int tolerated = options.code().parityBlocks();
            if (failures.size() > tolerated || reachable == 0) {
                throw new StorageException("Cannot list '" + prefix + "': " + failures.size() + " nodes cannot be "
                        + "listed, more than the " + tolerated + " whose loss a listing survives: "
                        + String.join("; ", failures));
            }
            return new ArrayList<>(keys);
        }

        // ---- put

        FacManifest store(String key, ObjectSource source) {
            ChunkMap map = ParquetChunkMaps.read(source);
            CodingPlan plan = planner.plan(map);
            CodeParameters code = plan.code();
            ErasureCoder coder = ErasureCodecs.get(options.codec()).coder(code);
            String generation = newGeneration();
            int home = home(key);
            int unit = options.checksumUnit();
            List<FacManifest.Stripe> stripes = new ArrayList<>();
            List<FacManifest.Segment> segments = new ArrayList<>();
            List<String> written = new ArrayList<>();
            List<Integer> writtenNodes = new ArrayList<>();
            try {
                for (int s = 0; s < plan.stripes().size(); s++) {
                    StripePlan stripe = plan.stripes().get(s);
                    int[] placement = new int[code.totalBlocks()];
                    for (int b = 0; b < placement.length; b++) {
                        placement[b] = (home + s + b) % nodes.length();
                    }
                    stripes.add(encodeStripe(key, generation, s, stripe, placement, source, coder, unit, written,
                            writtenNodes));
                    for (int b = 0; b < stripe.dataBlocks().size(); b++) {
                        long blockOffset = 0;
                        for (ByteRange segment : stripe.dataBlocks().get(b).segments()) {
                            segments.add(new FacManifest.Segment(segment.offset(), segment.length(), s, b,
                                    blockOffset));
                            blockOffset += segment.length();
                        }
                    }
                }
                segments.sort(Comparator.comparingLong(FacManifest.Segment::objectOffset));
                FacManifest manifest = new FacManifest(key, generation, source.size(), options.codec(), code, unit,
                        nodes.length(), plan.strategy(), plan.constructor(), stripes, segments);
                FacManifest previous = previousVersion(key);
                writeManifest(manifest, previous);
                manifests.put(key, manifest);
                if (previous != null) {
                    deleteBlocks(previous);
                }
                return manifest;
            } catch (RuntimeException e) {
                for (int i = 0; i < written.size(); i++) {
                    deleteQuietly(writtenNodes.get(i), written.get(i));
                }
                throw e;
            }
        }

        private FacManifest previousVersion(String key) {
            FacManifest cached = manifests.get(key);
            if (cached != null) {
                return cached;
            }
            try {
                return ObjectBackend.await(manifestAsync(key, true));
            } catch (StorageException e) {
                return null;
            }
        }

        /** Encodes one stripe window by window, then writes its blocks in parallel; returns its manifest entry. */
        private FacManifest.Stripe encodeStripe(String key, String generation, int s, StripePlan stripe,
                int[] placement, ObjectSource source, ErasureCoder coder, int unit, List<String> written,
                List<Integer> writtenNodes) {
            CodeParameters code = coder.parameters();
            int n = code.totalBlocks();
            int k = code.dataBlocks();
            long blockSize = stripe.blockSize();
            long[] lengths = new long[n];
            for (int b = 0; b < n; b++) {
                lengths[b] = b < k ? stripe.dataBlocks().get(b).length() : blockSize;
            }
            int window = (int) Math.min(Math.max(unit, (long) ENCODE_WINDOW / unit * unit), Math.max(1, blockSize));
            byte[][] shards = new byte[n][window];
            CRC32C[] blockCrcs = new CRC32C[n];
            int[][] unitCrcs = new int[n][];
            for (int b = 0; b < n; b++) {
                blockCrcs[b] = new CRC32C();
                unitCrcs[b] = new int[Math.toIntExact((lengths[b] + unit - 1) / unit)];
            }
            try (Spool parity = Spool.allocate(blockSize * code.parityBlocks(), options.memorySpoolLimit(),
                    options.tempDirectory())) {
                for (long w = 0; w < blockSize; w += window) {
                    int length = (int) Math.min(window, blockSize - w);
                    for (int b = 0; b < k; b++) {
                        int available = (int) Math.max(0, Math.min(length, lengths[b] - w));
                        readBlock(stripe.dataBlocks().get(b), w, shards[b], available, source);
                        java.util.Arrays.fill(shards[b], available, length, (byte) 0);
                    }
                    coder.encode(shards, 0, length);
                    for (int b = 0; b < n; b++) {
                        int real = (int) Math.max(0, Math.min(length, lengths[b] - w));
                        blockCrcs[b].update(shards[b], 0, real);
                        for (int offset = 0; offset < real; offset += unit) {
                            CRC32C crc = new CRC32C();
                            crc.update(shards[b], offset, Math.min(unit, real - offset));
                            unitCrcs[b][(int) ((w + offset) / unit)] = (int) crc.getValue();
                        }
                        if (b >= k) {
                            parity.write((b - k) * blockSize + w, shards[b], 0, length);
                        }
                    }
                }
                List<Future<?>> uploads = new ArrayList<>();
                List<String> keys = new ArrayList<>();
                List<Integer> targets = new ArrayList<>();
                ObjectSource paritySource = parity.source();
                for (int b = 0; b < n; b++) {
                    if (lengths[b] == 0) {
                        continue;   // an empty data block is all padding: never stored
                    }
                    int block = b;
                    String blockKey = blockKey(key, generation, s, b);
                    ObjectBackend node = nodes.get(placement[b]);
                    keys.add(blockKey);
                    targets.add(placement[b]);
                    uploads.add(writers.submit(() -> {
                        try (InputStream in = block < k ? dataStream(stripe.dataBlocks().get(block), source)
                                : paritySource.stream((block - k) * blockSize, blockSize)) {
                            node.put(blockKey, in, lengths[block]);
                        }
                        return null;
                    }));
                }
                List<String> failures = new ArrayList<>();
                for (int i = 0; i < uploads.size(); i++) {
                    try {
                        uploads.get(i).get();
                        written.add(keys.get(i));
                        writtenNodes.add(targets.get(i));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new StorageException("Interrupted while storing " + key, e);
                    } catch (ExecutionException e) {
                        failures.add(keys.get(i) + " on " + nodeName(targets.get(i)) + ": "
                                + unwrap(e).getMessage());
                    }
                }
                if (!failures.isEmpty()) {
                    throw new StorageException("Cannot store " + key + ": writing stripe " + s + " failed: "
                            + String.join("; ", failures));
                }
            }
            List<FacManifest.Block> blocks = new ArrayList<>(n);
            for (int b = 0; b < n; b++) {
                blocks.add(new FacManifest.Block(s, b, placement[b], lengths[b], (int) blockCrcs[b].getValue(),
                        unitCrcs[b]));
            }
            return new FacManifest.Stripe(s, blockSize, blocks);
        }

        /** Copies {@code length} bytes of data block {@code block} from block offset {@code from}. */
        private static void readBlock(BlockPlan block, long from, byte[] target, int length, ObjectSource source) {
            long blockPosition = 0;
            int copied = 0;
            for (ByteRange segment : block.segments()) {
                if (copied == length) {
                    return;
                }
                long segmentEnd = blockPosition + segment.length();
                long want = from + copied;
                if (want < segmentEnd) {
                    long within = want - blockPosition;
                    int n = (int) Math.min(length - copied, segment.length() - within);
                    source.read(segment.offset() + within, target, copied, n);
                    copied += n;
                }
                blockPosition = segmentEnd;
            }
        }

        private static InputStream dataStream(BlockPlan block, ObjectSource source) {
            List<InputStream> parts = block.segments().stream()
                    .map(segment -> source.stream(segment.offset(), segment.length())).toList();
            return new SequenceInputStream(Collections.enumeration(parts));
        }

        private void writeManifest(FacManifest manifest, FacManifest previous) {
            byte[] bytes = manifest.encode();
            List<Integer> targets = replicaNodes(manifest.key(), manifest.code());
            List<Future<?>> puts = new ArrayList<>();
            for (int node : targets) {
                ObjectBackend backend = nodes.get(node);
                puts.add(writers.submit(() -> {
                    backend.put(manifestKey(manifest.key()), bytes);
                    return null;
                }));
            }
            List<String> failures = new ArrayList<>();
            List<Integer> done = new ArrayList<>();
            for (int i = 0; i < puts.size(); i++) {
                try {
                    puts.get(i).get();
                    done.add(targets.get(i));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failures.add(nodeName(targets.get(i)) + ": interrupted");
                } catch (ExecutionException e) {
                    failures.add(nodeName(targets.get(i)) + ": " + unwrap(e).getMessage());
                }
            }
            if (!failures.isEmpty()) {
                // Put the old version back where the new one landed, so that the object is not half replaced.
                byte[] old = previous == null ? null : previous.encode();
                for (int node : done) {
                    try {
                        if (old == null) {
                            nodes.get(node).delete(manifestKey(manifest.key()));
                        } else {
                            nodes.get(node).put(manifestKey(manifest.key()), old);
                        }
                    } catch (RuntimeException ignored) {
                        // best effort: the failure below is what the caller must see
                    }
                }
                throw new StorageException("Cannot store " + manifest.key() + ": writing its manifest failed on "
                        + String.join("; ", failures));
            }
        }

        private void deleteBlocks(FacManifest manifest) {
            for (FacManifest.Stripe stripe : manifest.stripes()) {
                for (FacManifest.Block block : stripe.blocks()) {
                    if (block.length() > 0) {
                        deleteQuietly(block.node(), blockKey(manifest, stripe.index(), block.index()));
                    }
                }
            }
        }

        private void deleteQuietly(int node, String key) {
            try {
                nodes.get(node).delete(key);
            } catch (RuntimeException ignored) {
                // a node that is down keeps an orphan block; delete() sweeps those later
            }
        }

        // ---- delete

        void delete(String key) {
            FacManifest manifest;
            try {
                manifest = ObjectBackend.await(manifestAsync(key, true));
            } catch (ObjectNotFoundException e) {
                manifest = null;
            } catch (StorageException e) {
                manifest = manifests.get(key);
            }
            manifests.remove(key);
            List<String> failures = new ArrayList<>();
            List<Integer> holders = new ArrayList<>(replicaNodes(key, options.code()));
            if (manifest != null) {
                for (int node : replicaNodes(key, manifest.code())) {
                    if (!holders.contains(node)) {
                        holders.add(node);
                    }
                }
            }
            for (int node : holders) {
                try {
                    nodes.get(node).delete(manifestKey(key));
                } catch (RuntimeException e) {
                    failures.add(nodeName(node) + ": " + e.getMessage());
                }
            }
            if (manifest != null) {
                deleteBlocks(manifest);
            }
            // Sweep blocks of versions no manifest names (a put that crashed, a node that was down).
            String prefix = blockPrefix(key);
            for (int i = 0; i < nodes.length(); i++) {
                try (Stream<ObjectInfo> listed = nodes.get(i).list(prefix)) {
                    int node = i;
                    listed.map(ObjectInfo::key).filter(k -> k.indexOf('/', prefix.length()) < 0)
                            .forEach(k -> deleteQuietly(node, k));
                } catch (RuntimeException ignored) {
                    // a node that is down keeps its orphans
                }
            }
            if (!failures.isEmpty()) {
                throw new StorageException("Cannot delete " + key + ": its manifest could not be deleted on "
                        + String.join("; ", failures));
            }
        }

        // ---- get

        CompletableFuture<ByteBuffer> read(FacManifest manifest, ByteRange range) {
            List<FacManifest.Piece> pieces = manifest.locate(range);
            if (pieces.isEmpty()) {
                return CompletableFuture.completedFuture(ByteBuffer.allocate(0).asReadOnlyBuffer());
            }
            if (pieces.size() == 1) {
                return readPiece(manifest, pieces.get(0));
            }
            byte[] out = new byte[(int) range.length()];
            CompletableFuture<?>[] parts = new CompletableFuture<?>[pieces.size()];
            for (int i = 0; i < pieces.size(); i++) {
                FacManifest.Piece piece = pieces.get(i);
                parts[i] = readPiece(manifest, piece).thenAccept(buffer ->
                        buffer.duplicate().get(out, (int) piece.outputOffset(), (int) piece.length()));
            }
            return CompletableFuture.allOf(parts).thenApply(v -> ByteBuffer.wrap(out).asReadOnlyBuffer());
        }

        /** The bytes of one piece: from its data block, or rebuilt when that fails. */
        private CompletableFuture<ByteBuffer> readPiece(FacManifest manifest, FacManifest.Piece piece) {
            FacManifest.Block block = manifest.block(piece.stripe(), piece.block());
            int unit = manifest.checksumUnit();
            long from = piece.blockOffset() / unit * unit;
            long to = Math.min(block.length(), ceilTo(piece.blockOffset() + piece.length(), unit));
            return readVerified(manifest, block, from, to).thenApply(buffer -> slice(buffer,
                    (int) (piece.blockOffset() - from), (int) piece.length()))
                    .exceptionallyCompose(error -> {
                        degradedReads.incrementAndGet();
                        return new Reconstruction(this, manifest, piece.stripe(), piece.block(), piece.blockOffset(),
                                piece.length(), describe(block, unwrap(error))).start();
                    });
        }

        /** Reads {@code [from, to)} of a block (unit-aligned) and checks its units. */
        CompletableFuture<ByteBuffer> readVerified(FacManifest manifest, FacManifest.Block block, long from,
                long to) {
            blockReads.incrementAndGet();
            CompletableFuture<ByteBuffer> raw;
            try {
                raw = nodes.get(block.node()).readRangeAsync(blockKey(manifest, block.stripe(), block.index()),
                        ByteRange.between(from, to));
            } catch (RuntimeException e) {
                raw = CompletableFuture.failedFuture(e);
            }
            return raw.handle((buffer, error) -> {
                if (error != null) {
                    failedBlockReads.incrementAndGet();
                    throw error instanceof CompletionException c ? c : new CompletionException(error);
                }
                bytesFromNodes.addAndGet(buffer.remaining());
                verify(manifest, block, from, to, buffer);
                return buffer;
            });
        }

        /** Checks the units of {@code [from, to)} of {@code block} in {@code buffer}. */
        void verify(FacManifest manifest, FacManifest.Block block, long from, long to, ByteBuffer buffer) {
            if (buffer.remaining() != to - from) {
                checksumFailures.incrementAndGet();
                throw new BlockChecksumException("Block " + block.index() + " of stripe " + block.stripe() + " of "
                        + manifest.key() + " on " + nodeName(block.node()) + " returned " + buffer.remaining()
                        + " bytes for [" + from + ", " + to + "): truncated", "truncated");
            }
            int unit = manifest.checksumUnit();
            for (long start = from; start < to; start += unit) {
                int length = (int) Math.min(unit, to - start);
                CRC32C crc = new CRC32C();
                ByteBuffer part = buffer.duplicate();
                part.position(buffer.position() + (int) (start - from)).limit(part.position() + length);
                crc.update(part);
                int u = (int) (start / unit);
                if ((int) crc.getValue() != block.unitCrc(u)) {
                    checksumFailures.incrementAndGet();
                    String where = "[" + start + ", " + (start + length) + ")";
                    throw new BlockChecksumException("Block " + block.index() + " of stripe " + block.stripe()
                            + " of " + manifest.key() + " on " + nodeName(block.node()) + " fails its checksum in "
                            + where, "fails its checksum in " + where);
                }
            }
        }

        private String describe(FacManifest.Block block, Throwable error) {
            return "block " + block.index() + " on node " + block.node() + ": " + reason(error);
        }

        /** Why a block could not be used, in a few words. */
        static String reason(Throwable error) {
            if (error instanceof ObjectNotFoundException) {
                return "missing";
            }
            if (error instanceof BlockChecksumException checksum) {
                return checksum.reason;
            }
            String message = error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
            if (message.length() > 160) {
                message = message.substring(0, 157) + "...";
            }
            return error instanceof StorageException storage && storage.isTransient() ? "unreachable: " + message
                    : message;
        }

        // ---- repair

        RepairReport repairObject(String key) {
            List<String> failures = new ArrayList<>();
            FacManifest manifest;
            try {
                manifest = ObjectBackend.await(manifestAsync(key, true));
            } catch (StorageException e) {
                return new RepairReport(1, 0, 0, 0, 0, List.of(key + ": " + e.getMessage()));
            }
            long checked = 0;
            long rebuilt = 0;
            long bytes = 0;
            for (FacManifest.Stripe stripe : manifest.stripes()) {
                for (FacManifest.Block block : stripe.blocks()) {
                    if (block.length() == 0) {
                        continue;
                    }
                    checked++;
                    if (blockIsSound(manifest, block)) {
                        continue;
                    }
                    try {
                        bytes += rebuildBlock(manifest, block);
                        rebuilt++;
                    } catch (RuntimeException e) {
                        failures.add(key + " " + block + ": " + unwrap(e).getMessage());
                    }
                }
            }
            int manifestsWritten = repairManifests(manifest, -1, failures);
            return new RepairReport(1, checked, rebuilt, bytes, manifestsWritten, failures);
        }

        RepairReport rebuildNode(int node) {
            List<String> failures = new ArrayList<>();
            List<String> keys = listKeys("");
            long rebuilt = 0;
            long bytes = 0;
            int manifestsWritten = 0;
            for (String key : keys) {
                FacManifest manifest;
                try {
                    manifest = ObjectBackend.await(manifestAsync(key, true));
                } catch (StorageException e) {
                    failures.add(key + ": " + e.getMessage());
                    continue;
                }
                for (FacManifest.Stripe stripe : manifest.stripes()) {
                    for (FacManifest.Block block : stripe.blocks()) {
                        if (block.node() != node || block.length() == 0) {
                            continue;
                        }
                        try {
                            bytes += rebuildBlock(manifest, block);
                            rebuilt++;
                        } catch (RuntimeException e) {
                            failures.add(key + " " + block + ": " + unwrap(e).getMessage());
                        }
                    }
                }
                manifestsWritten += repairManifests(manifest, node, failures);
            }
            return new RepairReport(keys.size(), 0, rebuilt, bytes, manifestsWritten, failures);
        }

        /** Whether the whole block can be read and passes its checksums. */
        private boolean blockIsSound(FacManifest manifest, FacManifest.Block block) {
            long window = Math.max(manifest.checksumUnit(), (long) REBUILD_WINDOW / manifest.checksumUnit()
                    * manifest.checksumUnit());
            try {
                for (long from = 0; from < block.length(); from += window) {
                    ObjectBackend.await(readVerified(manifest, block, from, Math.min(block.length(), from + window)));
                }
                return true;
            } catch (StorageException e) {
                return false;
            }
        }

        /** Decodes a whole block from the rest of its stripe, checks it and writes it to its node; returns bytes. */
        private long rebuildBlock(FacManifest manifest, FacManifest.Block block) {
            int unit = manifest.checksumUnit();
            long window = Math.max(unit, (long) REBUILD_WINDOW / unit * unit);
            try (Spool spool = Spool.allocate(block.length(), options.memorySpoolLimit(), options.tempDirectory())) {
                CRC32C crc = new CRC32C();
                for (long from = 0; from < block.length(); from += window) {
                    long length = Math.min(window, block.length() - from);
                    ByteBuffer bytes = ObjectBackend.await(new Reconstruction(this, manifest, block.stripe(),
                            block.index(), from, length, "rebuilding " + block).start());
                    byte[] array = new byte[bytes.remaining()];
                    bytes.get(array);
                    crc.update(array);
                    spool.write(from, array, 0, array.length);
                }
                if ((int) crc.getValue() != block.crc32c()) {
                    throw new CorruptDataException("The rebuilt " + block + " of " + manifest.key()
                            + " does not match its CRC32C");
                }
                try (InputStream in = spool.source().stream(0, block.length())) {
                    nodes.get(block.node()).put(blockKey(manifest, block.stripe(), block.index()), in,
                            block.length());
                } catch (java.io.IOException e) {
                    throw new StorageException("Cannot write the rebuilt " + block + " of " + manifest.key(), e);
                }
            }
            return block.length();
        }

        /** Rewrites missing or damaged manifest replicas (only on {@code onlyNode} when it is not -1). */
        private int repairManifests(FacManifest manifest, int onlyNode, List<String> failures) {
            byte[] bytes = manifest.encode();
            int written = 0;
            for (int node : replicaNodes(manifest.key(), manifest.code())) {
                if (onlyNode >= 0 && node != onlyNode) {
                    continue;
                }
                try {
                    boolean sound;
                    try {
                        FacManifest stored = FacManifest.decode(nodes.get(node).readAll(manifestKey(manifest.key())),
                                manifestKey(manifest.key()));
                        sound = stored.generation().equals(manifest.generation());
                    } catch (StorageException e) {
                        sound = false;
                    }
                    if (!sound) {
                        nodes.get(node).put(manifestKey(manifest.key()), bytes);
                        written++;
                    }
                } catch (RuntimeException e) {
                    failures.add(manifest.key() + " manifest on " + nodeName(node) + ": " + e.getMessage());
                }
            }
            return written;
        }

        private static long ceilTo(long value, int unit) {
            return (value + unit - 1) / unit * unit;
        }

        private static ByteBuffer slice(ByteBuffer buffer, int offset, int length) {
            ByteBuffer slice = buffer.duplicate();
            slice.position(buffer.position() + offset).limit(buffer.position() + offset + length);
            return slice.slice().asReadOnlyBuffer();
        }
    }

    /**
     * Rebuilds {@code [offset, offset + length)} of one block from k other blocks of its stripe, decoding only the
     * checksum units that hold the range. Data blocks that end before the range are known zeros (padding) and cost
     * no read. Reads the fewest blocks it can, data blocks first, and replaces any that fail with the next.
     */
    private static final class Reconstruction {
        private final Core core;
        private final FacManifest manifest;
        private final int stripe;
        private final int target;
        private final long offset;
        private final long length;
        private final long from;
        private final long to;
        private final int n;
        private final int k;
        private final byte[][] shards;
        private final boolean[] present;
        private final List<Integer> candidates = new ArrayList<>();
        private final Map<Integer, String> failures = new java.util.LinkedHashMap<>();
        private final CompletableFuture<ByteBuffer> result = new CompletableFuture<>();
        private int presentCount;
        private int next;
        private int inFlight;
        private boolean done;

        Reconstruction(Core core, FacManifest manifest, int stripe, int target, long offset, long length,
                String whyTargetFailed) {
            this.core = core;
            this.manifest = manifest;
            this.stripe = stripe;
            this.target = target;
            this.offset = offset;
            this.length = length;
            int unit = manifest.checksumUnit();
            FacManifest.Stripe entry = manifest.stripes().get(stripe);
            this.from = offset / unit * unit;
            this.to = Math.min(entry.blockSize(), Core.ceilTo(offset + length, unit));
            this.n = manifest.code().totalBlocks();
            this.k = manifest.code().dataBlocks();
            this.shards = new byte[n][(int) (to - from)];
            this.present = new boolean[n];
            failures.put(target, whyTargetFailed);
        }

        CompletableFuture<ByteBuffer> start() {
            synchronized (this) {
                for (int b = 0; b < n; b++) {
                    if (b == target) {
                        continue;
                    }
                    if (b < k && manifest.block(stripe, b).length() <= from) {
                        present[b] = true;   // all padding here: zeros, known without a read
                        presentCount++;
                    } else {
                        candidates.add(b);
                    }
                }
                if (presentCount >= k) {
                    finish();
                } else {
                    launchMore();
                }
            }
            return result;
        }

        /**
         * Reads more candidate blocks until enough are present or being read; fails when none are left. Called
         * holding the lock. A read may complete at once, on this thread, and call back in here.
         */
        private void launchMore() {
            while (!done && presentCount + inFlight < k && next < candidates.size()) {
                int b = candidates.get(next++);
                FacManifest.Block block = manifest.block(stripe, b);
                long end = Math.min(to, block.length());
                inFlight++;
                core.readVerified(manifest, block, from, end).whenComplete((buffer, error) -> completed(b, buffer,
                        error));
            }
            if (!done && inFlight == 0 && presentCount < k) {
                fail();
            }
        }

        private synchronized void completed(int b, ByteBuffer buffer, Throwable error) {
            inFlight--;
            if (done) {
                return;
            }
            if (error == null) {
                buffer.duplicate().get(shards[b], 0, buffer.remaining());   // the rest stays zero: padding
                present[b] = true;
                presentCount++;
                if (presentCount >= k) {
                    finish();
                    return;
                }
            } else {
                Throwable cause = unwrap(error);
                FacManifest.Block block = manifest.block(stripe, b);
                failures.put(b, "block " + b + " on node " + block.node() + ": " + Core.reason(cause));
            }
            // Whichever read ends last decides: read another block, or give up when none is left.
            launchMore();
        }

        /** Decodes and checks the target's units. Called holding the lock. */
        private void finish() {
            done = true;
            try {
                ErasureCoder coder = ErasureCodecs.get(manifest.codec()).coder(manifest.code());
                coder.decode(shards, present, 0, shards[0].length);
                core.decodedBytes.addAndGet(to - from);
                FacManifest.Block lost = manifest.block(stripe, target);
                long checkedEnd = Math.min(to, lost.length());
                if (checkedEnd > from) {
                    core.verify(manifest, lost, from, checkedEnd,
                            ByteBuffer.wrap(shards[target], 0, (int) (checkedEnd - from)));
                }
                result.complete(ByteBuffer.wrap(shards[target], (int) (offset - from), (int) length).slice()
                        .asReadOnlyBuffer());
            } catch (RuntimeException e) {
                result.completeExceptionally(e instanceof CorruptDataException ? new CorruptDataException(
                        "Rebuilt bytes of block " + target + " of stripe " + stripe + " of " + manifest.key()
                                + " do not match its checksums: " + e.getMessage(), e) : e);
            }
        }

        private void fail() {
            done = true;
            List<Integer> missingNodes = failures.keySet().stream().sorted()
                    .map(b -> manifest.block(stripe, b).node()).collect(Collectors.toList());
            CodeParameters code = manifest.code();
            String details = failures.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(Map.Entry::getValue).collect(Collectors.joining("; "));
            result.completeExceptionally(new StripeUnavailableException("Cannot read [" + offset + ", "
                    + (offset + length) + ") of block " + target + " of stripe " + stripe + " of " + manifest.key()
                    + ": " + failures.size() + " of its " + n + " blocks cannot be used, on nodes " + missingNodes
                    + " (" + details + "); " + code + " rebuilds a stripe from any " + k + " of its " + n
                    + " blocks, so it survives the loss of at most " + code.parityBlocks(),
                    manifest.key(), stripe, missingNodes));
        }
    }

    /** A block's bytes do not match its checksums; {@code reason} says where, in a few words. */
    private static final class BlockChecksumException extends CorruptDataException {
        private static final long serialVersionUID = 1L;
        private final String reason;

        BlockChecksumException(String message, String reason) {
            super(message);
            this.reason = reason;
        }
    }
}
