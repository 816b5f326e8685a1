package io.layoutbench.examples.report;

import io.layoutbench.examples.bench.IngestRow;
import io.layoutbench.examples.bench.RunRow;

import java.util.List;
import java.util.Locale;

/**
 * The benchmark's results as terminal tables in the paper's shape: per query, T, D, requests and C of every
 * layout and mode, measured next to predicted, for warm runs and then cold runs; a cost breakdown per layout and
 * mode summed over the queries (the paper's Table 5); and the ingests.
 *
 * <p>Units: T in seconds, D in MB (10^6 bytes), C in US dollars. With several repetitions, values are means and T
 * carries its standard deviation.
 */
public final class TerminalReport {

    private TerminalReport() {
    }

    /** All tables: warm runs, cold runs, cost breakdown (warm), ingest. */
    public static String render(BenchReport report) {
        StringBuilder out = new StringBuilder();
        String context = context(report);
        for (String run : List.of(RunRow.WARM, RunRow.COLD)) {
            Aggregates aggregates = Aggregates.of(report.rows(), run);
            if (!aggregates.isEmpty()) {
                out.append('\n').append(capitalize(run)).append(" runs").append(context).append('\n');
                out.append(queryTable(aggregates));
            }
        }
        Aggregates warm = Aggregates.of(report.rows(), RunRow.WARM);
        if (!warm.isEmpty()) {
            out.append("\nCost breakdown, warm runs summed over ").append(warm.queries().size())
                    .append(warm.queries().size() == 1 ? " query" : " queries").append(context).append('\n');
            out.append(costTable(warm));
        }
        if (!report.ingest().isEmpty()) {
            out.append("\nIngest (no network simulation: local time, transfer in is free)\n");
            out.append(ingestTable(report.ingest()));
        }
        return out.toString();
    }

    /** One run type: a row per (query, layout/mode), grouped by query. */
    public static String queryTable(Aggregates aggregates) {
        boolean repeated = aggregates.queries().stream().anyMatch(q -> aggregates.series().stream()
                .map(s -> aggregates.cell(q, s)).anyMatch(c -> c != null && c.reps() > 1));
        TextTable table = new TextTable("Query", "Layout/mode", "Samples", "T (s)", "T pred", "Bound", "T/bound",
                "D (MB)", "D pred", "Requests", "Req pred", "C ($)", "C pred");
        boolean first = true;
        for (String query : aggregates.queries()) {
            if (!first) {
                table.separator();
            }
            first = false;
            String label = query;
            for (String series : aggregates.series()) {
                Aggregates.Cell cell = aggregates.cell(query, series);
                if (cell == null) {
                    continue;
                }
                String time = seconds(cell.seconds()) + (repeated ? " ± " + seconds(cell.secondsStddev()) : "");
                table.row(label, series, cell.samples(), time, seconds(cell.predictedSeconds()),
                        cell.boundSeconds() > 0 ? seconds(cell.boundSeconds()) : "-",
                        cell.boundSeconds() > 0 ? String.format(java.util.Locale.ROOT, "%.2f",
                                cell.seconds() / cell.boundSeconds()) : "-",
                        megabytes(cell.bytes()), megabytes(cell.predictedBytes()), count(cell.requests()),
                        count(cell.predictedRequests()), dollars(cell.costUsd()), dollars(cell.predictedCostUsd()));
                label = "";
            }
        }
        return table.render();
    }

    /** Per layout/mode, the sums over queries of T, D, requests and C split into transfer, requests, compute. */
    public static String costTable(Aggregates aggregates) {
        TextTable table = new TextTable("Layout/mode", "T (s)", "D (MB)", "Requests", "C transfer", "C requests",
                "C compute", "C total", "C paper", "C pred");
        for (String series : aggregates.series()) {
            double seconds = 0;
            double bytes = 0;
            double requests = 0;
            double transfer = 0;
            double requestUsd = 0;
            double compute = 0;
            double predicted = 0;
            for (String query : aggregates.queries()) {
                Aggregates.Cell cell = aggregates.cell(query, series);
                if (cell != null) {
                    seconds += cell.seconds();
                    bytes += cell.bytes();
                    requests += cell.requests();
                    transfer += cell.transferUsd();
                    requestUsd += cell.requestUsd();
                    compute += cell.computeUsd();
                    predicted += cell.predictedCostUsd();
                }
            }
            table.row(series, seconds(seconds), megabytes(bytes), count(requests), dollars(transfer),
                    dollars(requestUsd), dollars(compute), dollars(transfer + requestUsd + compute),
                    dollars(transfer + compute), dollars(predicted));
        }
        return table.render() + "C paper = transfer + compute, as the paper counts it; C total adds requests.\n";
    }

    public static String ingestTable(List<IngestRow> rows) {
        TextTable table = new TextTable("Layout", "Samples", "Stored (MB)", "Objects", "Time (s)", "PUTs",
                "C ($)", "Storage ($/month)", "Reused", "Prefix");
        for (IngestRow row : rows) {
            table.row(row.layout(), row.samples(), megabytes(row.storedBytes()), row.objects(),
                    seconds(row.seconds()), row.putRequests(), dollars(row.costUsd()),
                    dollars(row.storageUsdPerMonth()), row.reused() ? "yes" : "no", row.prefix());
        }
        return table.render();
    }

    private static String context(BenchReport report) {
        Object scale = report.settings().get("scale");
        Object profile = report.settings().get("profile");
        Object backend = report.settings().get("backend");
        Object reps = report.settings().get("reps");
        return " (scale " + scale + ", profile " + profile + ", backend " + backend
                + (reps != null && !reps.equals(1) ? ", mean of " + reps + " reps" : "") + ")";
    }

    static String seconds(double seconds) {
        return String.format(Locale.ROOT, "%.3f", seconds);
    }

    static String megabytes(double bytes) {
        return String.format(Locale.ROOT, "%.3f", bytes / 1e6);
    }

    static String count(double count) {
        return count == Math.rint(count) ? String.format(Locale.ROOT, "%d", (long) count)
                : String.format(Locale.ROOT, "%.1f", count);
    }

    static String dollars(double dollars) {
        return String.format(Locale.ROOT, "%.6f", dollars);
    }

    private static String capitalize(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
