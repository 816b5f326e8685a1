package io.layoutbench.examples.bench;

import static java.util.Objects.requireNonNull;

/**
 * One measured query run of the benchmark: one (layout, mode, query, run, rep), measured next to what the cost
 * model predicted for it. Times in seconds, money in US dollars, sizes in bytes.
 *
 * @param layout                layout name ({@code l1}, {@code l2}, ...)
 * @param mode                  retrieval mode ({@code paper}, {@code optimized})
 * @param query                 paper query id ({@code Q1} .. {@code Q11})
 * @param sql                   the query's predicate as run
 * @param scale                 dataset scale
 * @param profile               network profile the run was simulated on
 * @param backend               storage backend ({@code file}, {@code mem}, an {@code s3://} URI ...)
 * @param run                   {@code cold} (a fresh client) or {@code warm} (the same client again)
 * @param rep                   repetition, from 1
 * @param samples               samples returned
 * @param payloadBytes          sum of the returned samples' sizes
 * @param bytes                 bytes transferred (received plus sent), metadata included
 * @param requests              requests sent, all kinds
 * @param getRequests           GET-class requests (GET, ranged GET, HEAD)
 * @param putRequests           PUT-class requests (PUT, LIST, DELETE)
 * @param hedgedRequests        of the requests, duplicates of slow reads (hedges; optimized mode)
 * @param seconds               end-to-end time, from the query call to the last sample consumed (the paper's T)
 * @param firstSampleSeconds    time to the first sample
 * @param transferUsd           measured transfer cost
 * @param requestUsd            measured request cost
 * @param computeUsd            measured compute cost (instance hourly rate x T)
 * @param costUsd               measured total cost: transfer + requests + compute
 * @param predictedSeconds      the cost model's T from the query plan
 * @param predictedBytes        the cost model's D
 * @param predictedRequests     the cost model's request count
 * @param predictedCostUsd      the cost model's total cost
 * @param boundSeconds          the physical bound of the run on the profile (NetworkProfile.physicalBound): its payload
 *                              warm; cold, plus a first-byte latency per round of metadata reads, and their bytes; 0:
 *                              none
 * @param peakHeapBytes         peak used heap observed during the run (whole JVM)
 * @param peakDirectBytes       peak direct buffer memory during the run (whole JVM)
 * @param peakMappedBytes       peak mapped buffer memory during the run (whole JVM)
 * @param peakRssBytes          peak resident size of the process during the run, -1 where the system does not say
 *                              (see {@link MemorySampler})
 */
public record RunRow(
        String layout,
        String mode,
        String query,
        String sql,
        String scale,
        String profile,
        String backend,
        String run,
        int rep,
        long samples,
        long payloadBytes,
        long bytes,
        long requests,
        long getRequests,
        long putRequests,
        long hedgedRequests,
        double seconds,
        double firstSampleSeconds,
        double transferUsd,
        double requestUsd,
        double computeUsd,
        double costUsd,
        double predictedSeconds,
        long predictedBytes,
        long predictedRequests,
        double predictedCostUsd,
        double boundSeconds,
        long peakHeapBytes,
        long peakDirectBytes,
        long peakMappedBytes,
        long peakRssBytes) {

    /** {@link #run()} of a fresh client's first query. */
    public static final String COLD = "cold";
    /** {@link #run()} of the same query again on the same client. */
    public static final String WARM = "warm";

    public RunRow {
        requireNonNull(layout, "layout is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(query, "query is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(scale, "scale is null");
        requireNonNull(profile, "profile is null");
        requireNonNull(backend, "backend is null");
        if (!COLD.equals(run) && !WARM.equals(run)) {
            throw new IllegalArgumentException("run must be 'cold' or 'warm', got " + run);
        }
    }

    /**
     * T over the physical bound ({@link #boundSeconds}: one first-byte latency plus the payload over the host's
     * bandwidth, and on a cold run its metadata's round trips and bytes); NaN where the profile has no bound (no
     * simulation).
     */
    public double boundRatio() {
        return boundSeconds > 0 ? seconds / boundSeconds : Double.NaN;
    }

    /** The layout and mode, as reports label a series: {@code l2/paper}. */
    public String series() {
        return layout + "/" + mode;
    }
}
