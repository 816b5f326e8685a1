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

    /** Manifest property: the metadata table's key. */
    static final String METADATA_KEY = "metadata.key";
    /** Manifest property of a dataset one writer wrote: the prefix of its sample objects. */
    static final String SAMPLES_PREFIX = "samples.prefix";
    /** Manifest property of a dataset written in parts: how many parts hold samples. */
    static final String SAMPLE_PARTS = "samples.parts";

    /**
     * Where the sample objects of each part are: part i holds rows {@code starts[i]} to {@code starts[i + 1]}, its
     * objects below {@code prefixes[i]}, named as its writer named them (by filename, or by position in the part). A
     * dataset one writer wrote is one part.
     */
    private final long[] starts;
    private final String[] prefixes;
    private final SampleKeys keys;
    private final PayloadColumns payload;

    L1Dataset(ObjectBackend backend, String prefix) {
        super(L1Layout.NAME, L1Layout.FORMAT_VERSION, backend, prefix, L1Writer::tableSchema);
        String parts = manifest.property(SAMPLE_PARTS, null);
        int count = parts == null ? 1 : parseCount(parts);
        this.starts = new long[count];
        this.prefixes = new String[count];
        for (int i = 0; i < count; i++) {
            String key = parts == null ? SAMPLES_PREFIX : partPrefix(i);
            prefixes[i] = manifest.property(key, null);
            if (prefixes[i] == null) {
                throw new CorruptDataException("Manifest of the l1 dataset at '" + prefix + "' has no " + key
                        + " property");
            }
            starts[i] = parts == null ? 0 : parseStart(manifest.property(partStart(i), ""), i);
        }
        this.keys = SampleKeys.of(schema());
        this.payload = PayloadColumns.of(schema());
    }

    /** Manifest property: the prefix of part {@code index}'s sample objects. */
    static String partPrefix(int index) {
        return "samples.part." + index + ".prefix";
    }

    /** Manifest property: the first row of part {@code index}. */
    static String partStart(int index) {
        return "samples.part." + index + ".start";
    }

    private int parseCount(String text) {
        try {
            int count = Integer.parseInt(text);
            if (count >= 0) {
                return count;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new CorruptDataException("Manifest of the l1 dataset at '" + prefix + "': " + SAMPLE_PARTS
                + " is not a count: '" + text + "'");
    }

    private long parseStart(String text, int index) {
        try {
            long start = Long.parseLong(text);
            if (start >= 0 && (index == 0 ? start == 0 : start > starts[index - 1])) {
                return start;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new CorruptDataException("Manifest of the l1 dataset at '" + prefix + "': " + partStart(index)
                + " is '" + text + "', not a row after the previous part's start");
    }

    /** The read of field {@code f} (of {@code size} bytes) of row {@code row}, whose name is {@code name}. */
    private PlannedRequest fieldRead(int row, String name, int f, long size) {
        int part = java.util.Arrays.binarySearch(starts, row);
        part = part >= 0 ? part : -part - 2;
        String local = keys.byFilename() ? name : SampleKeys.positional(row - starts[part]);
        return L1Reads.read(prefixes[part], local + payload.suffix(f), size);
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
                            requests.add(fieldRead(row, name, f, sizes[f][row]));
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
                PlannedRequest whole = fieldRead(row, name, f, sizes[f][row]);
                reads.add(new FieldRead(payload.field(f), whole.key(), 0, sizes[f][row], crcs[f][row]));
            }
        }
        return new SampleRead(table.columns().row(row), name, reads);
    }
}
