package io.layoutbench.examples.cli;

import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.evaluation.BenchmarkQuery;
import io.layoutbench.examples.bench.BenchmarkRunner;
import io.layoutbench.examples.bench.DatasetSource;
import io.layoutbench.examples.bench.DatasetStore;
import io.layoutbench.examples.bench.GrownHeap;
import io.layoutbench.examples.bench.IngestRow;
import io.layoutbench.examples.bench.MemorySampler;
import io.layoutbench.examples.bench.Progress;
import io.layoutbench.examples.bench.RunRow;
import io.layoutbench.examples.report.BenchReport;
import io.layoutbench.examples.report.Charts;
import io.layoutbench.examples.report.FileReports;
import io.layoutbench.examples.report.TerminalReport;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code layoutbench bench}: ingest the synthetic ImageNet (or, with {@code --dataset speech}, the synthetic speech
 * corpus) into each layout (or reuse it), run its queries cold and warm in each mode on a simulated network, and
 * report T, D, requests and cost, measured and predicted, as tables, JSON, CSV and charts.
 */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Run the LayoutBench workload: Q1-Q11 of the paper on every layout and retrieval mode, each as a cold "
                    + "run (a fresh client: new dataset handle, empty caches, no open connections) and a warm run "
                    + "(the same query again on that client). Reads go through a simulated network of the chosen "
                    + "profile; ingest does not (it is timed on this machine).",
            "With --dataset speech, the workload is a LibriSpeech-like corpus (16 kHz WAV clips with their "
                    + "transcripts, two payload fields per sample) and its queries S1-S10: by speaker, sex, duration "
                    + "and words of the transcript; reports name its scales speech-tiny, speech-mini ...",
            "Datasets are ingested once and reused by later runs with the same scale, seed and layout options.",
            ""},
        footer = {"",
            "Examples:",
            "  layoutbench bench --scale tiny --profile none",
            "  layoutbench bench --layouts l1,l2 --mode paper --queries Q1,Q3,Q8 --reps 5",
            "  layoutbench bench --dataset speech --scale tiny --no-charts",
            "  layoutbench bench --backend s3-embedded --scale tiny"})
final class BenchCommand implements Callable<Integer> {

    /**
     * The share of the heap {@code --backend mem}'s data and a query's reads in flight may take together; the rest is
     * for everything else a run holds (metadata, results, the collector's headroom).
     */
    static final double MEMORY_BACKEND_HEAP_SHARE = 0.8;

    @Spec
    CommandSpec spec;

    @Mixin
    DatasetOptions dataset = new DatasetOptions();

    @Option(names = "--dataset", paramLabel = "DATASET", defaultValue = "imagenet",
            converter = Workload.KindConverter.class,
            description = "Synthetic dataset and its queries: imagenet (the paper's Q1-Q11) or speech "
                    + "(LibriSpeech-like clips and transcripts, S1-S10). Default: ${DEFAULT-VALUE}.")
    Workload.Kind datasetKind;

    @Mixin
    StoreOptions store = new StoreOptions();

