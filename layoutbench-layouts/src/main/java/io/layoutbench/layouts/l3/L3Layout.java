package io.layoutbench.layouts.l3;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.PartWriter;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.SupportsDistributedWrites;
import io.layoutbench.api.layout.WriteJob;
import io.layoutbench.api.layout.WrittenPart;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.LayoutModel;
import io.layoutbench.api.model.SupportsModelling;
import io.layoutbench.layouts.common.JobCommit;
import io.layoutbench.layouts.common.LayoutOptions;
import io.layoutbench.layouts.common.PayloadColumns;
import io.layoutbench.layouts.common.WriteTarget;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.parquet.ParquetWriteOptions;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Layout L3: one Parquet table holding the metadata and the sample bytes, as in the LayoutBench paper. The table is
 * split into part files {@code <prefix>/<generation>/part-00000.parquet}, {@code part-00001.parquet} ... when a file
 * reaches the file-size limit. Its columns are the metadata columns under their own names ({@code filename},
 * {@code label}, {@code filesize_bytes}, {@code width}, {@code height}, as the paper's L3 SQL names them), then
 * {@code crc32c} (BIGINT, each sample's CRC32C, unsigned), then {@code image_bytes} (BINARY, the sample). Every part
 * file has column and offset indexes, so a reader can fetch single blob pages; DuckDB reads the parts as they are:
 * {@code SELECT filename, image_bytes FROM read_parquet('part-*.parquet') WHERE label = 'cello'}.
 *
 * <p>Options:
 * <ul>
 *   <li>{@code file-size}: largest part file (default 64 MB, the paper's limit at mini; it used 512 MB above);</li>
 *   <li>{@code row-group-size}: target row-group size (default 128 MB, the paper's);</li>
 *   <li>{@code page-size}: target page size (default 4 KiB, so every image but the tiniest sits alone in a
 *       page); small blob pages let optimized retrieval fetch little more than the matching samples;</li>
 *   <li>{@code blob-threshold}: fields of at least this size go to the part's blob file ({@link #BLOB_THRESHOLD});</li>
 *   <li>{@code metadata-file}: a metadata file beside each part ({@link #METADATA_FILE}, default false).</li>
 * </ul>
 *
 * <p>Retrieval: the client reads every part's footer (one request each, with the page indexes when they fit in
 * 1 MiB; cached) and skips row groups whose statistics rule the predicate out (with a metadata file, read beside the
 * footer, it evaluates every row group instead: their metadata came with the part). {@link io.layoutbench.api.layout.RetrievalMode#PAPER Paper} mode then does
 * what DuckDB does: it reads every remaining row group whole. {@link io.layoutbench.api.layout.RetrievalMode#OPTIMIZED
 * Optimized} mode reads only the metadata columns of the remaining row groups (cached), evaluates the predicate
 * there, and fetches just the blob pages holding matches, merged by the query's coalescing gap as far as its read
 * budget allows.
 *
 * <p>Integrity: the manifest records, per part, the CRC32C of the whole file and of the regions a reader trusts (the
 * footer region, the page indexes, each row group's metadata chunks); each is checked from the bytes a query reads
 * anyway, as is every decoded page's CRC32 and every sample's CRC32C. The part files stay plain Parquet.
 *
 * <pre>{@code
 * StorageLayout l3 = StorageLayouts.get("l3");
 * try (DatasetWriter writer = l3.create(backend, "mini/l3", MetadataSchema.imageNet(),
 *         Map.of("file-size", "64MB", "page-size", "256KB"))) {
 *     samples.forEach(writer::add);
 *     writer.commit();
 * }
 * try (Dataset dataset = l3.open(backend, "mini/l3"); SampleStream cellos = dataset.query("label = 'cello'")) {
 *     cellos.forEachRemaining(s -> train(s.data()));
 * }
 * }</pre>
 */
public final class L3Layout implements StorageLayout, SupportsModelling, SupportsDistributedWrites {

    /** The layout's name. */
    public static final String NAME = "l3";
    /** Option: largest part file, as a size ({@code 64MB}). */
    public static final String FILE_SIZE = "file-size";
    /** Option: target row-group size ({@code 128MB}). */
    public static final String ROW_GROUP_SIZE = "row-group-size";
    /** Option: target page size ({@code 1MiB}). */
    public static final String PAGE_SIZE = "page-size";
    /** Default part-file size: the paper's 64 MB. */
    public static final long DEFAULT_FILE_SIZE = 64L << 20;
    /**
     * Option: a payload field of at least this size is stored outside the Parquet pages, in the part's blob file
     * ({@code part-NNNNN.blobs}), the row holding its offset and size, so part files stay small and scans cheap.
     */
    public static final String BLOB_THRESHOLD = "blob-threshold";
    /** Default {@link #BLOB_THRESHOLD}: 64 MiB, the default size at which a query returns a field lazily read. */
    public static final long DEFAULT_BLOB_THRESHOLD = 64L << 20;
    /**
     * Option: {@code true} writes beside each part file a metadata file, {@code metadata-NNNNN.parquet}: the part's
     * metadata, checksum and size columns in one row group, no blobs (default {@code false}: the paper's L3). A
     * client opens a part with its footer and its metadata file side by side (one request each), so it evaluates a
     * query on every row group of the part without a request per row group: what part files of many small row
     * groups need (the {@code fac} layout's, for erasure coding). Its name does not match {@code part-*.parquet},
     * so DuckDB's and Spark's reads of the part files are unchanged.
     */
    public static final String METADATA_FILE = "metadata-file";
    /** Default row-group size: the paper's 128 MB. */
    public static final long DEFAULT_ROW_GROUP_SIZE = ParquetWriteOptions.DEFAULT_ROW_GROUP_SIZE;
    /**
     * Default page size: 4 KiB. A page closes once it passes this size, so each image (about 110 KB on average)
     * gets a page of its own and optimized retrieval reads exactly the matching images; the cost is one page
     * header and offset-index entry per image (tens of bytes). Measured at mini: 64 KiB pages, which group the
     * smaller images, made Q8 read 1.37x its payload; one image per page reads 1.0x.
     */
    public static final int DEFAULT_PAGE_SIZE = 4 << 10;
    /** Name of the blob column, as in the paper's L3 SQL. */
    public static final String IMAGE_BYTES = "image_bytes";

    static final int FORMAT_VERSION = 1;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "one Parquet table of metadata and image bytes in part files, read by row group or by blob page"
                + " (the paper's L3)";
    }

    @Override
    public DatasetWriter create(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        Settings settings = Settings.of(options);   // options first: a bad one is named before the store is asked
        return new L3Writer(backend, WriteTarget.dataset(backend, NAME, prefix), schema, settings);
    }

    @Override
    public WriteJob startJob(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        Settings.of(options);
        return JobCommit.start(NAME, backend, prefix, schema, options);
    }

    @Override
    public PartWriter openPart(ObjectBackend backend, WriteJob job, int part, String attempt) {
        return new L3Writer(backend, WriteTarget.part(JobCommit.check(job, NAME), part, attempt), job.schema(),
                Settings.of(job.options())).asPartWriter();
    }

    /**
     * Lists the parts' files in part order, numbered anew; checks that no two samples of the parts share a name
     * (reading the part files' metadata columns, not their blobs).
     */
    @Override
    public DatasetSummary commitJob(ObjectBackend backend, WriteJob job, List<WrittenPart> parts) {
        JobCommit commit = JobCommit.of(backend, JobCommit.check(job, NAME), FORMAT_VERSION, parts);
        Map<String, String> properties = new HashMap<>(L3Writer.settingsProperties(Settings.of(job.options())));
        List<List<ManifestObject>> files = new ArrayList<>();
        int index = 0;
        for (DatasetManifest part : commit.parts()) {
            List<ManifestObject> ofPart = new ArrayList<>();
            int count = commit.count(part, L3Writer.PARTS);
            for (int i = 0; i < count; i++, index++) {
                String key = commit.property(part, L3Writer.partProperty(i));
                ofPart.add(commit.object(part, key));
                properties.put(L3Writer.partProperty(index), key);
                String blobs = part.property(L3Writer.blobsProperty(i), null);
                if (blobs != null) {
                    properties.put(L3Writer.blobsProperty(index), blobs);
                }
                String metadata = part.property(L3Writer.metadataProperty(i), null);
                if (metadata != null) {
                    commit.object(part, metadata);   // listed by the part, or the commit names what is missing
                    properties.put(L3Writer.metadataProperty(index), metadata);
                }
            }
            files.add(ofPart);
        }
        properties.put(L3Writer.PARTS, Integer.toString(index));
        commit.checkNames(files, L3Writer.tableSchema(job.schema()));
        return commit.publish(properties);
    }

    @Override
    public void abortJob(ObjectBackend backend, WriteJob job) {
        JobCommit.abort(backend, JobCommit.check(job, NAME));
    }

    @Override
    public Dataset open(ObjectBackend backend, String prefix) {
        return new L3Dataset(backend, prefix);
    }

    @Override
    public LayoutModel model(DatasetMetadata data, Map<String, String> options) {
        PayloadColumns.requireSingleField(data.schema(), NAME);
        return new L3Model(data, Settings.of(options));
    }

    /**
     * The defaults, then pages of 16 KB to 1 MB (fewer pages and smaller page indexes, more bytes past the matches)
     * with the default row groups and with 16 MB ones (finer statistics pruning and smaller paper-mode reads).
     */
    @Override
    public List<Map<String, String>> candidateSettings(DatasetMetadata data) {
        List<Map<String, String>> settings = new ArrayList<>();
        for (long rowGroup : List.of(DEFAULT_ROW_GROUP_SIZE, 16L << 20)) {
            for (long page : List.of((long) DEFAULT_PAGE_SIZE, 16L << 10, 64L << 10, 256L << 10, 1L << 20)) {
                Map<String, String> options = new LinkedHashMap<>();
                if (page != DEFAULT_PAGE_SIZE) {
                    options.put(PAGE_SIZE, LayoutOptions.formatSize(page));
                }
                if (rowGroup != DEFAULT_ROW_GROUP_SIZE) {
                    options.put(ROW_GROUP_SIZE, LayoutOptions.formatSize(rowGroup));
                }
                settings.add(options);
            }
        }
        return settings;
    }

    /**
     * L3's write settings, checked.
     *
     * @param fileSize     largest part file
     * @param rowGroupSize target row-group size
     * @param pageSize     target page size
     * @param blobThreshold size from which a field is stored out of line
     * @param metadataFile whether each part has a metadata file
     */
    record Settings(long fileSize, long rowGroupSize, long pageSize, long blobThreshold, boolean metadataFile) {
        /** Smallest settings the writer accepts. */
        static final long MIN_FILE_SIZE = 256L << 10;
        static final long MIN_ROW_GROUP_SIZE = 16L << 10;
        static final long MIN_PAGE_SIZE = 1L << 10;

        Settings {
            if (fileSize < MIN_FILE_SIZE) {
                throw new ConfigurationException("l3 option '" + FILE_SIZE + "' must be at least 256 KiB, got "
                        + fileSize + " bytes");
            }
            if (rowGroupSize < MIN_ROW_GROUP_SIZE) {
                throw new ConfigurationException("l3 option '" + ROW_GROUP_SIZE + "' must be at least 16 KiB, got "
                        + rowGroupSize + " bytes");
            }
            if (blobThreshold < 1 || blobThreshold > Integer.MAX_VALUE / 2) {
                throw new ConfigurationException("l3 option '" + BLOB_THRESHOLD + "' must be between 1 byte and 1 GiB,"
                        + " got " + blobThreshold + " bytes");
            }
            if (pageSize < MIN_PAGE_SIZE || pageSize > Integer.MAX_VALUE / 2) {
                throw new ConfigurationException("l3 option '" + PAGE_SIZE + "' must be between 1 KiB and 1 GiB, "
                        + "got " + pageSize + " bytes");
            }
        }

        /** The settings {@code options} give, defaults for the rest; unknown keys are an error. */
        static Settings of(Map<String, String> options) {
            LayoutOptions checked = LayoutOptions.of(NAME, options,
                    Set.of(FILE_SIZE, ROW_GROUP_SIZE, PAGE_SIZE, BLOB_THRESHOLD, METADATA_FILE));
            return new Settings(checked.size(FILE_SIZE, DEFAULT_FILE_SIZE),
                    checked.size(ROW_GROUP_SIZE, DEFAULT_ROW_GROUP_SIZE), checked.size(PAGE_SIZE, DEFAULT_PAGE_SIZE),
                    checked.size(BLOB_THRESHOLD, DEFAULT_BLOB_THRESHOLD), checked.bool(METADATA_FILE, false));
        }

        /** As options, every setting explicit. */
        Map<String, String> options() {
            Map<String, String> options = new LinkedHashMap<>();
            options.put(FILE_SIZE, LayoutOptions.formatSize(fileSize));
            options.put(PAGE_SIZE, LayoutOptions.formatSize(pageSize));
            options.put(ROW_GROUP_SIZE, LayoutOptions.formatSize(rowGroupSize));
            if (blobThreshold != DEFAULT_BLOB_THRESHOLD) {
                options.put(BLOB_THRESHOLD, LayoutOptions.formatSize(blobThreshold));
            }
            if (metadataFile) {
                options.put(METADATA_FILE, "true");
            }
            return options;
        }
    }
}
