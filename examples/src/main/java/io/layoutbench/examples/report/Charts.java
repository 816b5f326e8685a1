package io.layoutbench.examples.report;

import io.layoutbench.examples.bench.RunRow;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PNG charts of a benchmark in the shape of the paper's figures:
 * <ul>
 *   <li>{@code fig2a-time-<run>.png}, {@code fig2b-time-<run>.png}: retrieval time T per query, one bar per
 *       layout/mode (Figure 2; split like the paper into the small queries Q1-Q4, Q10, Q11 and the large ones
 *       Q5-Q9, whose times differ by orders of magnitude; the speech queries likewise, S3 and S6 being the large
 *       ones), error bars of one standard deviation over reps;</li>
 *   <li>{@code fig3-bytes-<run>.png}: data transferred D per query, log scale (Figure 3);</li>
 *   <li>{@code table5-cost.png}: cost per layout/mode summed over the queries of the warm runs, stacked into
 *       transfer, requests and compute (Table 5).</li>
 * </ul>
 * Rendering is headless ({@code java.awt.headless=true} is set if not set).
 *
 * <pre>{@code
 * List<Path> written = Charts.write(report, Path.of("results/charts"));
 * }</pre>
 */
public final class Charts {

    /** The paper's Figure 2a queries (small results); the others are Figure 2b. */
    public static final Set<String> SMALL_QUERIES = Set.of("Q1", "Q2", "Q3", "Q4", "Q10", "Q11");
    /** The speech queries with small results (at most a few percent of the clips); S3 and S6 are large. */
    public static final Set<String> SPEECH_SMALL_QUERIES = Set.of("S1", "S2", "S4", "S5", "S7", "S8", "S9", "S10");

    private static final int WIDTH = 1200;
    private static final int HEIGHT = 650;
    private static final Color[] LAYOUT_COLORS = {
        new Color(31, 119, 180), new Color(255, 127, 14), new Color(44, 160, 44), new Color(148, 103, 189),
        new Color(214, 39, 40), new Color(140, 86, 75), new Color(227, 119, 194), new Color(127, 127, 127)};

    private Charts() {
    }

