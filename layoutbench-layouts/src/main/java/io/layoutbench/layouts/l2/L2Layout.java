package io.layoutbench.layouts.l2;

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

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Layout L2: samples packed into tar shards ({@code <prefix>/<generation>/shards/shard-000000.tar}, POSIX
 * ustar/PAX members named by the sample's key: its {@code filename}, or its position for a schema without one, so
 * GNU tar and WebDataset read them), plus a Parquet metadata table adding {@code shard}, {@code data_offset},
 * {@code data_size} (the paper's names) and {@code crc32c}.
 *
 * <p>Option {@code shard-size} caps a shard's size (default 64 MB, the paper's limit at mini; it used 512 MB above).
 * Paper mode sends one ranged GET per sample; optimized mode merges ranges of one shard that lie within the
 * coalescing gap, as far as the query's read budget allows ({@link io.layoutbench.api.layout.QueryOptions}).
 * The layout models itself ({@link SupportsModelling}) with the writer's packing and the datasets' planner. The
 * metadata table is checked as it loads against the checksums the manifest records for it (its footer region and
 * each row group's chunks), and each sample against its CRC32C; tar headers are never trusted.
 *
 * <pre>{@code
 * DatasetWriter writer = StorageLayouts.get("l2").create(backend, "mini/l2", MetadataSchema.imageNet(),
 *         Map.of("shard-size", "64MB"));
 * }</pre>
 */
public final class L2Layout implements StorageLayout, SupportsModelling, SupportsDistributedWrites {

    /** The layout's name. */
    public static final String NAME = "l2";
    /** Option: largest shard, as a size ({@code 64MB}). */
    public static final String SHARD_SIZE = "shard-size";
    /** Default shard size: the paper's 64 MB. */
    public static final long DEFAULT_SHARD_SIZE = 64L << 20;
    /** Shard sizes the advisor compares beside the default: AWS's suggested range size, and the paper's large one. */
    static final List<Long> CANDIDATE_SHARD_SIZES = List.of(16L << 20, 512L << 20);
    static final int FORMAT_VERSION = 1;
    /** Manifest property saying whether the fields have checksums. */
    static final String CHECKSUMS = "checksums";
    /** {@link #CHECKSUMS} of a dataset over shards indexed in place, whose bytes were never read. */
    static final String NO_CHECKSUMS = "none";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "tar shards read with byte-range GETs through a Parquet metadata table (the paper's L2)";
    }

    @Override
    public DatasetWriter create(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        long shardSize = shardSize(options);   // options first: a bad one is named before the store is asked
        return new L2Writer(backend, WriteTarget.dataset(backend, NAME, prefix), schema, shardSize);
    }

    @Override
    public WriteJob startJob(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        shardSize(options);
        return JobCommit.start(NAME, backend, prefix, schema, options);
    }

    @Override
    public PartWriter openPart(ObjectBackend backend, WriteJob job, int part, String attempt) {
        return new L2Writer(backend, WriteTarget.part(JobCommit.check(job, NAME), part, attempt), job.schema(),
                shardSize(job.options())).asPartWriter();
    }

    /** Merges the parts' metadata tables into one; the shards stay where the parts wrote them. */
    @Override
    public DatasetSummary commitJob(ObjectBackend backend, WriteJob job, List<WrittenPart> parts) {
        JobCommit commit = JobCommit.of(backend, JobCommit.check(job, NAME), FORMAT_VERSION, parts);
        Map<String, String> properties = new HashMap<>();
        properties.put(L2Writer.METADATA_KEY, commit.mergeTables(L2Writer.METADATA, L2Writer.METADATA_KEY,
                L2Writer.tableSchema(job.schema())));
        properties.put(SHARD_SIZE, Long.toString(shardSize(job.options())));
        properties.put(L2Writer.SHARDS, Long.toString(commit.parts().stream()
                .mapToLong(part -> commit.count(part, L2Writer.SHARDS)).sum()));
        return commit.publish(properties);
    }

    @Override
    public void abortJob(ObjectBackend backend, WriteJob job) {
        JobCommit.abort(backend, JobCommit.check(job, NAME));
    }

    @Override
    public Dataset open(ObjectBackend backend, String prefix) {
        return new L2Dataset(backend, prefix);
    }

    @Override
    public LayoutModel model(DatasetMetadata data, Map<String, String> options) {
        PayloadColumns.requireSingleField(data.schema(), NAME);
        return new L2Model(data, shardSize(options));
    }

    @Override
    public List<Map<String, String>> candidateSettings(DatasetMetadata data) {
        return List.of(Map.of(),
                Map.of(SHARD_SIZE, LayoutOptions.formatSize(CANDIDATE_SHARD_SIZES.get(0))),
                Map.of(SHARD_SIZE, LayoutOptions.formatSize(CANDIDATE_SHARD_SIZES.get(1))));
    }

    private static long shardSize(Map<String, String> options) {
        return L2Writer.checkShardSize(LayoutOptions.of(NAME, options, Set.of(SHARD_SIZE))
                .size(SHARD_SIZE, DEFAULT_SHARD_SIZE));
    }
}
