package io.layoutbench.examples.advise;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.l1.L1Layout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * L1 (one object per sample) modelled over a dataset's metadata: a query sends one GET of {@code filesize_bytes}
 * per matching sample, in either mode; a cold client first loads the metadata table ({@link MetadataTableModel}).
 */
final class L1Model implements LayoutModel {

    private final DatasetMetadata data;
    private final String samplesPrefix;
    private final int filenameColumn;
    private final MetadataTableModel table;

    L1Model(DatasetMetadata data, String prefix) {
        this.data = data;
        String generation = prefix + "/g00000000T000000-0000000000/";
        this.samplesPrefix = generation + "samples/";
        this.filenameColumn = data.schema().indexOf(MetadataSchema.FILENAME).orElseThrow();
        List<ColumnModel> columns = new ArrayList<>();
        int nameBytes = 0;
        for (int c = 0; c < data.schema().size(); c++) {
            columns.add(data.column(c));
            nameBytes += paperName(data.schema().columns().get(c).name()).length();
        }
        columns.add(ColumnModel.distinctLongs());
        nameBytes += MetadataParquet.CRC32C.length();
        this.table = new MetadataTableModel(generation + "metadata.parquet", data.sampleCount(), columns, nameBytes);
    }

    /** The name L1 and L2 give a metadata column in their tables. */
    static String paperName(String column) {
        return column.equals(MetadataSchema.LABEL) ? MetadataSchema.HUMAN_LABEL : column;
    }

    /** The metadata table. */
    MetadataTableModel table() {
        return table;
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
    public RetrievalPlan plan(BoundQuery query, Selection matches, QueryOptions options) {
        List<PlannedRequest> reads = new ArrayList<>(matches.size());
        long payload = 0;
        for (int i = 0; i < matches.size(); i++) {
            int row = matches.get(i);
            long size = data.size(row);
            payload += size;
            reads.add(new PlannedRequest(RequestKind.GET,
                    samplesPrefix + data.table().getString(filenameColumn, row), ByteRange.of(0, size)));
        }
        return new RetrievalPlan(table.loadRequests(), reads, matches.size(), payload);
    }
}
