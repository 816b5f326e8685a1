package io.layoutbench.fusion.store;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.SupportsFirstByteSignal;
import io.layoutbench.api.backend.SupportsRacedReads;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.codec.ErasureCodecs;
import io.layoutbench.fusion.coding.ObjectSource;

import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

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
 * that fails reloads the manifest once in case another writer replaced the object. A view made for one unit of work
 * ({@link #withMetrics}: a query) shares the checked checksum units of its small reads among them (a
 * {@code UnitCache}, up to 16 MiB, gone with the view), so a query that reads thousands of small metadata chunks
 * packed into the same blocks reads each unit from its node once; views of that view share it too. The backend
 * itself keeps no unit, so what it reads after another writer replaced an object is the new object. A query's view
 * races the reads it sends to the nodes when asked to ({@link #withRacedReads}: a cold query's metadata reads, a
 * small batch of data reads), where the nodes signal first bytes.
 *
 * <p><b>Inside</b>: this class checks arguments, counts requests and delegates, each concern to a package-private
 * class: {@code StripeWriter} (put), {@code ManifestStore} (manifest replicas and the cache), {@code BlockReader}
 * (verified and degraded reads), {@code Repairer}, {@code Deleter}, and {@code Placement} (where things lie). They
 * share one {@code FacNodes}: the nodes, the options and the write threads.
 *
 * <pre>{@code
 * List<ObjectBackend> nodes = IntStream.range(0, 9)
 *         .mapToObj(i -> (ObjectBackend) new FileBackend(root.resolve("node-" + i))).toList();
 * try (FacBackend fac = FacBackend.create(nodes, FacOptions.defaults(), true)) {
 *     fac.put("tpch/lineitem.parquet", Path.of("lineitem.parquet"));
 *     ByteBuffer chunk = fac.readRange("tpch/lineitem.parquet", ByteRange.of(4, 1 << 20));
 * }
 * }</pre>
 */
public final class FacBackend implements ObjectBackend, SupportsRacedReads {

    private final FacNodes nodes;
    private final ManifestStore manifests;
    private final BlockReader reader;
    private final StripeWriter writer;
    private final Deleter deleter;
    private final Repairer repairer;
    private final RequestMetrics metrics;
    private final boolean view;
    /** Checked units shared by the small reads of this view's unit of work; null on the backend itself. */
    private final UnitCache units;
    /** How this view races its node reads ({@link #withRacedReads}); null when it sends each once. */
    private final RacedNodeReads racing;

    private FacBackend(FacNodes nodes) {
        this.nodes = nodes;
        this.manifests = new ManifestStore(nodes);
        this.reader = new BlockReader(nodes);
        this.deleter = new Deleter(nodes, manifests);
        this.writer = new StripeWriter(nodes, manifests, deleter);
        this.repairer = new Repairer(nodes, manifests, reader);
        this.metrics = RequestMetrics.NONE;
        this.view = false;
        this.units = null;
        this.racing = null;
    }

    /**
     * A view of {@code shared} that counts its logical requests into {@code metrics} and races its node reads as
     * {@code racing} says (null: it does not).
     */
    private FacBackend(FacBackend shared, RequestMetrics metrics, RacedNodeReads racing) {
        this.nodes = shared.nodes;
        this.manifests = shared.manifests;
        this.reader = shared.reader;
        this.deleter = shared.deleter;
        this.writer = shared.writer;
        this.repairer = shared.repairer;
        this.metrics = metrics;
        this.view = true;
        this.units = shared.units != null ? shared.units : new UnitCache(UnitCache.DEFAULT_CAPACITY_BYTES);
        this.racing = racing;
    }

    /**
     * A FAC backend over {@code nodes}.
     *
     * @param nodes     the N storage nodes, N at least the code's n; their order is their identity (node i is index
     *                  i in every manifest), so reopen a store with its nodes in the same order
     * @param options   how puts encode
     * @param ownsNodes whether {@link #close()} closes the nodes
     * @throws ConfigurationException if there are fewer nodes than blocks in a stripe, or the codec is unknown
     */
    public static FacBackend create(List<? extends ObjectBackend> nodes, FacOptions options, boolean ownsNodes) {
        requireNonNull(nodes, "nodes is null");
        requireNonNull(options, "options is null");
        if (nodes.size() < options.code().totalBlocks()) {
            throw new ConfigurationException(options.code() + " puts each stripe's " + options.code().totalBlocks()
                    + " blocks on distinct nodes, but only " + nodes.size() + " nodes were given");
        }
        ErasureCodecs.get(options.codec()).coder(options.code());   // fails now, naming the known codecs
        return new FacBackend(new FacNodes(List.copyOf(nodes), options, ownsNodes));
    }

    /** The nodes, in order; node {@code i} of every manifest is element {@code i}. */
    public List<ObjectBackend> nodes() {
        return nodes.all();
    }

    /** How puts encode. */
    public FacOptions options() {
        return nodes.options();
    }

    /** What reads have done since this backend was created (views included). */
    public FacStatistics statistics() {
        return reader.statistics();
    }

    /**
     * Which of one query's {@code requests}, in the order it sends them, a view of this store ({@link #withMetrics})
     * answers from checksum units an earlier request of the list reads, sending no node read of its own. A view
     * shares the checked units of small reads for its unit of work ({@code UnitCache}); Algorithm 1 packs small
     * Parquet chunks side by side, so a query that reads a row group's chunks one by one (paper mode) sends one node
     * read for many of them. The cost model prices those requests without a round trip of their own.
     *
     * <p>Reads nothing: it works on the manifests this store has cached (a query that ran, or a put, leaves them), and
     * counts a request on an object whose manifest is not cached as not shared. The view's cache evicts units past
     * 16 MiB, which a query whose small reads span more than that would meet; that is not modelled.
     *
     * <pre>{@code
     * BitSet shared = fac.sharedReads(plan.dataRequests());
     * }</pre>
     *
     * @return bit {@code i} set when request {@code i} needs no node read of its own
     */
    public BitSet sharedReads(List<PlannedRequest> requests) {
        requireNonNull(requests, "requests is null");
        BitSet shared = new BitSet(requests.size());
        Set<UnitCache.UnitKey> fetched = new HashSet<>();
        for (int i = 0; i < requests.size(); i++) {
            PlannedRequest request = requests.get(i);
            Optional<FacManifest> manifest = manifests.cached(request.key());
            if (manifest.isPresent() && request.range().fitsIn(manifest.get().objectSize())
                    && BlockReader.sharesUnits(manifest.get(), request.range(), fetched)) {
                shared.set(i);
            }
        }
        return shared;
    }

    @Override
    public URI uri() {
        CodeParameters code = nodes.options().code();
        return URI.create("fac:rs-" + code.totalBlocks() + "-" + code.dataBlocks() + "-on-" + nodes.count()
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
        Placement.checkKeyLength(key);
        nodes.checkOpen();
        long start = System.nanoTime();
        metrics.onRequestStarted(kind);
        CompletableFuture<ByteBuffer> result = manifests.get(key, racing)
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
        return reader.read(manifest, range, units, racing).exceptionallyCompose(error -> {
            Throwable cause = Futures.unwrap(error);
            if (attempt >= 5 || !(cause instanceof StorageException)) {
                return CompletableFuture.failedFuture(cause);
            }
            return manifests.load(key).handle((fresh, reloadError) -> {
                if (reloadError != null && Futures.unwrap(reloadError) instanceof ObjectNotFoundException gone) {
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
     * {@code range} of the object version {@code manifest} describes, whatever the store holds under its key now: a
     * reader that planned with one version (a query that read its footer) reads that version's blocks, and fails
     * rather than mixing in another writer's. Missing or damaged blocks are rebuilt as for any read; once another
     * writer's put deleted the version's blocks, the read fails with {@link StripeUnavailableException}.
     *
     * <pre>{@code
     * FacManifest version = fac.manifest(key);
     * ByteBuffer chunk = fac.readRangeAsync(version, ByteRange.of(4, 1 << 20)).join();
     * }</pre>
     *
     * @throws IllegalArgumentException if the range is not within the object
     */
    public CompletableFuture<ByteBuffer> readRangeAsync(FacManifest manifest, ByteRange range) {
        requireNonNull(manifest, "manifest is null");
        requireNonNull(range, "range is null");
        nodes.checkOpen();
        if (!range.fitsIn(manifest.objectSize()) || range.length() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("Cannot read " + range + " of " + manifest.key() + " (generation "
                    + manifest.generation() + ", " + manifest.objectSize() + " bytes) into one buffer");
        }
        long start = System.nanoTime();
        metrics.onRequestStarted(RequestKind.RANGE_GET);
        return reader.read(manifest, range, units, racing).whenComplete((buffer, error) -> {
            if (error != null) {
                metrics.onRequestFailed(RequestKind.RANGE_GET);
            } else {
                metrics.onFirstByte(RequestKind.RANGE_GET, System.nanoTime() - start);
                metrics.onBytesReceived(RequestKind.RANGE_GET, buffer.remaining());
            }
        });
    }

    /**
     * The manifest of {@code key}, read from its replicas now (not from the cache).
     *
     * @throws ObjectNotFoundException if no replica holds it
     */
    public FacManifest manifest(String key) {
        ObjectKeys.check(key);
        return ObjectBackend.await(manifests.load(key));
    }

    @Override
    public long size(String key) {
        ObjectKeys.check(key);
        Placement.checkKeyLength(key);
        nodes.checkOpen();
        long start = System.nanoTime();
        metrics.onRequestStarted(RequestKind.HEAD);
        try {
            long size = ObjectBackend.await(manifests.get(key)).objectSize();
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
        nodes.checkOpen();
        metrics.onRequestStarted(RequestKind.LIST);
        List<String> keys;
        try {
            keys = manifests.keys(prefix);
        } catch (RuntimeException e) {
            metrics.onRequestFailed(RequestKind.LIST);
            throw e;
        }
        metrics.onFirstByte(RequestKind.LIST, 0);
        return keys.stream().map(key -> new ObjectInfo(key, ObjectBackend.await(manifests.get(key)).objectSize()));
    }

    // ---- writes ------------------------------------------------------------------------------------------------

    @Override
    public void put(String key, InputStream data, long length) {
        ObjectKeys.check(key);
        Placement.checkKeyLength(key);
        requireNonNull(data, "data is null");
        if (length < 0) {
            throw new IllegalArgumentException("Cannot store " + key + ": negative length " + length);
        }
        nodes.checkOpen();
        metrics.onRequestStarted(RequestKind.PUT);
        FacOptions options = nodes.options();
        try (Spool spool = Spool.read(data, length, options.memorySpoolLimit(), options.tempDirectory(),
                key + " in " + uri())) {
            metrics.onBytesSent(RequestKind.PUT, length);
            writer.store(key, spool.source());
        } catch (RuntimeException e) {
            metrics.onRequestFailed(RequestKind.PUT);
            throw e;
        }
    }

    /**
     * Stores the file at {@code file} as {@code key}, coded from the file itself: a stream's bytes are first copied
     * to a spool (in memory or a temporary file of the object's size), as the coder reads its source at random, and
     * a file needs no copy.
     */
    @Override
    public void put(String key, Path file) {
        requireNonNull(file, "file is null");
        ObjectSource source;
        try {
            source = ObjectSource.of(file);
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException("Cannot read " + file + " to store it as " + key + " in " + uri(),
                    e.getCause());
        }
        try (source) {
            put(key, source);
        }
    }

    /**
     * Stores {@code source} as {@code key} and returns its manifest: the same as {@link #put}, for callers that want
     * to see how the object was coded.
     */
    public FacManifest put(String key, ObjectSource source) {
        ObjectKeys.check(key);
        Placement.checkKeyLength(key);
        nodes.checkOpen();
        metrics.onRequestStarted(RequestKind.PUT);
        try {
            FacManifest manifest = writer.store(key, source);
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
        Placement.checkKeyLength(key);
        nodes.checkOpen();
        metrics.onRequestStarted(RequestKind.DELETE);
        try {
            deleter.delete(key);
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
        nodes.checkOpen();
        return repairer.repairObject(key);
    }

    /** {@link #repair(String)} of every object. */
    public RepairReport repairAll() {
        nodes.checkOpen();
        return repairer.repairAll();
    }

    /**
     * Rebuilds everything node {@code node} held onto {@code replacement}, which takes its place (an empty directory
     * or bucket standing in for a lost disk). Each block is decoded from k other blocks of its stripe, checked
     * against its checksums and written; manifest replicas are copied from other nodes.
     */
    public RepairReport repairNode(int node, ObjectBackend replacement) {
        requireNonNull(replacement, "replacement is null");
        nodes.checkOpen();
        if (node < 0 || node >= nodes.count()) {
            throw new IllegalArgumentException("There is no node " + node + "; nodes are 0 to "
                    + (nodes.count() - 1));
        }
        nodes.replace(node, replacement);
        return repairer.rebuildNode(node);
    }

    // ---- life cycle --------------------------------------------------------------------------------------------

    /**
     * A view sharing everything with this backend that counts its logical requests into {@code metrics}, for one unit
     * of work: its small reads share checked units (a view of a view shares its parent's).
     */
    @Override
    public FacBackend withMetrics(RequestMetrics metrics) {
        return new FacBackend(this, requireNonNull(metrics, "metrics is null"), null);
    }

    /**
     * A view of this one (the same unit of work: it shares this view's checked units and counts its requests into the
     * same metrics) that races the reads it sends to the nodes, for reads that go one round at a time (a cold query's
     * metadata: location maps, footers, metadata files). A client racing copies of a read above the store gains
     * nothing: a small read's copies would wait on the one node read of its units, and a copy cannot be dropped at its
     * first byte. Here each block read is raced to its node, below the unit cache, as a single read on an idle link
     * is ({@link io.layoutbench.api.network.HedgeDelay#racedCopiesAlone}), and each location map is read from as many
     * of its replicas at once, the first to answer kept. This view itself where the store cannot race: a node does not
     * signal first bytes ({@link SupportsFirstByteSignal}: files, S3, Flight), or a race cannot pay on
     * {@code network}. On the store itself (not a query's view), the raced view is a unit of work of its own, as
     * {@link #withMetrics} makes.
     *
     * <pre>{@code
     * FacBackend query = fac.withMetrics(queryMetrics);
     * ObjectBackend metadataReads = query.withRacedReads(NetworkProfiles.get("t3.medium"), queryMetrics);
     * }</pre>
     *
     * @param metrics where each copy of a block read after the first is counted as a request and a hedged one
     */
    @Override
    public ObjectBackend withRacedReads(NetworkProfile network, RequestMetrics metrics) {
        requireNonNull(network, "network is null");
        requireNonNull(metrics, "metrics is null");
        return canRace(network) ? new FacBackend(this, this.metrics, new RacedNodeReads(network, metrics, 0)) : this;
    }

    /**
     * {@link #withRacedReads(NetworkProfile, RequestMetrics)}, every block read raced as {@code copies} copies at once
     * (one, over the network's bandwidth-delay product): the view retrieval reads a batch through when it has chosen
     * to race it ({@link io.layoutbench.api.network.HedgeDelay#racedCopies}), sending each of the batch's reads once.
     * Each copy is a node read of its own, cancelled at the winner's first byte; the requests that share a unit share
     * one raced node read. This view itself where the store cannot race, as there.
     *
     * <pre>{@code
     * ObjectBackend batchReads = fac.withMetrics(queryMetrics).withRacedReads(network, queryMetrics, 3);
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code copies} is below 2
     */
    @Override
    public ObjectBackend withRacedReads(NetworkProfile network, RequestMetrics metrics, int copies) {
        requireNonNull(network, "network is null");
        requireNonNull(metrics, "metrics is null");
        if (copies < 2) {
            throw new IllegalArgumentException("A race sends at least 2 copies of a read, got " + copies);
        }
        return canRace(network) ? new FacBackend(this, this.metrics, new RacedNodeReads(network, metrics, copies))
                : this;
    }

    /** Whether a race can pay on {@code network} and every node can say when a response starts, as it now is. */
    private boolean canRace(NetworkProfile network) {
        if (!HedgeDelay.worthwhile(network)) {
            return false;
        }
        for (ObjectBackend node : nodes.all()) {
            if (!(node instanceof SupportsFirstByteSignal)) {
                return false;
            }
        }
        return true;
    }

    /** Stops the write threads and, if this backend owns them, closes the nodes. Views do nothing. */
    @Override
    public void close() {
        if (!view) {
            manifests.clear();
            nodes.close();
        }
    }

    @Override
    public String toString() {
        return "FacBackend[" + uri() + "]";
    }
}
