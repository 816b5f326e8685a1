package io.layoutbench.layouts.l1;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
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
import java.util.List;

/**
 * An L1 dataset: metadata table cached by the client, one GET per payload field the query asks for of each matching
 * sample (one per sample for the one field {@code data}); fields of the query's lazy size are not read but returned
 * as lazily read blobs.
 */
final class L1Dataset extends MetadataTableDataset {

    private final String samplesPrefix;
    private final SampleKeys keys;
    private final PayloadColumns payload;

    L1Dataset(ObjectBackend backend, String prefix) {
        super(L1Layout.NAME, L1Layout.FORMAT_VERSION, backend, prefix, L1Writer::tableSchema);
        this.samplesPrefix = manifest.property("samples.prefix", null);
        if (samplesPrefix == null) {
            throw new CorruptDataException("Manifest of the l1 dataset at '" + prefix
                    + "' has no samples.prefix property");
        }
        this.keys = SampleKeys.of(schema());
        this.payload = PayloadColumns.of(schema());
    }

    @Override
    protected PreparedResult prepare(ObjectBackend backend, BoundQuery query, QueryOptions options) {
        MetadataTable table = metadata(backend);
        Selection matches = query.select(table.columns());
        int[] fields = payload.indexesOf(options.fieldsOf(schema()));
        long[][] sizes = payload.sizes(table);
        long[][] crcs = payload.checksums(table);
        return new PreparedResult(this.backend, resultId(query, options), options, table.loadRequests(),
                table.loadRequests().size(),                 matches.size(), sizeOf(matches, fields, sizes)) {
            @Override
            protected long gap(List<ResultRange> ranges) {
                return 0;   // an object per field: nothing to coalesce
            }

            @Override
            protected Reads reads(List<ResultRange> ranges, long gap) {
                Selection rows = pick(matches, ranges);
                List<ReadTask> tasks = new ArrayList<>(rows.size());
                for (int i = 0; i < rows.size(); i++) {
                    int row = rows.get(i);
                    String name = keys.key(table.columns(), row);
                    List<PlannedRequest> requests = new ArrayList<>(fields.length);
                    for (int f : fields) {
                        if (sizes[f][row] >= 0 && sizes[f][row] < options.lazyFieldBytes()) {
                            requests.add(L1Reads.read(samplesPrefix, name + payload.suffix(f), sizes[f][row]));
                        }
                    }
                    tasks.add(SampleTask.of(requests, 1,
                            () -> List.of(sampleRead(table, row, name, fields, sizes, crcs)),
                            options.lazyFieldBytes()));
                }
                return new Reads(tasks, sizeOf(rows, fields, sizes));
            }
        };
    }

    private static long sizeOf(Selection rows, int[] fields, long[][] sizes) {
        long bytes = 0;
        for (int i = 0; i < rows.size(); i++) {
            for (int f : fields) {
                bytes += Math.max(0, sizes[f][rows.get(i)]);
            }
        }
        return bytes;
    }

    /** Where each asked field of row {@code row} lies: its own object, whole. */
    private SampleRead sampleRead(MetadataTable table, int row, String name, int[] fields, long[][] sizes,
            long[][] crcs) {
        List<FieldRead> reads = new ArrayList<>(fields.length);
        for (int f : fields) {
            if (sizes[f][row] >= 0) {   // else the sample lacks the field
                PlannedRequest whole = L1Reads.read(samplesPrefix, name + payload.suffix(f), sizes[f][row]);
                reads.add(new FieldRead(payload.field(f), whole.key(), 0, sizes[f][row], crcs[f][row]));
            }
        }
        return new SampleRead(table.columns().row(row), name, reads);
    }
}
