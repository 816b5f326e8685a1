package io.layoutbench.oneobject;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.LayoutModel;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;

import java.util.List;
import java.util.Map;

/** The one-object layout over a dataset's metadata: the block's length from the same encoding the writer uses. */
final class OneObjectModel implements LayoutModel {

    private final DatasetMetadata data;
    private final String key;
    private final long objectSize;
    private final List<PlannedRequest> metadataReads;

    OneObjectModel(DatasetMetadata data) {
        this.data = data;
        this.key = GenerationalDatasetWriter.objectKey("", GenerationalDatasetWriter.MODELLED_GENERATION,
                OneObjectFormat.OBJECT);
        long block = 0;
        for (int row = 0; row < data.sampleCount(); row++) {
            block += OneObjectFormat.entry(data.metadata().row(row), data.size(row), 0).length;
        }
        this.objectSize = data.payloadBytes() + block + OneObjectFormat.TRAILER;
        this.metadataReads = OneObjectFormat.metadataReads(key, objectSize, block);
    }

    /** The one read of a query with matches: every sample's bytes. */
    static PlannedRequest scan(String key, long payloadEnd) {
        return new PlannedRequest(RequestKind.RANGE_GET, key, ByteRange.of(0, payloadEnd));
    }

    @Override
    public String layout() {
        return OneObjectLayout.NAME;
    }

    @Override
    public Map<String, String> options() {
        return Map.of();
    }

    @Override
    public String settings() {
        return "one object, read whole";
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
        Selection rows = query.bind(data.schema()).select(data.metadata());
        long payload = 0;
        for (int i = 0; i < rows.size(); i++) {
            payload += data.size(rows.get(i));
        }
        List<PlannedRequest> reads = rows.isEmpty() ? List.of() : List.of(scan(key, data.payloadBytes()));
        return new RetrievalPlan(metadataReads, reads, rows.size(), payload);
    }
}
