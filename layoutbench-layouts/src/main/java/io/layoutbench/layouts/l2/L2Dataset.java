package io.layoutbench.layouts.l2;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.MetadataTable;
import io.layoutbench.layouts.common.MetadataTableDataset;
import io.layoutbench.layouts.common.PayloadColumns;
import io.layoutbench.layouts.common.SampleKeys;
import io.layoutbench.layouts.retrieval.FieldRead;
import io.layoutbench.layouts.retrieval.ReadTask;
import io.layoutbench.layouts.retrieval.SampleRead;
import io.layoutbench.layouts.retrieval.SampleTask;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An L2 dataset: metadata table cached by the client; samples read from tar shards by byte range as
 * {@link L2Reads} plans them, one request per sample (paper) or per merged run of nearby samples in one shard
 * (optimized).
 */
final class L2Dataset extends MetadataTableDataset {

    private final SampleKeys keys;
    private final PayloadColumns payload;
    private final boolean checksummed;

    L2Dataset(ObjectBackend backend, String prefix) {
        super(L2Layout.NAME, L2Layout.FORMAT_VERSION, backend, prefix, L2Writer::tableSchema);
        this.keys = SampleKeys.of(schema());
        this.payload = PayloadColumns.of(schema());
        // Shards indexed in place were never read whole: their fields have no checksums.
        this.checksummed = !L2Layout.NO_CHECKSUMS.equals(manifest.property(L2Layout.CHECKSUMS, null));
    }

    @Override
    protected Planned plan(ObjectBackend backend, BoundQuery query, QueryOptions options) {
        MetadataTable table = metadata(backend);
        Selection rows = query.select(table.columns());
        int[] fields = payload.indexesOf(options.fieldsOf(schema()));
        TableLocations locations = new TableLocations(table, payload, checksummed);
        // The items to read, in dataset order, and each matching sample's fields (lazy ones are not read).
        int[] items = new int[Math.multiplyExact(rows.size(), fields.length)];
        int itemCount = 0;
        SampleRead[] samples = new SampleRead[rows.size()];
        long bytes = 0;
        for (int i = 0; i < rows.size(); i++) {
            int row = rows.get(i);
            List<FieldRead> reads = new ArrayList<>(fields.length);
            for (int f : fields) {
                int item = locations.item(row, f);
                if (locations.size(item) < 0) {
                    continue;   // the sample lacks the field
                }
                FieldRead read = new FieldRead(payload.field(f), locations.shardKey(locations.shard(item)),
                        locations.offset(item), locations.size(item), locations.crc(item));
                reads.add(read);
                bytes += read.size();
                if (SampleTask.eager(read, options.lazyFieldBytes())) {
                    items[itemCount++] = item;
                }
            }
            samples[i] = new SampleRead(table.columns().row(row), keys.describe(table.columns(), row), reads);
        }
        L2Reads.Plan plan = L2Reads.plan(Arrays.copyOf(items, itemCount), locations, options);
        return new Planned(table.loadRequests(), tasks(plan, rows, samples, locations, options), rows.size(), bytes);
    }

    /**
     * The plan's reads as tasks, in dataset order: a read with the samples whose fields it holds, joined with the
     * next read when a sample's fields span both (so a task returns whole samples).
     */
    private static List<ReadTask> tasks(L2Reads.Plan plan, Selection rows, SampleRead[] samples,
            TableLocations locations, QueryOptions options) {
        List<ReadTask> tasks = new ArrayList<>(plan.reads().size());
        List<PlannedRequest> requests = new ArrayList<>();
        List<SampleRead> served = new ArrayList<>();
        int next = 0;   // the next sample to hand to a task
        int lastRow = -1;
        for (L2Reads.Read read : plan.reads()) {
            int firstRow = locations.row(read.items()[0]);
            if (!requests.isEmpty() && firstRow != lastRow) {
                tasks.add(SampleTask.of(requests, served, options.lazyFieldBytes()));
                requests = new ArrayList<>();
                served = new ArrayList<>();
            }
            requests.add(read.request());
            lastRow = locations.row(read.items()[read.items().length - 1]);
            while (next < samples.length && rows.get(next) <= lastRow) {
                served.add(samples[next++]);
            }
        }
        while (next < samples.length) {
            served.add(samples[next++]);   // samples whose fields are all lazily read
        }
        if (!served.isEmpty()) {
            tasks.add(SampleTask.of(requests, served, options.lazyFieldBytes()));
        }
        return tasks;
    }

    /**
     * The location columns of the metadata table, as arrays. Item {@code row * fields + field} is field
     * {@code field} of row {@code row}; a size of -1 marks a field the row lacks.
     */
    private static final class TableLocations implements L2Reads.Locations {
        final int fieldCount;
        final int[] shardIds;
        final long[][] offsets;
        final long[][] sizes;
        final int[][] crcs;
        final boolean checksummed;
        final ColumnVector.Strings shards;

        TableLocations(MetadataTable table, PayloadColumns payload, boolean checksummed) {
            this.fieldCount = payload.count();
            this.shards = table.strings(L2Writer.SHARD);
            this.shardIds = shards.ids();
            this.offsets = new long[fieldCount][];
            for (int f = 0; f < fieldCount; f++) {
                offsets[f] = table.longsOrMinusOne(payload.offset(f));
            }
            this.sizes = payload.sizes(table);
            this.checksummed = checksummed;
            this.crcs = checksummed ? payload.checksums(table) : null;
        }

        int item(int row, int field) {
            return row * fieldCount + field;
        }

        int row(int item) {
            return item / fieldCount;
        }

        @Override
        public int shard(int item) {
            return shardIds[item / fieldCount];
        }

        @Override
        public long offset(int item) {
            return offsets[item % fieldCount][item / fieldCount];
        }

        @Override
        public long size(int item) {
            return sizes[item % fieldCount][item / fieldCount];
        }

        @Override
        public String shardKey(int id) {
            return shards.dictionary().get(id);
        }

        long crc(int item) {
            return checksummed ? MetadataParquet.stored(crcs[item % fieldCount][item / fieldCount])
                    : FieldRead.NO_CHECKSUM;
        }
    }
}
