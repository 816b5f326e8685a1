package io.layoutbench.api.layout;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.Query;

/**
 * A committed dataset opened from its layout: query it by metadata predicate. Thread-safe; it caches metadata
 * (the metadata table, Parquet footers and page indexes) after the first query that needs it, so the first query
 * on a fresh dataset is the paper's cold run and later ones are warm.
 *
 * <pre>{@code
 * try (Dataset dataset = StorageLayouts.get("l2").open(backend, "mini/l2");
 *      SampleStream samples = dataset.query(Query.parse("human_label = 'cello'"), QueryOptions.defaults())) {
 *     samples.forEachRemaining(s -> train(s.data()));
 *     System.out.println(samples.stats());
 * }
 * }</pre>
 */
public interface Dataset extends AutoCloseable {

    /** The metadata columns. */
    MetadataSchema schema();

    /** What the dataset holds, from its manifest. */
    DatasetSummary summary();

    /**
     * Runs {@code query}: finds the matching samples in the metadata, then reads them. Each call counts its own
     * requests and bytes (metadata loads included), reported by {@link SampleStream#stats()}. {@code LIMIT n}
     * returns the first n matches in dataset order.
     *
     * @throws io.layoutbench.api.predicate.PredicateException if the query does not fit the schema
     */
    SampleStream query(Query query, QueryOptions options);

    /**
     * The requests {@code query} would send, without reading any sample. {@link RetrievalPlan#metadataRequests()}
     * are the metadata reads a cold client makes for this query; a warm client skips them. Planning loads metadata
     * (uncounted) if it is not cached yet.
     */
    RetrievalPlan plan(Query query, QueryOptions options);

    /** Runs the SQL {@code WHERE} text (with optional {@code LIMIT}) with default options. */
    default SampleStream query(String where) {
        return query(Query.parse(where), QueryOptions.defaults());
    }

    /** Drops cached metadata. */
    @Override
    void close();
}
