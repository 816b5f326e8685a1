package io.layoutbench.layouts.l1;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.MetadataTable;
import io.layoutbench.layouts.common.MetadataTableDataset;
import io.layoutbench.layouts.common.SampleChecksum;
import io.layoutbench.layouts.common.SampleKeys;
import io.layoutbench.layouts.retrieval.ReadTask;

import java.util.ArrayList;
import java.util.List;

/** An L1 dataset: metadata table cached by the client, one GET per matching sample. */
final class L1Dataset extends MetadataTableDataset {

    private final String samplesPrefix;
    private final SampleKeys keys;

    L1Dataset(ObjectBackend backend, String prefix) {
        super(L1Layout.NAME, L1Layout.FORMAT_VERSION, backend, prefix, L1Writer::tableSchema);
        this.samplesPrefix = manifest.property("samples.prefix", null);
        if (samplesPrefix == null) {
            throw new CorruptDataException("Manifest of the l1 dataset at '" + prefix
                    + "' has no samples.prefix property");
        }
        this.keys = SampleKeys.of(schema());
    }

    @Override
    protected Planned plan(ObjectBackend backend, BoundQuery query, QueryOptions options) {
        MetadataTable table = metadata(backend);
        Selection rows = query.select(table.columns());
        long[] crcs = table.longs(MetadataParquet.CRC32C);
        long[] sizes = table.longs(MetadataParquet.sizeColumn(schema()));
        List<ReadTask> tasks = new ArrayList<>(rows.size());
        long payload = 0;
        for (int i = 0; i < rows.size(); i++) {
            int row = rows.get(i);
            MetadataRow metadata = table.columns().row(row);
            String name = keys.key(table.columns(), row);
            PlannedRequest request = L1Reads.read(samplesPrefix, name, sizes[row]);
            int crc = MetadataParquet.crc(crcs[row]);
            payload += sizes[row];
            tasks.add(ReadTask.single(request, data -> {
                SampleChecksum.verify(data, crc, name, request.key());
                return List.of(new Sample(metadata, data));
            }));
        }
        return new Planned(table.loadRequests(), tasks, rows.size(), payload);
    }
}
