package io.layoutbench.examples.report;

import io.layoutbench.examples.bench.RunRow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows of one run type (cold or warm) averaged over repetitions, per (query, layout/mode) series, in the order
 * the rows came: what the table and the charts show.
 *
 * <pre>{@code
 * Aggregates warm = Aggregates.of(rows, RunRow.WARM);
 * for (String query : warm.queries()) {
 *     for (String series : warm.series()) {
 *         Aggregates.Cell cell = warm.cell(query, series);   // null if not run
 *     }
 * }
 * }</pre>
 */
public final class Aggregates {

    /**
     * Means over repetitions of one query on one layout/mode.
     *
     * @param reps               repetitions averaged
     * @param samples            samples returned (the same in every repetition)
     * @param seconds            mean T
     * @param secondsStddev      sample standard deviation of T, 0 for one repetition
     * @param bytes              mean D
     * @param requests           mean requests
     * @param transferUsd        mean transfer cost
     * @param requestUsd         mean request cost
     * @param computeUsd         mean compute cost
     * @param costUsd            mean total cost
     * @param predictedSeconds   mean predicted T
     * @param predictedBytes     mean predicted D
     * @param predictedRequests  mean predicted requests
     * @param predictedCostUsd   mean predicted cost
     * @param boundSeconds       mean physical bound (0: the profile has none)
     * @param peakHeapBytes      largest peak heap
     */
    public record Cell(int reps, long samples, double seconds, double secondsStddev, double bytes, double requests,
            double transferUsd, double requestUsd, double computeUsd, double costUsd, double predictedSeconds,
            double predictedBytes, double predictedRequests, double predictedCostUsd, double boundSeconds,
            long peakHeapBytes) {
    }

    private final String run;
    private final List<String> queries;
    private final List<String> series;
    private final Map<String, Cell> cells;

    private Aggregates(String run, List<String> queries, List<String> series, Map<String, Cell> cells) {
        this.run = run;
        this.queries = queries;
        this.series = series;
        this.cells = cells;
    }

    /** The rows of {@code run} ({@code cold} or {@code warm}) averaged over repetitions. */
    public static Aggregates of(List<RunRow> rows, String run) {
        Set<String> queries = new LinkedHashSet<>();
        Set<String> series = new LinkedHashSet<>();
        Map<String, List<RunRow>> groups = new LinkedHashMap<>();
        for (RunRow row : rows) {
            if (!row.run().equals(run)) {
                continue;
            }
            queries.add(row.query());
            series.add(row.series());
            groups.computeIfAbsent(key(row.query(), row.series()), k -> new ArrayList<>()).add(row);
        }
        Map<String, Cell> cells = new LinkedHashMap<>();
        groups.forEach((key, group) -> cells.put(key, cell(group)));
        return new Aggregates(run, List.copyOf(queries), List.copyOf(series), cells);
    }

    public String run() {
        return run;
    }

    /** Query ids, in the order they ran. */
    public List<String> queries() {
        return queries;
    }

    /** Layout/mode series ({@code l2/paper}), in the order they ran. */
    public List<String> series() {
        return series;
    }

    /** The means of {@code query} on {@code series}, or null if that combination did not run. */
    public Cell cell(String query, String series) {
        return cells.get(key(query, series));
    }

    /** Whether no rows of this run type exist. */
    public boolean isEmpty() {
        return cells.isEmpty();
    }

    private static String key(String query, String series) {
        return query + "\u0000" + series;
    }

    private static Cell cell(List<RunRow> group) {
        int n = group.size();
        double seconds = mean(group, RunRow::seconds);
        double variance = 0;
        for (RunRow row : group) {
            variance += (row.seconds() - seconds) * (row.seconds() - seconds);
        }
        double stddev = n > 1 ? Math.sqrt(variance / (n - 1)) : 0;
        return new Cell(n, group.get(0).samples(), seconds, stddev, mean(group, r -> r.bytes()),
                mean(group, r -> r.requests()), mean(group, RunRow::transferUsd), mean(group, RunRow::requestUsd),
                mean(group, RunRow::computeUsd), mean(group, RunRow::costUsd), mean(group, RunRow::predictedSeconds),
                mean(group, r -> r.predictedBytes()), mean(group, r -> r.predictedRequests()),
                mean(group, RunRow::predictedCostUsd), mean(group, RunRow::boundSeconds),
                group.stream().mapToLong(RunRow::peakHeapBytes).max().orElse(0));
    }

    private static double mean(List<RunRow> group, java.util.function.ToDoubleFunction<RunRow> value) {
        return group.stream().mapToDouble(value).average().orElse(0);
    }
}
