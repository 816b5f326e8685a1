package io.layoutbench.layouts.l2;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.layouts.common.LayoutOptions;

import java.util.Map;
import java.util.Set;

/**
 * Layout L2: samples packed into tar shards ({@code <prefix>/<generation>/shards/shard-000000.tar}, POSIX
 * ustar/PAX members named by the sample's filename, so GNU tar and WebDataset read them), plus a Parquet metadata
 * table adding {@code shard}, {@code data_offset}, {@code data_size} (the paper's names) and {@code crc32c}.
 *
 * <p>Option {@code shard-size} caps a shard's size (default 64 MB, the paper's limit at mini; it used 512 MB above).
 * Paper mode sends one ranged GET per sample; optimized mode merges ranges of one shard that lie within the
 * coalescing gap, as far as the query's read budget allows ({@link io.layoutbench.api.layout.QueryOptions}).
 *
 * <pre>{@code
 * DatasetWriter writer = StorageLayouts.get("l2").create(backend, "mini/l2", Map.of("shard-size", "64MB"));
 * }</pre>
 */
public final class L2Layout implements StorageLayout {

    /** The layout's name. */
    public static final String NAME = "l2";
    /** Option: largest shard, as a size ({@code 64MB}). */
    public static final String SHARD_SIZE = "shard-size";
    /** Default shard size: the paper's 64 MB. */
    public static final long DEFAULT_SHARD_SIZE = 64L << 20;
    static final int FORMAT_VERSION = 1;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "tar shards read with byte-range GETs through a Parquet metadata table (the paper's L2)";
    }

    @Override
    public DatasetWriter create(ObjectBackend backend, String prefix, Map<String, String> options) {
        return create(backend, prefix, MetadataSchema.imageNet(), options);
    }

    /** A writer for a dataset with metadata {@code schema}. */
    public DatasetWriter create(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        long shardSize = LayoutOptions.of(NAME, options, Set.of(SHARD_SIZE)).size(SHARD_SIZE, DEFAULT_SHARD_SIZE);
        return new L2Writer(backend, prefix, schema, shardSize);
    }

    @Override
    public Dataset open(ObjectBackend backend, String prefix) {
        return new L2Dataset(backend, prefix);
    }
}