    @Option(names = "--layouts", paramLabel = "LAYOUT", split = ",",
            description = "Layouts to run, comma-separated (l1, l2, l3, fac ...). Default: every layout found.")
    List<String> layoutNames = new ArrayList<>();

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "both",
            converter = Converters.ModeChoiceConverter.class,
            description = "Retrieval mode: optimized, paper or both. Default: ${DEFAULT-VALUE}.")
    Converters.ModeChoice modeChoice;

    @Option(names = "--profile", paramLabel = "PROFILE", defaultValue = "t3.medium",
            converter = Converters.ProfileConverter.class,
            description = "Network preset the queries run on (none, t3.medium, c5.large, c8gb.large, t3.large, "
                    + "t3.xlarge, t3.2xlarge); none means no simulation and no compute cost. "
                    + "Default: ${DEFAULT-VALUE}.")
    NetworkProfile profile;

    @Option(names = "--queries", paramLabel = "Q", split = ",",
            description = "Queries to run, comma-separated (Q1 .. Q11; S1 .. S10 with --dataset speech). "
                    + "Default: all of the dataset's.")
    List<String> queryIds = new ArrayList<>();

    @Option(names = "--reps", paramLabel = "N", defaultValue = "1",
            description = "Repetitions of every cold and warm run (the paper: 5 at mini, 3 at medium). "
                    + "Default: ${DEFAULT-VALUE}.")
    int reps;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "" + QueryOptions.DEFAULT_MAX_CONCURRENCY,
            description = "Most requests in flight per query: a cap. An optimized query starts with the profile's"
                    + " connection pool (sized to fill its link) and adapts while it runs: more while throughput"
                    + " grows, fewer when the store throttles or latency rises, within its byte budget."
                    + " Default: ${DEFAULT-VALUE}.")
    int concurrency;

    @Option(names = "--order", paramLabel = "ORDER", defaultValue = "dataset",
            description = "Order samples are handed out in: dataset (deterministic; a slow read holds up the ones "
                    + "after it) or completion. Default: ${DEFAULT-VALUE}.")
    ResultOrder order;

    @Option(names = "--objective", paramLabel = "OBJECTIVE", defaultValue = "time",
            converter = ObjectiveConverter.class,
            description = "What optimized retrieval minimises: time (merge byte ranges when reading the gap is faster "
                    + "than another request) or cost (when it is cheaper in dollars). Default: ${DEFAULT-VALUE}.")
    QueryOptions.Objective objective;

    @Mixin
    ReadBudgetOption readBudget;

    @Mixin
    ByteBudgetOption byteBudget;

    /** {@link #byteBudget}, parsed. */
    private long maxBufferedBytes;

    @Option(names = "--no-hedging",
            description = "Send no duplicate of a slow read. By default an optimized query sends one duplicate of a "
                    + "read that has not completed by the profile's 75th-percentile first-byte latency plus its "
                    + "transfer time; the first answer wins and the other is cancelled (paper mode never hedges).")
    boolean noHedging;

    /** Parses {@code time} or {@code cost}, ignoring case. */
    static final class ObjectiveConverter implements picocli.CommandLine.ITypeConverter<QueryOptions.Objective> {
        @Override
        public QueryOptions.Objective convert(String value) {
            for (QueryOptions.Objective objective : QueryOptions.Objective.values()) {
                if (objective.name().equalsIgnoreCase(value)) {
                    return objective;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("Unknown objective '" + value
                    + "'; known objectives: time, cost");
        }
    }

    @Option(names = "--latency-jitter", paramLabel = "SIGMA",
            description = "Override the profile's first-byte latency jitter (lognormal sigma; the presets use 0.5). "
                    + "0 makes every latency the median, as the cost model predicts.")
    Double latencyJitter;

    @Option(names = "--transfer-usd-per-gb", paramLabel = "USD", defaultValue = "0.09",
            description = "Price of a GB transferred out of the store (the paper: 0.09; 0 for a client in the "
                    + "same region). Default: ${DEFAULT-VALUE}.")
    double transferPrice;

    @Option(names = "--layout-option", paramLabel = "LAYOUT.KEY=VALUE",
            description = "A layout option overriding the paper's settings, e.g. l2.shard-size=32MB; repeatable.")
    List<String> layoutOptions = new ArrayList<>();

    @Option(names = "--reingest", description = "Ingest again even if the datasets exist.")
    boolean reingest;

    @Option(names = "--json", paramLabel = "FILE", description = "JSON report. Default: in the results directory.")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "CSV report. Default: in the results directory.")
    Path csv;

    @Option(names = "--charts", paramLabel = "DIR", description = "PNG charts. Default: in the results directory.")
    Path charts;

    @Option(names = "--no-charts", description = "Do not draw charts.")
    boolean noCharts;

    @Override
    public Integer call() {
        long started = System.nanoTime();
        Instant startedAt = Instant.now();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Workload workload = Workload.of(datasetKind, dataset);
        if (reps < 1) {
            throw new ParameterException(spec.commandLine(), "--reps must be at least 1, got " + reps);
        }
        if (concurrency < 1) {
            throw new ParameterException(spec.commandLine(), "--concurrency must be at least 1, got "
                    + concurrency);
        }
        double maxReadAmplification = readBudget.value(spec.commandLine());
        maxBufferedBytes = byteBudget.value(spec.commandLine());
        if (latencyJitter != null && (!(latencyJitter >= 0) || Double.isInfinite(latencyJitter))) {
            throw new ParameterException(spec.commandLine(), "--latency-jitter must be >= 0, got " + latencyJitter);
        }
        if (latencyJitter != null && !profile.isUnlimited()) {
            profile = profile.withLatencyJitter(latencyJitter);
        }
        if (!(transferPrice >= 0) || Double.isInfinite(transferPrice)) {
            throw new ParameterException(spec.commandLine(), "--transfer-usd-per-gb must be a price >= 0, got "
                    + transferPrice);
        }
        List<StorageLayout> layouts = Layouts.resolve(spec.commandLine(), layoutNames);
        if (layouts.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "No storage layouts found on the class path");
        }
        List<BenchmarkQuery> queries = queries(workload);
        Map<String, Map<String, String>> overrides = Layouts.overrides(spec.commandLine(), layoutOptions);
        Prices prices = Prices.s3Standard().withTransferPerGb(transferPrice);
        CostModel costModel = new CostModel(prices, profile);
        DatasetSource source = workload.source();
        Progress.Factory progress = ConsoleProgress.factory();

        try (Store opened = store.open(spec.commandLine(), profile)) {
            checkMemory(spec.commandLine(), opened, workload, layouts.size(), maxBufferedBytes,
                    Runtime.getRuntime().maxMemory());
            DatasetStore datasets = new DatasetStore(opened.backend(), opened.label());
            List<IngestRow> ingest = new ArrayList<>();
            Map<String, String> prefixes = new LinkedHashMap<>();
            for (StorageLayout layout : layouts) {
                Map<String, String> options = workload.layoutOptions(layout, overrides);
                IngestRow row = datasets.ensure(source, layout, options, reingest, costModel, progress, why -> {
                    err.println(layout.name() + ": " + why);
                    err.flush();
                });
                err.printf(Locale.ROOT, "%s: %s %d samples at %s in %s (%s %.1f s)%n", layout.name(),
                        row.reused() ? "reusing" : "ingested", row.samples(), row.prefix(), opened.location(),
                        row.reused() ? "ingested earlier in" : "in", row.seconds());
                err.flush();
                ingest.add(row);
                prefixes.put(layout.name(), row.prefix());
            }
            long queriesStarted = System.nanoTime();
            BenchmarkRunner runner = new BenchmarkRunner(new BenchmarkRunner.Config(workload.scaleLabel(),
                    opened.label(), layouts, modeChoice.modes(), queries, profile, prices, reps, concurrency, order,
                    objective, maxReadAmplification, !noHedging, maxBufferedBytes));
            List<RunRow> rows = runner.run(opened.backend(), prefixes, progress);
            double querySeconds = (System.nanoTime() - queriesStarted) / 1e9;

            Map<String, Object> settings = settings(workload, startedAt, opened, layouts, queries, prices);
            settings.put("query_seconds", querySeconds);
            settings.put("total_seconds", (System.nanoTime() - started) / 1e9);
            settings.put("peak_rss_bytes", MemorySampler.processPeakResidentBytes());
            BenchReport report = new BenchReport(settings, rows, ingest);
            out.print(TerminalReport.render(report));

            Path results = resultsDirectory(workload, startedAt);
            Path jsonFile = json != null ? json : results.resolve("results.json");
            Path csvFile = csv != null ? csv : results.resolve("results.csv");
            FileReports.writeJson(report, jsonFile);
            FileReports.writeCsv(rows, csvFile);
            out.println();
            out.println("JSON:   " + jsonFile.toAbsolutePath().normalize());
            out.println("CSV:    " + csvFile.toAbsolutePath().normalize());
            if (!noCharts) {
                Path chartDir = charts != null ? charts : results.resolve("charts");
                List<Path> written = Charts.write(report, chartDir);
                out.println("Charts: " + chartDir.toAbsolutePath().normalize() + " (" + written.size()
                        + " PNG files)");
            }
            out.printf(Locale.ROOT, "Done in %.1f s (queries %.1f s, %d runs).%n",
                    (System.nanoTime() - started) / 1e9, querySeconds, rows.size());
            out.flush();
        }
        return 0;
    }

    private List<BenchmarkQuery> queries(Workload workload) {
        if (queryIds.isEmpty()) {
            return List.copyOf(workload.queries());
        }
        List<BenchmarkQuery> selected = new ArrayList<>();
        for (String id : queryIds) {
            try {
                BenchmarkQuery query = workload.query(id.strip());
                if (!selected.contains(query)) {
                    selected.add(query);
                }
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        return selected;
    }

    /**
     * The in-memory backend holds every layout on the heap: refuse a run that cannot fit. Beside the data, a query
     * holds up to its byte budget of reads in flight, and a read can take twice its size while it is assembled
     * (docs/RELIABILITY.md), so twice the budget is counted too: with the default budget, a quarter of the heap, half
     * the heap goes to reads in flight at worst.
     */
    static void checkMemory(CommandLine commandLine, Store opened, Workload workload, int layoutCount,
            long maxBufferedBytes, long heap) {
        if (opened.persistent()) {
            return;
        }
        double data = (double) workload.approximateBytes() * layoutCount;
        double inFlight = 2.0 * maxBufferedBytes;   // in doubles: a budget near Long.MAX_VALUE must not wrap
        if (data + inFlight > heap * MEMORY_BACKEND_HEAP_SHARE) {
            throw new ParameterException(commandLine, String.format(Locale.ROOT,
                    "--backend mem keeps every layout on the heap: about %.2f GB for %d layouts at %s, and a query"
                            + " holds up to %.2f GB of reads in flight (twice its byte budget of %d MiB), more than"
                            + " %.0f%% of this %.2f GB heap; use --backend file, a smaller --scale or --max-buffered,"
                            + " or a larger heap (LAYOUTBENCH_JAVA_OPTS=-Xmx...)",
                    data / 1e9, layoutCount, workload.scaleLabel(), inFlight / 1e9, maxBufferedBytes >> 20,
                    MEMORY_BACKEND_HEAP_SHARE * 100, heap / 1e9));
        }
    }

    private Path resultsDirectory(Workload workload, Instant startedAt) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT).withZone(ZoneOffset.UTC)
                .format(startedAt);
        return store.dataDir.resolve("results").resolve(stamp + "-" + workload.scaleLabel() + "-"
                + profile.name());
    }

    private Map<String, Object> settings(Workload workload, Instant startedAt, Store opened,
            List<StorageLayout> layouts, List<BenchmarkQuery> queries, Prices prices) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("started_at", startedAt.toString());
        settings.put("scale", workload.scaleLabel());
        settings.put("seed", dataset.seed);
        settings.put("shuffle", dataset.shuffle);
        settings.put("profile", profile.name());
        settings.put("backend", opened.label());
        settings.put("backend_uri", opened.location());
        settings.put("layouts", layouts.stream().map(StorageLayout::name).toList());
        settings.put("modes", modeChoice.modes().stream().map(RetrievalMode::label).toList());
        settings.put("queries", queries.stream().map(BenchmarkQuery::id).toList());
        settings.put("reps", reps);
        settings.put("concurrency", concurrency);
        settings.put("order", order.name().toLowerCase(Locale.ROOT));
        settings.put("objective", objective.name().toLowerCase(Locale.ROOT));
        settings.put("max_read_amplification", Double.isInfinite(readBudget.maxReadAmplification) ? "unlimited"
                : readBudget.maxReadAmplification);
        settings.put("hedging", !noHedging);
        settings.put("max_buffered_bytes", maxBufferedBytes);
        settings.put("latency_jitter", profile.latencyJitter());
        settings.put("prices", Map.of(
                "transfer_usd_per_gb", prices.transferPerGb(),
                "get_usd_per_1000", prices.getPer1000(),
                "put_usd_per_1000", prices.putPer1000(),
                "instance_usd_per_hour", profile.hourlyPriceUsd()));
        settings.put("java", System.getProperty("java.version"));
        settings.put("cpus", Runtime.getRuntime().availableProcessors());
        settings.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        settings.put("heap_kept_grown", GrownHeap.supported());
        return settings;
    }
}
