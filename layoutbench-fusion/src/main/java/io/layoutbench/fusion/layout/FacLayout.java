package io.layoutbench.fusion.layout;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.PartWriter;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.PlannedRequest.Sharing;
import io.layoutbench.api.layout.PreparedQuery;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultRange;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.layout.SupportsDistributedWrites;
import io.layoutbench.api.layout.SupportsPreparedQueries;
import io.layoutbench.api.layout.WriteJob;
import io.layoutbench.api.layout.WrittenPart;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;
import io.layoutbench.fusion.store.PrefixedBackend;
import io.layoutbench.layouts.common.JobCommit;
import io.layoutbench.layouts.common.LayoutOptions;
import io.layoutbench.layouts.l3.L3Layout;
import io.layoutbench.layouts.manifest.ChecksummedProperties;
import io.layoutbench.layouts.manifest.UnverifiedDatasetException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Layout {@code fac}: the L3 layout (one Parquet table of metadata and image bytes in part files) stored in a
 * {@link FacBackend}, so that every part file is erasure coded across N storage nodes with no column chunk split
 * between nodes. Every query of L3 works on it unchanged, also with up to n - k nodes down: reads that hit a lost
 * node are rebuilt from the other blocks of the stripe.
 *
 * <p><b>Nodes.</b> With {@code node-uris} (comma-separated backend URIs such as {@code file:/disk1/fac,...}) each URI
 * is a node. Otherwise the nodes are {@code nodes} (default: the code's n) prefixes of the backend the layout is
 * given, {@code <prefix>/nodes/node-00/} and so on, which lets the layout run anywhere a single backend is given
 * (and counts every stored byte, parity included, under the dataset's prefix). A descriptor,
 * {@code <prefix>/fac-layout.properties}, records the nodes and coding options on that backend so that
 * {@link #open} finds them again; it carries its own CRC32C ({@code ChecksummedProperties}), checked on open.
 *
 * <p><b>Integrity, end to end.</b> The descriptor is checked on open; the L3 manifest, part files and samples are
 * objects of the FAC store, whose reads check a CRC32C per 64 KiB unit of every block (rebuilding a unit that fails
 * from the other blocks of its stripe) and whose location maps carry their own CRC32C (a damaged replica is skipped);
 * above the store, L3 checks its manifest, each part's footer, page indexes and metadata chunks against the
 * manifest, every blob page's CRC32 and every sample's CRC32C, as over any other backend.
 *
 * <p><b>Options:</b> L3's {@code file-size}, {@code row-group-size}, {@code page-size} and {@code metadata-file};
 * {@link FacOptions}'s {@code code}, {@code codec}, {@code stripe-constructor}, {@code overhead-budget},
 * {@code fixed-block-size}, {@code single-block-limit} and {@code checksum-unit}; {@code nodes}; {@code node-uris}.
 * A part file holds {@value #ROW_GROUPS_PER_FILE} row groups (512 KiB in 64 MB files) unless {@code row-group-size}
 * says otherwise, not L3's one of 128 MB: an L3 part file is one large image-bytes chunk per row group among tiny
 * metadata chunks, and with a dozen row groups of similar size FAC's overhead is set by their number modulo k
 * (30-45% over the optimum, so the budget sends such files to fixed blocks); with a hundred or more it falls to 1-2%
 * (docs/FAC.md, "L3 files"). So each part has a metadata file ({@code metadata-file=true} unless the options say
 * otherwise): a query reads the metadata of a part's 128 row groups in one request beside its footer, not one
 * request (and one node read) per row group. Objects up to {@link #DEFAULT_SINGLE_BLOCK_LIMIT} (the L3 manifest, the
 * metadata files) are stored whole in one data block, so reading one whole is one node read.
 *
 * <p>Programmatic use with explicit node backends, for example ones a test takes down:
 * <pre>{@code
 * try (FacBackend fac = FacBackend.create(nodes, FacOptions.defaults(), false)) {
 *     try (DatasetWriter writer = FacLayout.create(fac, "tiny/fac", MetadataSchema.imageNet(), Map.of())) {
 *         ...; writer.commit();
 *     }
 *     try (Dataset dataset = FacLayout.open(fac, "tiny/fac")) { dataset.query("label = 'cello'"); }
 * }
 * }</pre>
 */
public final class FacLayout implements StorageLayout, SupportsDistributedWrites {

    /** The layout's name. */
    public static final String NAME = "fac";
    /** Option: number of prefix nodes in the layout's own backend (default: the code's n). */
    public static final String NODES = "nodes";
    /** Option: comma-separated URIs of the node backends. */
    public static final String NODE_URIS = "node-uris";
    /**
     * Row groups per part file, unless the options set {@code row-group-size}: the row-group size is the part
     * files' size over this (512 KiB for L3's default 64 MB files), at least {@value #MIN_DEFAULT_ROW_GROUP_SIZE}
     * bytes. FAC packs whole chunks, so it needs many per file: with a dozen row groups its overhead is set by their
     * number modulo k (30-45%); at mini, 128 per file keeps every part file FAC-coded within the 5% budget (1.26% extra
     * parity) while 64 per file (1 MiB row groups) sent a third of them to fixed blocks. Fewer, larger row groups
     * are what a cold query wants (it reads metadata of each): at mini, 512 KiB instead of 256 KiB stored 2 MB less in
     * all (smaller footers outweigh the parity) and took cold Q4 from 3.2 s to 1.8 s (docs/FAC.md, "Row-group size:
     * coding against cold queries").
     */
    public static final int ROW_GROUPS_PER_FILE = 128;
    /** The smallest row group the default gives, for small part files. */
    public static final long MIN_DEFAULT_ROW_GROUP_SIZE = 64L << 10;
    /**
     * Checksum unit of the layout's FAC store unless the options say otherwise: 16 KiB, not the store's 64 KiB. The
     * store reads whole units to check them, and this layout reads samples (about 110 KB at mini) and small metadata
     * chunks by range, so each read brought up to two units more than it needed from the nodes: at mini, warm Q8 took
     * 0.90 s with 64 KiB units and 0.70 s with 16 KiB (L3: 0.58 s); the location maps grow by 12 bytes per 64 KiB
     * stored (docs/FAC.md, "The fac layout").
     */
    public static final int DEFAULT_CHECKSUM_UNIT = 16 << 10;
    /**
     * Single-block limit of the layout's FAC store unless the options say otherwise: 1 MiB. A query reads the L3
     * manifest and each part's metadata file whole, and FAC spread them over the k data blocks, so each such read
     * waited for the slowest of k node reads; in one block it is one node read, for a few MB of parity in all (n - k
     * copies of each, against (n - k) / k).
     */
    public static final long DEFAULT_SINGLE_BLOCK_LIMIT = 1L << 20;
    /** Row-group size of part files of L3's default size, unless the options say otherwise: 512 KiB. */
    public static final long DEFAULT_ROW_GROUP_SIZE = L3Layout.DEFAULT_FILE_SIZE / ROW_GROUPS_PER_FILE;
    /** The descriptor's key under the prefix. */
    public static final String DESCRIPTOR = "fac-layout.properties";

    private static final Set<String> L3_KEYS = Set.of(L3Layout.FILE_SIZE, L3Layout.ROW_GROUP_SIZE,
            L3Layout.PAGE_SIZE, L3Layout.BLOB_THRESHOLD, L3Layout.METADATA_FILE);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "L3's Parquet part files erasure coded across N nodes with Fusion's file-format-aware coding: no column"
                + " chunk split between nodes (RS(9,6) by default)";
    }

    @Override
    public DatasetWriter create(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        requireNonNull(backend, "backend is null");
        requireNonNull(schema, "schema is null");
        ObjectKeys.check(prefix);
        Settings settings = Settings.of(options);
        FacBackend fac = settings.open(backend, prefix);
        String descriptorKey = prefix + "/" + DESCRIPTOR;
        try {
            // The descriptor is written once the L3 manifest is committed, not before: until then the dataset
            // there (if any) keeps its own, and an ingest that is aborted, or refused because another committed
            // meanwhile, leaves it alone (its blocks go with the L3 writer).
            return create(fac, prefix, schema, settings.l3Options(), fac,
                    () -> backend.put(descriptorKey, store(settings.descriptor())));
        } catch (RuntimeException e) {
            fac.close();
            throw e;
        }
    }

    /** An L3 write job over the FAC store the options describe; written nowhere until it commits. */
    @Override
    public WriteJob startJob(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        requireNonNull(backend, "backend is null");
        ObjectKeys.check(prefix);
        Settings settings = Settings.of(options);
        try (FacBackend fac = settings.open(backend, prefix)) {
            WriteJob l3 = l3().startJob(fac, prefix, schema, settings.l3PartOptions());
            return new WriteJob(NAME, prefix, l3.generation(), schema, options, l3.replacing());
        }
    }

    @Override
    public PartWriter openPart(ObjectBackend backend, WriteJob job, int part, String attempt) {
        Settings settings = Settings.of(JobCommit.check(job, NAME).options());
        FacBackend fac = settings.open(backend, job.prefix());
        try {
            PartWriter l3 = l3().openPart(fac, settings.asL3(job), part, attempt);
            return new PartWriter() {
                private boolean closed;

                @Override
                public void add(Sample sample) {
                    l3.add(sample);
                }

                @Override
                public WrittenPart commit() {
                    return l3.commit();
                }

                @Override
                public void close() {
                    if (closed) {
                        return;   // Spark closes a writer it aborted
                    }
                    closed = true;
                    try (FacBackend owned = fac) {
                        l3.close();
                    }
                }
            };
        } catch (RuntimeException e) {
            fac.close();
            throw e;
        }
    }

    /** Commits the L3 parts in the FAC store, then writes the descriptor, as {@link #create}'s writer does. */
    @Override
    public DatasetSummary commitJob(ObjectBackend backend, WriteJob job, List<WrittenPart> parts) {
        Settings settings = Settings.of(JobCommit.check(job, NAME).options());
        try (FacBackend fac = settings.open(backend, job.prefix())) {
            DatasetSummary summary = asFac(l3().commitJob(fac, settings.asL3(job), parts));
            backend.put(job.prefix() + "/" + DESCRIPTOR, store(settings.descriptor()));
            return summary;
        }
    }

    @Override
    public void abortJob(ObjectBackend backend, WriteJob job) {
        Settings settings = Settings.of(JobCommit.check(job, NAME).options());
        try (FacBackend fac = settings.open(backend, job.prefix())) {
            l3().abortJob(fac, settings.asL3(job));
        }
    }

    private static SupportsDistributedWrites l3() {
        return (SupportsDistributedWrites) StorageLayouts.get(L3Layout.NAME);
    }

    /**
     * The options of a fac dataset, checked: the descriptor recording its nodes and coding, the coding options, and
     * the options of its L3 part files.
     */
    private record Settings(Properties descriptor, FacOptions facOptions, Map<String, String> l3Options) {

        static Settings of(Map<String, String> options) {
            Set<String> known = new HashSet<>(L3_KEYS);
            known.addAll(FacOptions.KEYS);
            known.add(NODES);
            known.add(NODE_URIS);
            LayoutOptions checked = LayoutOptions.of(NAME, options, known);
            Map<String, String> facText = new TreeMap<>();
            Map<String, String> l3Options = new HashMap<>();
            options.forEach((key, value) -> {
                if (FacOptions.KEYS.contains(key)) {
                    facText.put(key, value);
                } else if (L3_KEYS.contains(key)) {
                    l3Options.put(key, value);
                }
            });
            facText.putIfAbsent(FacOptions.CHECKSUM_UNIT, Long.toString(DEFAULT_CHECKSUM_UNIT));
            facText.putIfAbsent(FacOptions.SINGLE_BLOCK_LIMIT, Long.toString(DEFAULT_SINGLE_BLOCK_LIMIT));
            FacOptions facOptions = FacOptions.fromMap(facText);
            Properties descriptor = new Properties();
            descriptor.putAll(facOptions.toMap());
            descriptor.setProperty("format", "1");
            if (options.containsKey(NODE_URIS)) {
                descriptor.setProperty(NODE_URIS, options.get(NODE_URIS));
            } else {
                descriptor.setProperty(NODES, Integer.toString(checked.integer(NODES,
                        facOptions.code().totalBlocks())));
            }
            return new Settings(descriptor, facOptions, l3Options);
        }

        /** The FAC store these options describe, for the dataset at {@code prefix} of {@code backend}. */
        FacBackend open(ObjectBackend backend, String prefix) {
            return FacBackend.create(nodes(backend, prefix, descriptor), facOptions, true);
        }

        /** The L3 options of the part files: fac's row-group default unless the options set one. */
        Map<String, String> l3PartOptions() {
            return withDefaults(l3Options);
        }

        /** The L3 job {@code job} of fac runs in its FAC store. */
        WriteJob asL3(WriteJob job) {
            return new WriteJob(L3Layout.NAME, job.prefix(), job.generation(), job.schema(), l3PartOptions(),
                    job.replacing());
        }
    }

    @Override
    public Dataset open(ObjectBackend backend, String prefix) {
        requireNonNull(backend, "backend is null");
        ObjectKeys.check(prefix);
        String descriptorKey = prefix + "/" + DESCRIPTOR;
        Properties descriptor = load(backend.readAll(descriptorKey), descriptorKey, prefix, backend);
        Map<String, String> facText = new TreeMap<>();
        for (String key : FacOptions.KEYS) {
            if (descriptor.containsKey(key)) {
                facText.put(key, descriptor.getProperty(key));
            }
        }
        FacBackend fac = FacBackend.create(nodes(backend, prefix, descriptor), FacOptions.fromMap(facText), true);
        try {
            return new FacDataset(StorageLayouts.get(L3Layout.NAME).open(fac, prefix), fac, fac);
        } catch (RuntimeException e) {
            fac.close();
            throw e;
        }
    }

    /**
     * Writes a dataset of {@code schema} into {@code fac} under {@code prefix} with L3 {@code options}; {@code fac}
     * stays open.
     */
    public static DatasetWriter create(FacBackend fac, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        return create(fac, prefix, schema, options, null, () -> { });   // no descriptor: the caller holds fac
    }

    /**
     * Opens the dataset under {@code prefix} of {@code fac}; {@code fac} stays open when the dataset is closed. Pass
     * the store itself, not a view of it ({@code withMetrics}): each query makes its own view, whose checksum units
     * last for that query; views of a view share the outer view's units across queries, which plans do not price.
     */
    public static Dataset open(FacBackend fac, String prefix) {
        return new FacDataset(StorageLayouts.get(L3Layout.NAME).open(requireNonNull(fac, "fac is null"), prefix), fac,
                null);
    }

    /**
     * {@code l3Options} with fac's defaults where they set none: {@link #defaultRowGroupSize} and a metadata file per
     * part ({@link L3Layout#METADATA_FILE}).
     */
    static Map<String, String> withDefaults(Map<String, String> l3Options) {
        Map<String, String> options = new HashMap<>(l3Options);
        options.putIfAbsent(L3Layout.ROW_GROUP_SIZE, Long.toString(defaultRowGroupSize(options)));
        options.putIfAbsent(L3Layout.METADATA_FILE, "true");
        return options;
    }

    /**
     * The row-group size for part files of the size {@code l3Options} set (L3's default when they set none): that
     * size over {@link #ROW_GROUPS_PER_FILE}, at least {@link #MIN_DEFAULT_ROW_GROUP_SIZE}.
     */
    static long defaultRowGroupSize(Map<String, String> l3Options) {
        String fileSize = l3Options.get(L3Layout.FILE_SIZE);
        long size = fileSize == null ? L3Layout.DEFAULT_FILE_SIZE
                : LayoutOptions.parseSize("fac option '" + L3Layout.FILE_SIZE + "'", fileSize);
        return Math.max(MIN_DEFAULT_ROW_GROUP_SIZE, size / ROW_GROUPS_PER_FILE);
    }

    private static DatasetWriter create(FacBackend fac, String prefix, MetadataSchema schema,
            Map<String, String> options, AutoCloseable owned, Runnable committed) {
        requireNonNull(fac, "fac is null");
        DatasetWriter l3 = StorageLayouts.get(L3Layout.NAME).create(fac, prefix, schema, withDefaults(options));
        return new DatasetWriter() {
            @Override
            public void add(Sample sample) {
                l3.add(sample);
            }

            @Override
            public DatasetSummary commit() {
                DatasetSummary summary = asFac(l3.commit());
                committed.run();
                return summary;
            }

            @Override
            public void close() {
                try {
                    l3.close();
                } finally {
                    closeQuietly(owned);
                }
            }
        };
    }

    private static List<ObjectBackend> nodes(ObjectBackend backend, String prefix, Properties descriptor) {
        List<ObjectBackend> nodes = new ArrayList<>();
        String uris = descriptor.getProperty(NODE_URIS);
        if (uris != null) {
            try {
                for (String uri : uris.split(",")) {
                    if (!uri.isBlank()) {
                        nodes.add(ObjectBackends.open(uri.trim()));
                    }
                }
            } catch (RuntimeException e) {
                nodes.forEach(ObjectBackend::close);
                throw e;
            }
            return nodes;
        }
        int count = Integer.parseInt(descriptor.getProperty(NODES, "0"));
        for (int i = 0; i < count; i++) {
            nodes.add(PrefixedBackend.of(backend, String.format("%s/nodes/node-%02d", prefix, i)));
        }
        return nodes;
    }

    /** The descriptor as a checksummed properties file: it says where the nodes are, so it is checked as read. */
    private static byte[] store(Properties properties) {
        return ChecksummedProperties.write(properties, "fac layout: nodes and coding options");
    }

    private static Properties load(ByteBuffer bytes, String key, String prefix, ObjectBackend backend) {
        ChecksummedProperties.Read read = ChecksummedProperties.read(bytes, "fac descriptor " + key);
        if (!read.checksummed()) {
            throw new UnverifiedDatasetException("The fac dataset at '" + prefix + "' in " + backend.uri() + " has "
                    + "a descriptor without a checksum (" + key + "): it was written by an older layoutbench, or "
                    + "the descriptor was cut short. It cannot be verified, so it is not read; re-ingest it");
        }
        return read.properties();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // closing the FAC backend after the dataset: nothing the caller can act on
            }
        }
    }

    /** An L3 summary of a dataset stored here, which is a fac dataset: the L3 manifest is fac's own. */
    private static DatasetSummary asFac(DatasetSummary l3) {
        return new DatasetSummary(NAME, l3.prefix(), l3.sampleCount(), l3.payloadBytes(), l3.objectCount(),
                l3.storedBytes());
    }

    /** The L3 dataset over FAC, closing the FAC backend the layout opened for it. */
    private static final class FacDataset implements Dataset, SupportsPreparedQueries {
        private final Dataset l3;
        private final FacBackend store;
        private final AutoCloseable owned;

        FacDataset(Dataset l3, FacBackend store, AutoCloseable owned) {
            this.l3 = l3;
            this.store = store;
            this.owned = owned;
        }

        @Override
        public MetadataSchema schema() {
            return l3.schema();
        }

        @Override
        public DatasetSummary summary() {
            return asFac(l3.summary());
        }

        @Override
        public SampleStream query(Query query, QueryOptions options) {
            return l3.query(query, options);
        }

        /**
         * L3's plan, with one more metadata round trip when cold: the FAC store reads an object's location map
         * (which nodes hold which bytes) before the object's first byte, so a cold query waits for the maps of the
         * parts (and their metadata files, side by side) before their footers. The plan's requests are the store's
         * reads as L3 sends them; the maps' node reads are the store's own. Those the store answers from an earlier
         * request's checksum units are marked shared ({@link #markShared}).
         */
        @Override
        public RetrievalPlan plan(Query query, QueryOptions options) {
            RetrievalPlan plan = markShared(l3.plan(query, options), store);
            if (plan.metadataRequests().isEmpty()) {
                return plan;
            }
            return new RetrievalPlan(plan.metadataRequests(), plan.dataRequests(), plan.samples(),
                    plan.payloadBytes(), Math.min(plan.metadataRounds() + 1, plan.metadataRequests().size()),
                    plan.racedReads(), plan.requestsPerTask());
        }

        @Override
        public PreparedQuery prepare(Query query, QueryOptions options) {
            return new FacPreparedQuery(((SupportsPreparedQueries) l3).prepare(query, options), store);
        }

        @Override
        public void close() {
            try {
                l3.close();
            } finally {
                closeQuietly(owned);
            }
        }
    }

    /**
     * {@code plan} with the requests the store answers from checksum units an earlier request of the query reads
     * marked shared ({@link FacBackend#sharedReads}): paper mode reads a row group's small chunks one by one, and they
     * lie side by side in a unit. A data request is shared on a warm run when an earlier data request brings its
     * units, on a cold run also when a metadata request does.
     */
    static RetrievalPlan markShared(RetrievalPlan plan, FacBackend store) {
        List<PlannedRequest> metadata = plan.metadataRequests();
        List<PlannedRequest> data = plan.dataRequests();
        BitSet coldShared = store.sharedReads(plan.allRequests());
        BitSet warmShared = store.sharedReads(data);
        List<PlannedRequest> markedMetadata = new ArrayList<>(metadata.size());
        for (int i = 0; i < metadata.size(); i++) {
            markedMetadata.add(coldShared.get(i) ? metadata.get(i).withSharing(Sharing.SHARED) : metadata.get(i));
        }
        List<PlannedRequest> markedData = new ArrayList<>(data.size());
        for (int i = 0; i < data.size(); i++) {
            Sharing sharing = warmShared.get(i) ? Sharing.SHARED
                    : coldShared.get(metadata.size() + i) ? Sharing.SHARED_WHEN_COLD : Sharing.NONE;
            markedData.add(data.get(i).withSharing(sharing));
        }
        // Raced as L3's are, by the store, at its nodes (FacBackend.withRacedReads): its cold metadata reads each
        // alone, a data batch that retrieval races with the batch's copies.
        return new RetrievalPlan(markedMetadata, markedData, plan.samples(), plan.payloadBytes(),
                plan.metadataRounds(), plan.racedReads(), plan.requestsPerTask());
    }

    /**
     * L3's prepared query over FAC, its plans marked as {@link FacDataset#plan}'s are. Each plan counts the units
     * shared within its own read; the reads of one prepared query share a unit cache, so a read may also find units an
     * earlier read left there, which its plan prices as round trips (an over-estimate, as plans were before sharing
     * was priced).
     */
    private record FacPreparedQuery(PreparedQuery l3, FacBackend store) implements PreparedQuery {
        @Override
        public String resultId() {
            return l3.resultId();
        }

        @Override
        public QueryOptions options() {
            return l3.options();
        }

        @Override
        public long samples() {
            return l3.samples();
        }

        @Override
        public long payloadBytes() {
            return l3.payloadBytes();
        }

        @Override
        public int unitCount() {
            return l3.unitCount();
        }

        @Override
        public long unitStart(int unit) {
            return l3.unitStart(unit);
        }

        @Override
        public long unitBytes(int unit) {
            return l3.unitBytes(unit);
        }

        @Override
        public RetrievalPlan plan(List<ResultRange> ranges) {
            return markShared(l3.plan(ranges), store);
        }

        @Override
        public SampleStream read(List<ResultRange> ranges) {
            return l3.read(ranges);
        }

        @Override
        public PreparedQuery asPartsOf(List<ResultRange> scope) {
            return new FacPreparedQuery(l3.asPartsOf(scope), store);
        }
    }
}
