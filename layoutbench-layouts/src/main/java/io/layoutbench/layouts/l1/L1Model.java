package io.layoutbench.layouts.l1;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.LayoutModel;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.MetadataTableModel;
import io.layoutbench.layouts.common.SampleKeys;
import io.layoutbench.parquet.model.ColumnModel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * L1 modelled over a dataset's metadata: its objects named as {@link L1Writer} names them, planned by
 * {@link L1Reads} as {@link L1Dataset} plans them, and a cold client's load of the metadata table that
 * {@link L1Writer#tableSchema} describes ({@link MetadataTableModel}).
 */
final class L1Model implements LayoutModel {

    private final DatasetMetadata data;
    private final SampleKeys keys;
    private final String samplesPrefix;
    private final MetadataTableModel table;

    L1Model(DatasetMetadata data) {
        this.data = requireNonNull(data, "data is null");
        this.keys = SampleKeys.of(data.schema());
        this.samplesPrefix = GenerationalDatasetWriter.objectKey("", GenerationalDatasetWriter.MODELLED_GENERATION,
                L1Writer.SAMPLES);
        Map<String, ColumnModel> extras = new HashMap<>();
        extras.put(MetadataParquet.CRC32C, ColumnModel.distinctLongs());
        extras.put(MetadataParquet.DATA_SIZE, ColumnModel.longs(data.sizes()));
        this.table = MetadataTableModel.of(GenerationalDatasetWriter.objectKey("",
                GenerationalDatasetWriter.MODELLED_GENERATION, L1Writer.METADATA), data,
                L1Writer.tableSchema(data.schema()), extras);
    }

    @Override
    public String layout() {
        return L1Layout.NAME;
    }

    @Override
    public Map<String, String> options() {
        return Map.of();
    }

    @Override
    public String settings() {
        return "one object per sample";
    }

    @Override
    public boolean distinguishesModes() {
        return false;
    }

    @Override
    public boolean coalesces() {
        return false;
    }

    @Override
    public RetrievalPlan plan(Query query, QueryOptions options) {
        BoundQuery bound = query.bind(data.schema());
        Selection matches = bound.select(data.metadata());
        List<PlannedRequest> reads = new ArrayList<>(matches.size());
        long payload = 0;
        for (int i = 0; i < matches.size(); i++) {
            int row = matches.get(i);
            payload += data.size(row);
            reads.add(L1Reads.read(samplesPrefix, keys.key(data.metadata(), row), data.size(row)));
        }
        return new RetrievalPlan(table.loadRequests(), reads, matches.size(), payload);
    }

    @Override
    public String toString() {
        return "l1 model of " + data;
    }
}
