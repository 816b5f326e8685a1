package io.layoutbench.layouts.l2;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.LocalTable;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.PayloadColumns;
import io.layoutbench.layouts.common.TempFiles;
import io.layoutbench.layouts.common.WriteTarget;
import io.layoutbench.parquet.ParquetTableSchema;

import java.nio.file.Path;
import java.util.ArrayList;
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
    static final String DATA_OFFSET = PayloadColumns.DATA_OFFSET;
    static final String DATA_SIZE = MetadataParquet.DATA_SIZE;
    static final String METADATA = "metadata.parquet";
    /** Manifest property: the metadata table's key. */
    static final String METADATA_KEY = "metadata.key";
    /** Manifest property: the number of shards. */
    static final String SHARDS = "shards";
    /** Smallest shard size the writer accepts. */
    static final long MIN_SHARD_SIZE = 4096;

    private final long shardSize;
    private final PayloadColumns payload;
    private final TarPacking packing;
    private final LocalTable metadata;
    private Path shardFile;
    private TarShardWriter shard;
    private String shardKey;
    private int shardCount;

    L2Writer(ObjectBackend backend, WriteTarget target, MetadataSchema schema, long shardSize) {
        super(L2Layout.NAME, L2Layout.FORMAT_VERSION, backend, target, schema);
        this.shardSize = shardSize;
        this.packing = new TarPacking(shardSize);
        this.payload = PayloadColumns.of(schema);
        this.metadata = LocalTable.create("layoutbench-l2-", tableSchema(schema));
    }

    /** Checks a shard size option. */
    static long checkShardSize(long shardSize) {
        if (shardSize < MIN_SHARD_SIZE) {
            throw new IllegalArgumentException("l2 shard-size must be at least 4 KiB, got " + shardSize);
        }
        return shardSize;
    }

    /**
     * The metadata table: the metadata columns (paper names), then the shard, then each payload field's checksum,
     * offset and size. For the one field {@code data} these are the paper's: {@code crc32c, shard, data_offset,
     * data_size}.
     */
    static ParquetTableSchema tableSchema(MetadataSchema schema) {
        PayloadColumns payload = PayloadColumns.of(schema);
        ParquetTableSchema.Builder table = MetadataParquet.paperNames(schema);
        if (payload.single()) {
            return table.extraColumn(MetadataParquet.CRC32C, ColumnType.BIGINT)
                    .extraColumn(SHARD, ColumnType.STRING)
                    .extraColumn(DATA_OFFSET, ColumnType.BIGINT)
                    .extraColumn(DATA_SIZE, ColumnType.BIGINT)
                    .build();
        }
        table.extraColumn(SHARD, ColumnType.STRING);
        for (int f = 0; f < payload.count(); f++) {
            table.extraColumn(payload.checksum(f), ColumnType.BIGINT)
                    .extraColumn(payload.offset(f), ColumnType.BIGINT)
                    .extraColumn(payload.size(f), ColumnType.BIGINT);
        }
        return table.build();
    }

    /**
     * The values of {@link #tableSchema}'s extra columns for one sample: its shard, and each field's checksum (NULL
     * when {@code checksums} is null: none recorded), offset and size (all NULL for a field it lacks).
     */
    static List<Object> locations(PayloadColumns payload, Sample sample, int[] checksums, String shard,
            long[] offsets) {
        List<Object> values = new ArrayList<>(1 + 3 * payload.count());
        if (payload.single()) {
            values.add(checksums == null ? null : MetadataParquet.stored(checksums[0]));
            values.addAll(List.of(shard, offsets[0], sample.size()));
            return values;
        }
        values.add(shard);
        for (int f = 0; f < payload.count(); f++) {
            Blob blob = sample.fields().get(payload.field(f));
            values.add(blob == null || checksums == null ? null : MetadataParquet.stored(checksums[f]));
            values.add(blob == null ? null : offsets[f]);
            values.add(blob == null ? null : blob.size());
        }
        return values;
    }

    /** The object of shard {@code index}, relative to the ingest's generation. */
    static String shardObject(int index) {
        return String.format(Locale.ROOT, "shards/shard-%06d.tar", index);
    }

    @Override
    protected void addSample(Sample sample, String key, int[] checksums) {
        List<Integer> present = new ArrayList<>(payload.count());
        for (int f = 0; f < payload.count(); f++) {
            if (sample.fields().containsKey(payload.field(f))) {
                present.add(f);
            }
        }
        String[] names = new String[present.size()];
        long[] sizes = new long[present.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = key + payload.suffix(present.get(i));
            sizes[i] = sample.fields().get(payload.field(present.get(i))).size();
        }
        long[] placed = packing.place(names, sizes);
        if (shard != null && packing.shard() != shardCount - 1) {
            uploadShard();
        }
        if (shard == null) {
            shardFile = TempFiles.create("layoutbench-l2-shard-", ".tar");
            shard = new TarShardWriter(shardFile);
            shardKey = objectKey(shardObject(shardCount++));
        }
        long[] offsets = new long[payload.count()];
        for (int i = 0; i < names.length; i++) {
            long offset = shard.add(names[i], sample.fields().get(payload.field(present.get(i))));
            if (offset != placed[i]) {
                throw new IllegalStateException("The tar stream put member " + names[i] + " of " + shardKey
                        + " at offset " + offset + " but L2's packing placed it at " + placed[i]
                        + ": the packing and the writer disagree");
            }
            offsets[present.get(i)] = offset;
        }
        metadata.write(sample.metadata(), locations(payload, sample, checksums, shardKey, offsets));
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
        String key = putTable(METADATA, metadata);
        return Map.of(METADATA_KEY, key, L2Layout.SHARD_SIZE, Long.toString(shardSize),
                SHARDS, Integer.toString(shardCount));
    }

    @Override
    protected void abandon() {
        try {
            if (shard != null) {
                shard.close();
            }
        } finally {
            if (shardFile != null) {
                TempFiles.delete(shardFile);
            }
            metadata.discard();
        }
    }
}
