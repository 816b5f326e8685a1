package io.layoutbench.advisor;

import static java.util.Objects.requireNonNull;

/**
 * What one layout setting is predicted to do on one query of the workload (or, for the metadata load, on the reads
 * a fresh client makes first).
 *
 * @param id           the query's id ({@code Q8}, {@code W2}), or {@code load} for the metadata load
 * @param weight       its weight in the workload
 * @param samples      samples returned
 * @param payloadBytes sum of their sizes
 * @param requests     requests sent
 * @param bytes        bytes transferred (D)
 * @param seconds      predicted time (T)
 * @param dollars      predicted cost (C: transfer, requests, compute)
 * @param score        the objective's score of this query, unweighted
 */
public record QueryOutcome(String id, double weight, long samples, long payloadBytes, long requests, long bytes,
        double seconds, double dollars, double score) {

    public QueryOutcome {
        requireNonNull(id, "id is null");
    }

    /** Bytes read per payload byte; 1 when nothing is returned. */
    public double readAmplification() {
        return payloadBytes == 0 ? 1 : (double) bytes / payloadBytes;
    }
}
