package io.layoutbench.layouts.l2;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.MetadataTable;
import io.layoutbench.layouts.common.MetadataTableDataset;
import io.layoutbench.layouts.common.SampleChecksum;
import io.layoutbench.api.layout.RangeCoalescer;
import io.layoutbench.layouts.retrieval.ReadTask;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * An L2 dataset: metadata table cached by the client; samples read from tar shards by byte range, one request per
 * sample (paper) or per merged run of nearby samples in one shard (optimized).
 */
final class L2Dataset extends MetadataTableDataset {

    L2Dataset(ObjectBackend backend, String prefix) {
        super(L2Layout.NAME, L2Layout.FORMAT_VERSION, backend, prefix, L2Writer::tableSchema);
    }

    @Override
    protected Planned plan(ObjectBackend backend, BoundQuery query, QueryOptions options) {
        MetadataTable table = metadata(backend);
        Selection rows = query.select(table.columns());
        Locations locations = new Locations(table);
        List<ReadTask> tasks = new ArrayList<>();
        long payload = 0;
        int i = 0;
        boolean merge = options.mode() == RetrievalMode.OPTIMIZED;
        // Rows come in dataset order and shards were written in that order: a shard's rows are one run.
        List<ShardRun> runs = new ArrayList<>();
        while (i < rows.size()) {
            int shard = locations.shardIds[rows.get(i)];
            int end = i;
            while (end < rows.size() && locations.shardIds[rows.get(end)] == shard) {
                end++;
            }
            int[] runRows = new int[end - i];
            List<ByteRange> ranges = new ArrayList<>(runRows.length);
            for (int j = i; j < end; j++) {
                int row = rows.get(j);
                runRows[j - i] = row;
                ranges.add(ByteRange.of(locations.offsets[row], locations.sizes[row]));
                payload += locations.sizes[row];
            }
            runs.add(new ShardRun(locations.shardKey(shard), runRows, ranges));
            i = end;
        }
        long gap = merge ? RangeCoalescer.gapWithinBudget(runs.stream().map(ShardRun::ranges).toList(),
                RangeCoalescer.gapFor(options), options.maxReadAmplification()) : 0;
        for (ShardRun run : runs) {
            if (merge) {
                for (RangeCoalescer.Merged merged : RangeCoalescer.coalesce(run.ranges(), gap,
                        RangeCoalescer.maxMergedBytesFor(options))) {
                    int[] members = merged.members().stream().mapToInt(m -> run.rows()[m]).toArray();
                    tasks.add(task(table, locations, run.key(), merged.range(), members));
                }
            } else {
                for (int j = 0; j < run.rows().length; j++) {
                    tasks.add(task(table, locations, run.key(), run.ranges().get(j), new int[] {run.rows()[j]}));
                }
            }
        }
        return new Planned(table.loadRequests(), tasks, rows.size(), payload);
    }

    /** The matching rows of one shard, in dataset order, and their data ranges. */
    private record ShardRun(String key, int[] rows, List<ByteRange> ranges) {
    }

    private static ReadTask task(MetadataTable table, Locations locations, String key, ByteRange read, int[] rows) {
        return ReadTask.single(new PlannedRequest(RequestKind.RANGE_GET, key, read), data -> {
            List<Sample> samples = new ArrayList<>(rows.length);
            for (int row : rows) {
                MetadataRow metadata = table.columns().row(row);
                int start = Math.toIntExact(locations.offsets[row] - read.offset());
                ByteBuffer bytes = data.duplicate();
                bytes.position(data.position() + start).limit(data.position() + start + (int) locations.sizes[row]);
                SampleChecksum.verify(bytes, locations.crc(row), metadata.getString(MetadataSchema.FILENAME),
                        key + " at offset " + locations.offsets[row]);
                samples.add(new Sample(metadata, bytes.slice()));
            }
            return samples;
        });
    }

    /** The location columns of the metadata table, as arrays. */
    private static final class Locations {
        final int[] shardIds;
        final long[] offsets;
        final long[] sizes;
        final long[] crcs;
        final ColumnVector.Strings shards;

        Locations(MetadataTable table) {
            this.shards = table.strings(L2Writer.SHARD);
            this.shardIds = shards.ids();
            this.offsets = table.longs(L2Writer.DATA_OFFSET);
            this.sizes = table.longs(L2Writer.DATA_SIZE);
            this.crcs = table.longs(MetadataParquet.CRC32C);
        }

        String shardKey(int id) {
            return shards.dictionary().get(id);
        }

        int crc(int row) {
            return MetadataParquet.crc(crcs[row]);
        }
    }
}
