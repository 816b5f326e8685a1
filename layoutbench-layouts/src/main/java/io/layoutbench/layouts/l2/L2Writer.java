package io.layoutbench.layouts.l2;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.TempFiles;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.ParquetTableWriter;
import io.layoutbench.parquet.ParquetWriteOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes L2: samples appended to a local tar shard where {@link TarPacking} places them (a new shard when the next
 * would pass the shard size), each finished shard uploaded; each sample's shard, data offset and size go into the
 * metadata table.
 */
final class L2Writer extends GenerationalDatasetWriter {

    static final String SHARD = "shard";
    static final String DATA_OFFSET = "data_offset";
    static final String DATA_SIZE = MetadataParquet.DATA_SIZE;
    static final String METADATA = "metadata.parquet";
    /** Smallest shard size the writer accepts. */
    static final long MIN_SHARD_SIZE = 4096;

    private final long shardSize;
    private final TarPacking packing;
    private final Path metadataFile;
    private final ParquetTableWriter metadata;
    private Path shardFile;
    private TarShardWriter shard;
    private String shardKey;
    private int shardCount;

    L2Writer(ObjectBackend backend, String prefix, MetadataSchema schema, long shardSize) {
        super(L2Layout.NAME, L2Layout.FORMAT_VERSION, backend, prefix, schema);
        this.shardSize = shardSize;
        this.packing = new TarPacking(shardSize);
        this.metadataFile = TempFiles.create("layoutbench-l2-", ".parquet");
        this.metadata = ParquetTableWriter.create(tableSchema(schema), metadataFile, ParquetWriteOptions.defaults());
    }

    /** Checks a shard size option. */
    static long checkShardSize(long shardSize) {
        if (shardSize < MIN_SHARD_SIZE) {
            throw new IllegalArgumentException("l2 shard-size must be at least 4 KiB, got " + shardSize);
        }
        return shardSize;
    }

    /** The metadata table: the metadata columns (paper names), the checksum, and where each sample's data lies. */
    static ParquetTableSchema tableSchema(MetadataSchema schema) {
        return MetadataParquet.paperNames(schema)
                .extraColumn(SHARD, ColumnType.STRING)
                .extraColumn(DATA_OFFSET, ColumnType.BIGINT)
                .extraColumn(DATA_SIZE, ColumnType.BIGINT)
                .build();
    }

    /** The object of shard {@code index}, relative to the ingest's generation. */
    static String shardObject(int index) {
        return String.format(Locale.ROOT, "shards/shard-%06d.tar", index);
    }

    @Override
    protected void addSample(Sample sample, String key, int crc32c) {
        long placed = packing.place(key, sample.size());
        if (shard != null && packing.shard() != shardCount - 1) {
            uploadShard();
        }
        if (shard == null) {
            shardFile = TempFiles.create("layoutbench-l2-shard-", ".tar");
            shard = new TarShardWriter(shardFile);
            shardKey = objectKey(shardObject(shardCount++));
        }
        long offset = shard.add(key, sample.data());
        if (offset != placed) {
            throw new IllegalStateException("The tar stream put member " + key + " of " + shardKey + " at offset "
                    + offset + " but L2's packing placed it at " + placed + ": the packing and the writer disagree");
        }
        metadata.write(sample.metadata(), List.of(MetadataParquet.stored(crc32c), shardKey, offset,
                (long) sample.size()), null);
    }

    private void uploadShard() {
        try {
            shard.finish();
            putObject(shardKey.substring(objectKey("").length()), shardFile, shard.crc32c());
        } finally {
            TempFiles.delete(shardFile);
            shard = null;
            shardFile = null;
        }
    }

    @Override
    protected Map<String, String> finish() {
        if (shard != null) {
            uploadShard();
        }
        metadata.close();
        try {
            String key = putParquet(METADATA, metadataFile, metadata);
            return Map.of("metadata.key", key, L2Layout.SHARD_SIZE, Long.toString(shardSize),
                    "shards", Integer.toString(shardCount));
        } finally {
            TempFiles.delete(metadataFile);
        }
    }

    @Override
    protected void abandon() {
        try {
            if (shard != null) {
                shard.close();
            }
            metadata.close();
        } finally {
            if (shardFile != null) {
                TempFiles.delete(shardFile);
            }
            TempFiles.delete(metadataFile);
        }
    }
}
