package io.layoutbench.examples.advise;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.l2.L2Layout;
import io.layoutbench.api.layout.RangeCoalescer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * L2 (tar shards read by byte range) modelled over a dataset's metadata, for one shard size S. Building it replays
 * L2's writer: a member takes a 512-byte header (three records with a PAX header, for a name longer than 100 bytes)
 * and its data padded to 512 bytes; a shard is finished when the next member would take it, with its two
 * end-of-archive records, past S. So each sample's shard and data offset are exactly L2's.
 *
 * <p>Planning replays {@code L2Dataset.plan}: matching samples grouped by shard in dataset order; paper mode reads
 * each with its own ranged GET; optimized mode merges a shard's ranges when at most the gap apart (and at most
 * {@link RangeCoalescer#maxMergedBytesFor}). A cold client first loads the metadata table, which adds the
 * shard key, data offset and data size columns to L1's.
 */
final class L2Model implements LayoutModel {

    /** Tar's record: headers and data are padded to it. */
    static final int RECORD = 512;

    private final DatasetMetadata data;
    private final long shardSize;
    private final int[] shardOfRow;
    private final long[] dataOffset;
    private final List<String> shardKeys = new ArrayList<>();
    private final List<Long> shardBytes = new ArrayList<>();
    private final MetadataTableModel table;

    L2Model(DatasetMetadata data, String prefix, long shardSize) {
        this.data = data;
        this.shardSize = shardSize;
        int n = data.sampleCount();
        this.shardOfRow = new int[n];
        this.dataOffset = new long[n];
        String generation = prefix + "/g00000000T000000-0000000000/";
        long written = 0;
        int members = 0;
        int shard = -1;
        for (int row = 0; row < n; row++) {
            long footprint = memberFootprint(data.filenameBytes(row), data.size(row));
            if (shard >= 0 && members > 0 && written + 2L * RECORD + footprint > shardSize) {
                shardBytes.add(written + 2L * RECORD);
                shard = -1;
            }
            if (shard < 0) {
                shard = shardKeys.size();
                shardKeys.add(generation + String.format("shards/shard-%06d.tar", shard));
                written = 0;
                members = 0;
            }
            shardOfRow[row] = shard;
            dataOffset[row] = written + header(data.filenameBytes(row));
            written += footprint;
            members++;
        }
        if (shard >= 0) {
            shardBytes.add(written + 2L * RECORD);
        }

        List<ColumnModel> columns = new ArrayList<>();
        int nameBytes = 0;
        for (int c = 0; c < data.schema().size(); c++) {
            columns.add(data.column(c));
            nameBytes += L1Model.paperName(data.schema().columns().get(c).name()).length();
        }
        columns.add(ColumnModel.distinctLongs());
        int[] keyLengths = shardKeys.stream().mapToInt(String::length).toArray();
        columns.add(ColumnModel.strings(shardOfRow, keyLengths));
        columns.add(ColumnModel.longs(dataOffset));
        columns.add(data.column(data.schema().indexOf(io.layoutbench.api.dataset.MetadataSchema.FILESIZE_BYTES)
                .orElseThrow()));
        nameBytes += MetadataParquet.CRC32C.length() + "shard".length() + "data_offset".length()
                + "data_size".length();
        this.table = new MetadataTableModel(generation + "metadata.parquet", n, columns, nameBytes);
    }

    /** A member's header: one record, or three with a PAX header for a name longer than 100 bytes. */
    static long header(int nameBytes) {
        return nameBytes > 100 ? 3L * RECORD : RECORD;
    }

    /** Bytes a member adds to a shard: its header and its data padded to a record. */
    static long memberFootprint(int nameBytes, long dataBytes) {
        return header(nameBytes) + (dataBytes + RECORD - 1) / RECORD * RECORD;
    }

    @Override
    public String layout() {
        return L2Layout.NAME;
    }

    @Override
    public Map<String, String> options() {
        return Map.of(L2Layout.SHARD_SIZE, Sizes.option(shardSize));
    }

    @Override
    public String settings() {
        return "shard " + Sizes.option(shardSize);
    }

    /** The metadata table. */
    MetadataTableModel table() {
        return table;
    }

    /** Bytes of each shard, end-of-archive records included. */
    List<Long> shardBytes() {
        return List.copyOf(shardBytes);
    }

    @Override
    public RetrievalPlan plan(BoundQuery query, Selection matches, QueryOptions options) {
        boolean merge = options.mode() == RetrievalMode.OPTIMIZED;
        List<PlannedRequest> reads = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<List<ByteRange>> rangesPerShard = new ArrayList<>();
        long payload = 0;
        int i = 0;
        while (i < matches.size()) {
            int shard = shardOfRow[matches.get(i)];
            List<ByteRange> ranges = new ArrayList<>();
            while (i < matches.size() && shardOfRow[matches.get(i)] == shard) {
                int row = matches.get(i);
                ranges.add(ByteRange.of(dataOffset[row], data.size(row)));
                payload += data.size(row);
                i++;
            }
            keys.add(shardKeys.get(shard));
            rangesPerShard.add(ranges);
        }
        long gap = merge ? RangeCoalescer.gapWithinBudget(rangesPerShard, RangeCoalescer.gapFor(options),
                options.maxReadAmplification()) : 0;
        for (int s = 0; s < keys.size(); s++) {
            String key = keys.get(s);
            if (merge) {
                for (RangeCoalescer.Merged merged : RangeCoalescer.coalesce(rangesPerShard.get(s), gap,
                        RangeCoalescer.maxMergedBytesFor(options))) {
                    reads.add(new PlannedRequest(RequestKind.RANGE_GET, key, merged.range()));
                }
            } else {
                for (ByteRange range : rangesPerShard.get(s)) {
                    reads.add(new PlannedRequest(RequestKind.RANGE_GET, key, range));
                }
            }
        }
        return new RetrievalPlan(table.loadRequests(), reads, matches.size(), payload);
    }
}
