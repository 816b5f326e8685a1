package io.layoutbench.spark;

import io.layoutbench.api.layout.PreparedQuery;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.SupportsPreparedQueries;
import io.layoutbench.api.predicate.Query;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * One read of a dataset: the query is prepared once on the driver, and its result cut into partitions of whole read
 * units (the query's coalesced reads) of at least {@link SourceOptions#partitionBytes()} each; every task reads its
 * partition's ranges of the result.
 */
final class LayoutbenchScan implements Scan, Batch {

    private final SourceOptions options;
    private final StructType required;
    private final String where;

    LayoutbenchScan(SourceOptions options, StructType required, String where) {
        this.options = options;
        this.required = required;
        this.where = where;
    }

    @Override
    public StructType readSchema() {
        return required;
    }

    @Override
    public String description() {
        return "layoutbench " + options.layout() + " " + options.prefix() + " WHERE " + where;
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    /** The payload fields Spark asked for, in the dataset's order. */
    static List<String> fields(StructType required, List<String> payloadFields) {
        List<String> fields = new ArrayList<>();
        for (StructField field : required.fields()) {
            if (payloadFields.contains(field.name())) {
                fields.add(field.name());
            }
        }
        return fields;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        try (SourceOptions.Opened opened = options.open()) {
            List<String> fields = fields(required, opened.dataset().schema().payloadFields());
            PreparedQuery prepared = ((SupportsPreparedQueries) opened.dataset()).prepare(Query.parse(where),
                    queryOptions(options, fields));
            List<InputPartition> partitions = new ArrayList<>();
            long start = 0;
            long bytes = 0;
            for (int unit = 0; unit < prepared.unitCount(); unit++) {
                if (bytes >= options.partitionBytes()) {
                    partitions.add(new LayoutbenchPartition(prepared.resultId(), start, prepared.unitStart(unit)));
                    start = prepared.unitStart(unit);
                    bytes = 0;
                }
                bytes += prepared.unitBytes(unit);
            }
            if (prepared.samples() > start) {
                partitions.add(new LayoutbenchPartition(prepared.resultId(), start, prepared.samples()));
            }
            return partitions.toArray(InputPartition[]::new);
        }
    }

    /**
     * The query options every task reads with: the payload fields asked for; no payload byte without one. The byte
     * budget is pinned to 64 MiB rather than the default, which follows the heap: the driver and the executors plan
     * alike whatever their heaps, and an executor's task slots share its heap.
     */
    static QueryOptions queryOptions(SourceOptions options, List<String> fields) {
        QueryOptions base = QueryOptions.defaults().withMode(options.mode())
                .withMaxBufferedBytes(QueryOptions.DEFAULT_MAX_BUFFERED_BYTES);
        return fields.isEmpty() ? base.withoutPayload() : base.withFields(fields);
    }

    @Override
    public CustomMetric[] supportedCustomMetrics() {
        return ReadMetrics.supported();
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new LayoutbenchReaderFactory(options, required, where);
    }
}
