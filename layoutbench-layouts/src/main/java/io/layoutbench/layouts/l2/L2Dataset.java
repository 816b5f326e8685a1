package io.layoutbench.layouts.l2;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.MetadataTable;
import io.layoutbench.layouts.common.MetadataTableDataset;
import io.layoutbench.layouts.common.SampleChecksum;
import io.layoutbench.layouts.common.SampleKeys;
import io.layoutbench.layouts.retrieval.ReadTask;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * An L2 dataset: metadata table cached by the client; samples read from tar shards by byte range as
 * {@link L2Reads} plans them, one request per sample (paper) or per merged run of nearby samples in one shard
 * (optimized).
 */
final class L2Dataset extends MetadataTableDataset {

    private final SampleKeys keys;

    L2Dataset(ObjectBackend backend, String prefix) {
        super(L2Layout.NAME, L2Layout.FORMAT_VERSION, backend, prefix, L2Writer::tableSchema);
        this.keys = SampleKeys.of(schema());
    }

    @Override
    protected Planned plan(ObjectBackend backend, BoundQuery query, QueryOptions options) {
        MetadataTable table = metadata(backend);
        Selection rows = query.select(table.columns());
        TableLocations locations = new TableLocations(table);
        L2Reads.Plan plan = L2Reads.plan(rows, locations, options);
        List<ReadTask> tasks = new ArrayList<>(plan.reads().size());
        for (L2Reads.Read read : plan.reads()) {
            tasks.add(task(table, locations, read));
        }
        return new Planned(table.loadRequests(), tasks, rows.size(), plan.payloadBytes());
    }

    private ReadTask task(MetadataTable table, TableLocations locations, L2Reads.Read read) {
        ByteRange range = read.request().range();
        String key = read.request().key();
        int[] rows = read.rows();
        return ReadTask.single(read.request(), data -> {
            List<Sample> samples = new ArrayList<>(rows.length);
            for (int row : rows) {
                MetadataRow metadata = table.columns().row(row);
                int start = Math.toIntExact(locations.offsets[row] - range.offset());
                ByteBuffer bytes = data.duplicate();
                bytes.position(data.position() + start).limit(data.position() + start + (int) locations.sizes[row]);
                SampleChecksum.verify(bytes, locations.crc(row), keys.describe(table.columns(), row),
                        key + " at offset " + locations.offsets[row]);
                samples.add(new Sample(metadata, bytes.slice()));
            }
            return samples;
        });
    }

    /** The location columns of the metadata table, as arrays. */
    private static final class TableLocations implements L2Reads.Locations {
        final int[] shardIds;
        final long[] offsets;
        final long[] sizes;
        final long[] crcs;
        final ColumnVector.Strings shards;

        TableLocations(MetadataTable table) {
            this.shards = table.strings(L2Writer.SHARD);
            this.shardIds = shards.ids();
            this.offsets = table.longs(L2Writer.DATA_OFFSET);
            this.sizes = table.longs(L2Writer.DATA_SIZE);
            this.crcs = table.longs(MetadataParquet.CRC32C);
        }

        @Override
        public int shard(int row) {
            return shardIds[row];
        }

        @Override
        public long offset(int row) {
            return offsets[row];
        }

        @Override
        public long size(int row) {
            return sizes[row];
        }

        @Override
        public String shardKey(int id) {
            return shards.dictionary().get(id);
        }

        int crc(int row) {
            return MetadataParquet.crc(crcs[row]);
        }
    }
}
