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
import java.util.Map;

/**
 * Writes L2: samples appended to a local tar shard until the next would pass the shard size, then the shard is
 * uploaded and a new one started; each sample's shard, data offset and size go into the metadata table.
 */
final class L2Writer extends GenerationalDatasetWriter {

    static final String SHARD = "shard";
    static final String DATA_OFFSET = "data_offset";
    static final String DATA_SIZE = "data_size";
    static final String METADATA = "metadata.parquet";

    private final long shardSize;
    private final Path metadataFile;
    private final ParquetTableWriter metadata;
    private Path shardFile;
    private TarShardWriter shard;
    private String shardKey;
    private int shardCount;

    L2Writer(ObjectBackend backend, String prefix, MetadataSchema schema, long shardSize) {
        super(L2Layout.NAME, L2Layout.FORMAT_VERSION, backend, prefix, schema);
        if (shardSize < 4096) {
            throw new IllegalArgumentException("l2 shard-size must be at least 4 KiB, got " + shardSize);
        }
        this.shardSize = shardSize;
        this.metadataFile = TempFiles.create("layoutbench-l2-", ".parquet");
        this.metadata = ParquetTableWriter.create(tableSchema(schema), metadataFile, ParquetWriteOptions.defaults());
    }

    static ParquetTableSchema tableSchema(MetadataSchema schema) {
        return MetadataParquet.paperNames(schema)
                .extraColumn(SHARD, ColumnType.STRING)
                .extraColumn(DATA_OFFSET, ColumnType.BIGINT)
                .extraColumn(DATA_SIZE, ColumnType.BIGINT)
                .build();
    }

    @Override
    protected void addSample(Sample sample, int crc32c) {
        String member = sample.filename();
        if (shard != null && shard.members() > 0
                && shard.projectedSize() + TarShardWriter.memberFootprint(member, sample.size()) > shardSize) {
            uploadShard();
        }
        if (shard == null) {
            shardFile = TempFiles.create("layoutbench-l2-shard-", ".tar");
            shard = new TarShardWriter(shardFile);
            shardKey = objectKey(String.format("shards/shard-%06d.tar", shardCount++));
        }
        long offset = shard.add(member, sample.data());
        metadata.write(sample.metadata(), List.of(MetadataParquet.stored(crc32c), shardKey, offset,
                (long) sample.size()), null);
    }

    private void uploadShard() {
        try {
            shard.finish();
            putObject(shardKey.substring(objectKey("").length()), shardFile);
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
            String key = putObject(METADATA, metadataFile);
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
