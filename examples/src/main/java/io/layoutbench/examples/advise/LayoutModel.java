package io.layoutbench.examples.advise;

import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Selection;

import java.util.Map;

/**
 * One layout written with one set of options, modelled over a dataset's metadata: where each sample's bytes would
 * lie, and so which requests a query would send. Building a model replays the layout's writer on the samples' sizes
 * (no sample is generated); planning a query replays the layout's planner on the matching rows. Implementations are
 * immutable once built and thread-safe.
 */
interface LayoutModel {

    /** The layout's name: {@code l1}, {@code l2}, {@code l3}. */
    String layout();

    /** The options the layout would be written with, as {@code StorageLayout.create} takes them. */
    Map<String, String> options();

    /** The options for people: {@code shard 64MB}, {@code page 64KB, row group 128MB, file 64MB}. */
    String settings();

    /**
     * The requests a query would send: {@code dataRequests} those of a warm client, {@code metadataRequests} what a
     * cold client reads first.
     *
     * <p>As {@code Dataset.plan(query, options)}: the mode, the coalescing gap ({@code RangeCoalescer.gapFor}) and
     * the concurrency (how many metadata loads go at once) come from {@code options}.
     *
     * @param query   the query, bound to the dataset's schema
     * @param matches its matching rows in dataset order, LIMIT applied
     * @param options how the query runs
     */
    RetrievalPlan plan(BoundQuery query, Selection matches, QueryOptions options);
}
