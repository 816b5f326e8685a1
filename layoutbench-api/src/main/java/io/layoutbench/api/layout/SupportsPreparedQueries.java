package io.layoutbench.api.layout;

import io.layoutbench.api.predicate.Query;

/**
 * A {@link Dataset} that plans a query once and then reads any part of its result: what a distributed loader needs
 * so that each rank reads only its own samples, and what resuming mid-epoch needs to re-read only the samples it
 * lost. Every layout shipped with layoutbench supports it.
 *
 * <pre>{@code
 * if (dataset instanceof SupportsPreparedQueries preparing) {
 *     PreparedQuery cello = preparing.prepare(Query.parse("human_label = 'cello'"), QueryOptions.defaults());
 *     long half = cello.samples() / 2;
 *     try (SampleStream secondHalf = cello.read(List.of(new ResultRange(half, cello.samples())))) { ... }
 * }
 * }</pre>
 */
public interface SupportsPreparedQueries {

    /**
     * Loads the metadata {@code query} needs (uncounted, as {@link Dataset#plan} does), finds its matches and keeps
     * them, so that reads of parts of the result plan in time proportional to the part.
     *
     * @throws io.layoutbench.api.predicate.PredicateException if the query does not fit the schema
     */
    PreparedQuery prepare(Query query, QueryOptions options);
}
