package io.layoutbench.spark;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.layout.SupportsPreparedQueries;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.predicate.Query;
import java.util.List;
import org.apache.spark.sql.Row;

/** The package-private parts of the source the bench (in another package) measures with. */
public final class SparkBenchSupport {

    private SparkBenchSupport() {
    }

    /** The backend at {@code uri}, counting every request into {@code total}. */
    public static ObjectBackend metered(String uri, QueryMetrics total) {
        return MeteredBackend.over(ObjectBackends.open(uri), total);
    }

    /**
     * Bytes the library's query {@code where} of the dataset at {@code prefix} receives, from opening the dataset
     * (its manifest) to the last sample: what one Spark task of the same read does.
     */
    public static long libraryBytes(String uri, String layout, String prefix, String where, QueryOptions options) {
        QueryMetrics total = new QueryMetrics();
        try (ObjectBackend backend = metered(uri, total);
                Dataset dataset = StorageLayouts.get(layout).open(backend, prefix);
                io.layoutbench.api.layout.SampleStream samples = dataset.query(Query.parse(where), options)) {
            samples.forEachRemaining(sample -> { });
        }
        return total.snapshot().bytesReceived();
    }

    /** Bytes the scans of {@code executed} (run) received in their tasks. */
    public static long bytesRead(org.apache.spark.sql.Dataset<Row> executed) {
        return LocalSpark.metric(executed, ReadMetrics.BYTES);
    }

    /** Bytes the driver's planning of a read of {@code where} receives: it opens the dataset and prepares the query. */
    public static long planningBytes(String uri, String layout, String prefix, String where) {
        QueryMetrics total = new QueryMetrics();
        try (ObjectBackend backend = metered(uri, total);
                Dataset dataset = StorageLayouts.get(layout).open(backend, prefix)) {
            ((SupportsPreparedQueries) dataset).prepare(Query.parse(where),
                    QueryOptions.defaults().withFields(List.of("data")));
        }
        return total.snapshot().bytesReceived();
    }
}
