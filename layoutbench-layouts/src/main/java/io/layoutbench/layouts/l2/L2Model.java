package io.layoutbench.layouts.l2;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.LayoutModel;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.LayoutOptions;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.MetadataTableModel;
import io.layoutbench.layouts.common.SampleKeys;
import io.layoutbench.parquet.model.ColumnModel;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * L2 modelled over a dataset's metadata, for one shard size: every sample placed by {@link TarPacking} (as the
 * writer places it), queries planned by {@link L2Reads} (as the datasets plan them), and a cold client's load of the
 * metadata table that {@link L2Writer#tableSchema} describes ({@link MetadataTableModel}). So a modelled plan is
 * the written dataset's, request for request; only the metadata table's bytes are a model of parquet-java's.
 */
final class L2Model implements LayoutModel {

    private final DatasetMetadata data;
    private final long shardSize;
    private final int[] shardOfRow;
    private final long[] dataOffset;
    private final List<String> shardKeys = new ArrayList<>();
    private final List<Long> shardBytes = new ArrayList<>();
    private final MetadataTableModel table;

    L2Model(DatasetMetadata data, long shardSize) {
        this.data = requireNonNull(data, "data is null");
        this.shardSize = shardSize;
        int n = data.sampleCount();
        this.shardOfRow = new int[n];
        this.dataOffset = new long[n];
        SampleKeys keys = SampleKeys.of(data.schema());
        TarPacking packing = new TarPacking(shardSize);
        long[] sizes = data.sizes();
        for (int row = 0; row < n; row++) {
            long written = packing.written();
            dataOffset[row] = packing.place(keys.key(data.metadata(), row), sizes[row]);
            if (packing.shard() == shardKeys.size()) {
                if (!shardKeys.isEmpty()) {
                    shardBytes.add(TarPacking.shardBytes(written));
                }
                shardKeys.add(objectKey(L2Writer.shardObject(packing.shard())));
            }
            shardOfRow[row] = packing.shard();
        }
        if (!shardKeys.isEmpty()) {
            shardBytes.add(TarPacking.shardBytes(packing.written()));
        }
        int[] keyLengths = shardKeys.stream().mapToInt(k -> k.getBytes(StandardCharsets.UTF_8).length).toArray();
        Map<String, ColumnModel> extras = new HashMap<>();
        extras.put(MetadataParquet.CRC32C, ColumnModel.distinctLongs());
        extras.put(L2Writer.SHARD, ColumnModel.strings(shardOfRow, keyLengths));
        extras.put(L2Writer.DATA_OFFSET, ColumnModel.longs(dataOffset));
        extras.put(L2Writer.DATA_SIZE, ColumnModel.longs(sizes));
        this.table = MetadataTableModel.of(objectKey(L2Writer.METADATA), data, L2Writer.tableSchema(data.schema()),
                extras);
    }

    private static String objectKey(String relative) {
        return GenerationalDatasetWriter.objectKey("", GenerationalDatasetWriter.MODELLED_GENERATION, relative);
    }

    @Override
    public String layout() {
        return L2Layout.NAME;
    }

    @Override
    public Map<String, String> options() {
        return Map.of(L2Layout.SHARD_SIZE, LayoutOptions.formatSize(shardSize));
    }

    @Override
    public String settings() {
        return "shard " + LayoutOptions.formatSize(shardSize);
    }

    /** Bytes of each shard, as stored. */
    List<Long> shardBytes() {
        return List.copyOf(shardBytes);
    }

    @Override
    public RetrievalPlan plan(Query query, QueryOptions options) {
        BoundQuery bound = query.bind(data.schema());
        Selection matches = bound.select(data.metadata());
        L2Reads.Plan plan = L2Reads.plan(matches, new L2Reads.Locations() {
            @Override
            public int shard(int row) {
                return shardOfRow[row];
            }

            @Override
            public long offset(int row) {
                return dataOffset[row];
            }

            @Override
            public long size(int row) {
                return data.size(row);
            }

            @Override
            public String shardKey(int shard) {
                return shardKeys.get(shard);
            }
        }, options);
        return new RetrievalPlan(table.loadRequests(), plan.requests(), matches.size(), plan.payloadBytes());
    }

    @Override
    public String toString() {
        return "l2 model [" + settings() + "] of " + data + ": " + shardKeys.size() + " shards";
    }
}
