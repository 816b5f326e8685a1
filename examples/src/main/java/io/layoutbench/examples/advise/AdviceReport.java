package io.layoutbench.examples.advise;

import io.layoutbench.advisor.Advice;
import io.layoutbench.advisor.QueryOutcome;
import io.layoutbench.advisor.Reasons;
import io.layoutbench.advisor.Recommendation;
import io.layoutbench.advisor.Workload;
import io.layoutbench.examples.report.TextTable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The advice as text for a terminal (a ranked table, the reasons, the best setting's queries) and as JSON.
 *
 * <pre>{@code
 * System.out.print(AdviceReport.text(advice, 15));
 * AdviceReport.writeJson(advice, Path.of("advice.json"));
 * }</pre>
 */
public final class AdviceReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private AdviceReport() {
    }

    /** The report, showing the best {@code top} settings (all for 0 or less). */
    public static String text(Advice advice, int top) {
        StringBuilder out = new StringBuilder();
        Recommendation best = advice.best();
        out.append(String.format(Locale.ROOT, "Advice for %s: %,d samples, %.2f GB%n", advice.dataset(),
                advice.samples(), advice.payloadBytes() / 1e9));
        out.append("Workload: ").append(advice.workload().describe()).append('\n');
        out.append(String.format(Locale.ROOT, "Priced %s on %s, %d requests in flight, %d MiB byte budget, "
                        + "$%.2f/GB transfer; objective: %s%n", advice.cold() ? "cold (a fresh client per query)"
                        : "warm (metadata cached)", advice.profile(), advice.concurrency(),
                advice.maxBufferedBytes() >> 20, advice.prices().transferPerGb(), advice.objective().describe()));
        out.append(String.format(Locale.ROOT, "Modelled %d settings from the metadata alone (no sample read) in "
                + "%.1f s.%n%n", advice.ranked().size(), advice.elapsedSeconds()));

        int shown = top <= 0 ? advice.ranked().size() : Math.min(top, advice.ranked().size());
        TextTable table = new TextTable("rank", "layout", "settings", "T (s)", "D (MB)", "requests", "C ($)",
                "score");
        for (Recommendation r : advice.ranked().subList(0, shown)) {
            table.row((r.reference() ? "*" : "")
                    + r.rank(), r.layout(), r.settings(), fixed(r.seconds(), 3), fixed(r.bytes() / 1e6, 2),
                    Reasons.count(r.requests()), fixed(r.dollars(), 6), advice.objective().format(r.score()));
        }
        out.append(table.render());
        out.append(String.format(Locale.ROOT, "%s* the paper's setting. T, D, requests and C: predicted, summed "
                        + "over the workload with its weights.%n", shown < advice.ranked().size()
                        ? "Showing " + shown + " of " + advice.ranked().size() + " (--top 0 shows all). " : ""));

        out.append("\nWhy\n");
        for (Recommendation r : advice.ranked()) {
            if (r.reasons().isEmpty()) {
                continue;
            }
            out.append(String.format(Locale.ROOT, "#%d %s%n", r.rank(), r.title()));
            for (String reason : r.reasons()) {
                out.append("   - ").append(reason).append('\n');
            }
        }

        out.append(String.format(Locale.ROOT, "%nPer query, #1 (%s)%n", best.title()));
        TextTable queries = new TextTable("query", "weight", "samples", "requests", "D (MB)", "T (s)", "C ($)",
                "D / payload");
        for (QueryOutcome q : best.queries()) {
            queries.row(q.id(), Reasons.count(q.weight()), Reasons.count(q.samples()), Reasons.count(q.requests()),
                    fixed(q.bytes() / 1e6, 2), fixed(q.seconds(), 3), fixed(q.dollars(), 6),
                    Reasons.ratio(q.readAmplification()));
        }
        out.append(queries.render());
        return out.toString();
    }

    /** The advice as a JSON tree: settings, then every setting ranked with its queries. */
    public static Map<String, Object> toJsonTree(Advice advice) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("dataset", advice.dataset());
        settings.put("samples", advice.samples());
        settings.put("payload_bytes", advice.payloadBytes());
        List<Map<String, Object>> workload = new ArrayList<>();
        for (Workload.WorkloadQuery q : advice.workload().queries()) {
            Map<String, Object> query = new LinkedHashMap<>();
            query.put("id", q.id());
            query.put("weight", q.weight());
            query.put("sql", q.sql());
            workload.add(query);
        }
        settings.put("workload", workload);
        settings.put("objective", advice.objective().kind().label());
        settings.put("usd_per_hour", advice.objective().usdPerHour());
        settings.put("profile", advice.profile());
        settings.put("run", advice.cold() ? "cold" : "warm");
        settings.put("concurrency", advice.concurrency());
        settings.put("max_buffered_bytes", advice.maxBufferedBytes());
        settings.put("prices", advice.prices());
        settings.put("elapsed_seconds", advice.elapsedSeconds());

        List<Map<String, Object>> ranked = new ArrayList<>();
        for (Recommendation r : advice.ranked()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("rank", r.rank());
            row.put("layout", r.layout());
            row.put("mode", r.mode().label());
            row.put("options", new java.util.TreeMap<>(r.options()));
            row.put("coalesce_gap_bytes", r.gapBytes().isPresent() ? r.gapBytes().getAsLong() : null);
            row.put("max_read_amplification", r.gapBytes().isEmpty() || Double.isInfinite(r.maxReadAmplification())
                    ? null : r.maxReadAmplification());
            row.put("settings", r.settings());
            row.put("paper_settings", r.reference());
            row.put("seconds", r.seconds());
            row.put("bytes", r.bytes());
            row.put("requests", r.requests());
            row.put("cost_usd", r.dollars());
            row.put("score", r.score());
            row.put("metadata_load", outcome(r.metadataLoad()));
            row.put("queries", r.queries().stream().map(AdviceReport::outcome).toList());
            row.put("reasons", r.reasons());
            ranked.add(row);
        }
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("settings", settings);
        tree.put("ranked", ranked);
        return tree;
    }

    /** Writes {@link #toJsonTree} to {@code file}. */
    public static void writeJson(Advice advice, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            JSON.writeValue(file.toFile(), toJsonTree(advice));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the advice to " + file + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> outcome(QueryOutcome q) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("query", q.id());
        row.put("weight", q.weight());
        row.put("samples", q.samples());
        row.put("payload_bytes", q.payloadBytes());
        row.put("requests", q.requests());
        row.put("bytes", q.bytes());
        row.put("seconds", q.seconds());
        row.put("cost_usd", q.dollars());
        row.put("score", q.score());
        return row;
    }

    private static String fixed(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