    /** Writes every chart the rows allow into {@code directory}; returns the files written. */
    public static List<Path> write(BenchReport report, Path directory) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        String context = context(report);
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(directory);
            for (String run : List.of(RunRow.WARM, RunRow.COLD)) {
                Aggregates aggregates = Aggregates.of(report.rows(), run);
                if (aggregates.isEmpty()) {
                    continue;
                }
                List<String> small = aggregates.queries().stream().filter(Charts::smallResults).toList();
                List<String> large = aggregates.queries().stream().filter(q -> !smallResults(q)).toList();
                if (!small.isEmpty()) {
                    written.add(save(timeChart(aggregates, small, "small results", context),
                            directory.resolve("fig2a-time-" + run + ".png")));
                }
                if (!large.isEmpty()) {
                    written.add(save(timeChart(aggregates, large, "large results", context),
                            directory.resolve("fig2b-time-" + run + ".png")));
                }
                written.add(save(bytesChart(aggregates, context), directory.resolve("fig3-bytes-" + run + ".png")));
            }
            Aggregates warm = Aggregates.of(report.rows(), RunRow.WARM);
            if (!warm.isEmpty()) {
                written.add(save(costChart(warm, context), directory.resolve("table5-cost.png")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write charts into " + directory + ": " + e.getMessage(), e);
        }
        return written;
    }

    private static boolean smallResults(String query) {
        return SMALL_QUERIES.contains(query) || SPEECH_SMALL_QUERIES.contains(query);
    }

    /** Figure 2: T per query, grouped bars per layout/mode. */
    static CategoryChart timeChart(Aggregates aggregates, List<String> queries, String group, String context) {
        CategoryChart chart = chart("Retrieval time T per query, " + aggregates.run() + " runs, " + group
                + context, "Query", "T (seconds)");
        boolean errorBars = aggregates.series().stream().flatMap(s -> queries.stream().map(q -> aggregates.cell(q, s)))
                .anyMatch(cell -> cell != null && cell.reps() > 1);
        for (String series : aggregates.series()) {
            List<Double> values = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (String query : queries) {
                Aggregates.Cell cell = aggregates.cell(query, series);
                values.add(cell == null ? 0.0 : cell.seconds());
                errors.add(cell == null ? 0.0 : cell.secondsStddev());
            }
            if (errorBars) {
                chart.addSeries(series, queries, values, errors);
            } else {
                chart.addSeries(series, queries, values);
            }
        }
        colour(chart, aggregates.series());
        chart.getStyler().setDecimalPattern("#,##0.###");
        return chart;
    }

    /** Figure 3: D per query on a log scale, grouped bars per layout/mode. */
    static CategoryChart bytesChart(Aggregates aggregates, String context) {
        CategoryChart chart = chart("Data transferred D per query, " + aggregates.run() + " runs" + context,
                "Query", "D (MB, log scale)");
        double smallest = Double.MAX_VALUE;
        for (String series : aggregates.series()) {
            List<Double> values = new ArrayList<>();
            for (String query : aggregates.queries()) {
                Aggregates.Cell cell = aggregates.cell(query, series);
                // A log axis cannot show zero: an empty transfer is drawn as one byte.
                double megabytes = Math.max(cell == null ? 0 : cell.bytes(), 1.0) / 1e6;
                smallest = Math.min(smallest, megabytes);
                values.add(megabytes);
            }
            chart.addSeries(series, aggregates.queries(), values);
        }
        chart.getStyler().setYAxisLogarithmic(true);
        // Bars start at the axis minimum, which XChart puts at zero unless told: a decade below the smallest bar.
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(smallest)) - 1));
        chart.getStyler().setDecimalPattern("#,##0.###");
        colour(chart, aggregates.series());
        return chart;
    }

    /** Table 5: dollars per layout/mode summed over queries, stacked by what they pay for. */
    static CategoryChart costChart(Aggregates aggregates, String context) {
        int queries = aggregates.queries().size();
        CategoryChart chart = chart("Cost C per layout, " + aggregates.run() + " runs summed over " + queries
                + (queries == 1 ? " query" : " queries") + context, "Layout/mode", "C (US dollars)");
        Map<String, List<Double>> parts = new LinkedHashMap<>();
        parts.put("transfer ($0.09/GB)", new ArrayList<>());
        parts.put("requests", new ArrayList<>());
        parts.put("compute (hourly rate x T)", new ArrayList<>());
        for (String series : aggregates.series()) {
            double transfer = 0;
            double requests = 0;
            double compute = 0;
            for (String query : aggregates.queries()) {
                Aggregates.Cell cell = aggregates.cell(query, series);
                if (cell != null) {
                    transfer += cell.transferUsd();
                    requests += cell.requestUsd();
                    compute += cell.computeUsd();
                }
            }
            List<List<Double>> columns = new ArrayList<>(parts.values());
            columns.get(0).add(transfer);
            columns.get(1).add(requests);
            columns.get(2).add(compute);
        }
        parts.forEach((name, values) -> chart.addSeries(name, aggregates.series(), values));
        chart.getStyler().setStacked(true);
        chart.getStyler().setSeriesColors(new Color[] {
            new Color(31, 119, 180), new Color(255, 127, 14), new Color(44, 160, 44)});
        chart.getStyler().setDecimalPattern("$0.######");
        return chart;
    }

    private static CategoryChart chart(String title, String xTitle, String yTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridVerticalLinesVisible(false);
        chart.getStyler().setAvailableSpaceFill(0.85);
        chart.getStyler().setErrorBarsColor(Color.BLACK);
        return chart;
    }

    /** One hue per layout; the paper mode darker, the optimized mode lighter. */
    private static void colour(CategoryChart chart, List<String> series) {
        List<String> layouts = series.stream().map(s -> s.substring(0, s.indexOf('/'))).distinct().toList();
        Color[] colors = new Color[series.size()];
        for (int i = 0; i < series.size(); i++) {
            String name = series.get(i);
            Color base = LAYOUT_COLORS[layouts.indexOf(name.substring(0, name.indexOf('/'))) % LAYOUT_COLORS.length];
            colors[i] = name.endsWith("/paper") ? base.darker() : base;
        }
        chart.getStyler().setSeriesColors(colors);
    }

    private static Path save(CategoryChart chart, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        return file;
    }

    private static String context(BenchReport report) {
        return " (scale " + report.settings().get("scale") + ", profile " + report.settings().get("profile") + ")";
    }
}
