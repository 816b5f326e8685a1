package io.layoutbench.advisor;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.cost.Prices;

import java.util.List;

/**
 * The advisor's answer: every layout setting it modelled, best first, with what it assumed.
 *
 * @param dataset         the dataset's id
 * @param samples         its samples
 * @param payloadBytes    their total size
 * @param workload        the queries and weights
 * @param objective       what was minimised
 * @param profile         the network preset the predictions are for
 * @param cold            whether each query was priced on a fresh client (metadata loads included)
 * @param concurrency     requests in flight per query
 * @param maxBufferedBytes each query's byte budget ({@link io.layoutbench.api.layout.QueryOptions#maxBufferedBytes}):
 *                        what it was priced with, as it bounds the reads in flight on a fast link
 * @param prices          the prices of transfer and requests
 * @param elapsedSeconds  how long modelling took
 * @param ranked          the settings, best first
 */
public record Advice(String dataset, int samples, long payloadBytes, Workload workload, Objective objective,
        String profile, boolean cold, int concurrency, long maxBufferedBytes, Prices prices, double elapsedSeconds,
        List<Recommendation> ranked) {

    public Advice {
        requireNonNull(dataset, "dataset is null");
        requireNonNull(workload, "workload is null");
        requireNonNull(objective, "objective is null");
        requireNonNull(profile, "profile is null");
        requireNonNull(prices, "prices is null");
        if (maxBufferedBytes < 1) {
            throw new IllegalArgumentException("maxBufferedBytes must be positive, got " + maxBufferedBytes);
        }
        ranked = List.copyOf(requireNonNull(ranked, "ranked is null"));
    }

    /** The best setting. */
    public Recommendation best() {
        return ranked.get(0);
    }

    /** The best setting of {@code layout}, if it was modelled. */
    public java.util.Optional<Recommendation> bestOf(String layout) {
        return ranked.stream().filter(r -> r.layout().equals(layout)).findFirst();
    }
}
