package io.layoutbench.api.model;

import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.predicate.Query;

import java.util.Map;

/**
 * One layout written with one set of options, predicted from a dataset's metadata alone: where each sample's bytes
 * would lie, and so which requests a query would send. A layout builds its model with the same placement and
 * planning code its writer and its datasets run, so a model's plan is the plan the written dataset makes
 * ({@link io.layoutbench.api.layout.Dataset#plan}); {@link io.layoutbench.api.cost.CostModel#predict} prices it.
 * Immutable once built; thread-safe.
 *
 * <pre>{@code
 * LayoutModel model = ((SupportsModelling) StorageLayouts.get("l2")).model(metadata, Map.of("shard-size", "64MB"));
 * RetrievalPlan plan = model.plan(Query.parse("human_label = 'cello'"), QueryOptions.defaults());
 * Prediction cold = new CostModel(Prices.s3Standard(), NetworkProfiles.T3_MEDIUM).predict(plan, true, options);
 * }</pre>
 */
public interface LayoutModel {

    /** The layout's name: {@code l1}, {@code l2}, {@code l3}. */
    String layout();

    /** The options the layout would be written with, as {@code StorageLayout.create} takes them. */
    Map<String, String> options();

    /** The options for people: {@code shard 64MB}, {@code page 4KB, row group 128MB, file 64MB}. */
    String settings();

    /**
     * The requests {@code query} would send: {@link RetrievalPlan#dataRequests()} those of a warm client,
     * {@link RetrievalPlan#metadataRequests()} what a cold client reads first. The mode, coalescing gap, read
     * budget and concurrency come from {@code options}, as for {@code Dataset.plan}.
     *
     * @throws io.layoutbench.api.predicate.PredicateException if the query does not fit the dataset's schema
     */
    RetrievalPlan plan(Query query, QueryOptions options);

    /**
     * Whether paper and optimized retrieval plan differently on this layout. L1 reads one object per sample either
     * way, so the advisor prices one of them.
     */
    default boolean distinguishesModes() {
        return true;
    }

    /**
     * Whether the coalescing gap and read budget of {@link QueryOptions} change this layout's plans (they do where
     * byte ranges of one object are merged), so the advisor prices several gaps.
     */
    default boolean coalesces() {
        return true;
    }
}
