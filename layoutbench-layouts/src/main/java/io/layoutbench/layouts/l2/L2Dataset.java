package io.layoutbench.layouts.l2;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultRange;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.MetadataTable;
import io.layoutbench.layouts.common.MetadataTableDataset;
import io.layoutbench.layouts.common.PreparedResult;
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
    protected PreparedResult prepare(ObjectBackend backend, BoundQuery query, QueryOptions options) {
        MetadataTable table = metadata(backend);
        Selection matches = query.select(table.columns());
        int[] fields = payload.indexesOf(options.fieldsOf(schema()));
        TableLocations locations = new TableLocations(table, payload, checksummed);
        return new PreparedResult(this.backend, resultId(query, options), options, table.loadRequests(),
                table.loadRequests().size(), matches.size(), sizeOf(matches, fields, locations)) {
            @Override
            protected long gap(List<ResultRange> ranges) {
                return L2Reads.gap(items(pick(matches, ranges), fields, locations, options), locations, options);
            }

            @Override
            protected Reads reads(List<ResultRange> ranges, long gap) {
                Selection rows = pick(matches, ranges);
                L2Reads.Plan plan = L2Reads.plan(items(rows, fields, locations, options), locations, options, gap);
                return new Reads(tasks(plan, table, rows, fields, locations, options),
                        sizeOf(rows, fields, locations));
            }
        };
    }

    /** The items to read of {@code rows}, in dataset order (lazy fields are not read). */
    private static int[] items(Selection rows, int[] fields, TableLocations locations, QueryOptions options) {
        int[] items = new int[Math.multiplyExact(rows.size(), fields.length)];
        int itemCount = 0;
        for (int i = 0; i < rows.size(); i++) {
            int row = rows.get(i);
            for (int f : fields) {
                int item = locations.item(row, f);
                long size = locations.size(item);
                if (size >= 0 && size < options.lazyFieldBytes()) {
                    items[itemCount++] = item;
                }
            }
        }
        return Arrays.copyOf(items, itemCount);
    }

    private static long sizeOf(Selection rows, int[] fields, TableLocations locations) {
        long bytes = 0;
        for (int i = 0; i < rows.size(); i++) {
            for (int f : fields) {
                bytes += Math.max(0, locations.size(locations.item(rows.get(i), f)));
            }
        }
        return bytes;
    }

    /**
     * The plan's reads as tasks, in dataset order: a read with the samples whose fields it holds, joined with the
     * next read when a sample's fields span both (so a task returns whole samples). A task describes its samples
     * only when it runs.
     */
    private List<ReadTask> tasks(L2Reads.Plan plan, MetadataTable table, Selection rows, int[] fields,
            TableLocations locations, QueryOptions options) {
        List<ReadTask> tasks = new ArrayList<>(plan.reads().size());
        List<PlannedRequest> requests = new ArrayList<>();
        int from = 0;   // the first sample (position in rows) not handed to a task yet
        int next = 0;
        int lastRow = -1;
        for (L2Reads.Read read : plan.reads()) {
            int firstRow = locations.row(read.items()[0]);
            if (!requests.isEmpty() && firstRow != lastRow) {
                tasks.add(task(requests, table, rows, from, next, fields, locations, options));
                requests = new ArrayList<>();
                from = next;
            }
            requests.add(read.request());
            lastRow = locations.row(read.items()[read.items().length - 1]);
            while (next < rows.size() && rows.get(next) <= lastRow) {
                next++;
            }
        }
        // The rest: samples whose fields are all lazily read.
        if (rows.size() > from) {
            tasks.add(task(requests, table, rows, from, rows.size(), fields, locations, options));
        }
        return tasks;
    }

    /** A task sending {@code requests} and returning the samples at positions [from, to) of {@code rows}. */
    private ReadTask task(List<PlannedRequest> requests, MetadataTable table, Selection rows, int from, int to,
            int[] fields, TableLocations locations, QueryOptions options) {
        return SampleTask.of(requests, to - from, () -> {
            List<SampleRead> samples = new ArrayList<>(to - from);
            for (int i = from; i < to; i++) {
                int row = rows.get(i);
                List<FieldRead> reads = new ArrayList<>(fields.length);
                for (int f : fields) {
                    int item = locations.item(row, f);
                    if (locations.size(item) >= 0) {   // else the sample lacks the field
                        reads.add(new FieldRead(payload.field(f), locations.shardKey(locations.shard(item)),
                                locations.offset(item), locations.size(item), locations.crc(item)));
                    }
                }
                samples.add(new SampleRead(table.columns().row(row), keys.describe(table.columns(), row), reads));
            }
            return samples;
        }, options.lazyFieldBytes());
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
        final long[][] crcs;
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

        /** The field's checksum as stored, or none for shards indexed in place. */
        long crc(int item) {
            return checksummed ? crcs[item % fieldCount][item / fieldCount] : FieldRead.NO_CHECKSUM;
        }
    }
}
