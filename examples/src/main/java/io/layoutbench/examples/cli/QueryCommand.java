package io.layoutbench.examples.cli;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.cost.CostBreakdown;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prediction;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.RetrievalStats;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.examples.bench.DatasetSource;
import io.layoutbench.examples.bench.DatasetStore;
import io.layoutbench.examples.bench.Progress;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code layoutbench query}: fetches the samples matching a predicate from an ingested dataset, optionally writes
 * them to a directory, and prints what it cost next to what the cost model predicted.
 */
@Command(name = "query",
        mixinStandardHelpOptions = true,
        description = {
            "Fetch the samples matching a SQL predicate from an ingested dataset (the synthetic one of --scale and "
                    + "--seed, or a user's dataset given by --dataset), through the simulated network of "
                    + "--profile, and print samples, time, bytes, requests and cost, measured and predicted.",
            "Columns: the dataset's ('layoutbench describe' lists them; the synthetic ImageNet has filename, label "
                    + "(or human_label), filesize_bytes, width, height). Operators: = <> < <= > >=, IN, LIKE, "
                    + "IS NULL, AND, OR, NOT, + - * /, CAST(x AS DOUBLE).",
            ""},
        footer = {"", "Examples:",
            "  layoutbench query --scale tiny --layout l2 --where \"human_label = 'cello'\"",
            "  layoutbench query --where \"width >= 1024 AND height >= 1024\" --limit 20 --out /tmp/large",
            "  layoutbench query --dataset pets --layout l1 --where \"label LIKE '%%cat'\""})
final class QueryCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    DatasetOptions dataset = new DatasetOptions();

    @Mixin
    StoreOptions store = new StoreOptions();

    @Option(names = "--where", paramLabel = "PREDICATE", required = true,
            description = "SQL predicate over the metadata, e.g. \"human_label IN ('canoe', 'starfish') AND "
                    + "filesize_bytes < 100 * 1024\". May end in LIMIT n.")
    String where;

    @Option(names = "--limit", paramLabel = "N", description = "Return at most N samples (the first in dataset "
            + "order).")
    Long limit;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Write the samples into DIR, as DIR/<filename> (never outside DIR or through a link).")
    Path out;

    @Mixin
    DatasetCopy copy = new DatasetCopy();

    @Mixin
    ReadThrough read = new ReadThrough();

    @Option(names = "--fields", paramLabel = "FIELD", split = ",",
            description = "Payload fields to read, comma-separated (e.g. json,cls). Default: every field.")
    List<String> fields = new ArrayList<>();

    @Mixin
    ReadBudgetOption readBudget;

    @Option(names = "--no-warm-up",
            description = "Measure the first query of this process. By default the query first runs with LIMIT 1 "
                    + "on a client of its own, its time reported apart, so that measured T, like predicted T, "
                    + "leaves out the process's first use of the code (class loading, compilation).")
    boolean noWarmUp;

    @Override
    public Integer call() {
        PrintWriter console = spec.commandLine().getOut();
        if (limit != null && limit < 0) {
            throw new ParameterException(spec.commandLine(), "--limit must be >= 0, got " + limit);
        }
        Query query;
        try {
            query = Query.parse(where);
        } catch (PredicateException e) {
            throw new ParameterException(spec.commandLine(), "Invalid --where: " + e.getMessage());
        }
        if (limit != null) {
            query = query.withLimit(query.limit().isPresent() ? Math.min(limit, query.limit().getAsLong()) : limit);
        }
        StorageLayout layout = copy.layout(spec.commandLine());
        String prefix = prefix(spec, dataset, copy.datasetName, layout, copy.layoutOptions);
        QueryOptions queryOptions = QueryOptions.defaults().withMode(read.mode).withNetwork(read.profile)
                .withMaxReadAmplification(readBudget.value(spec.commandLine()));
        try {
            queryOptions = queryOptions.withFields(fields);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "Invalid --fields: " + e.getMessage());
        }
        CostModel costModel = new CostModel(Prices.s3Standard(), read.profile);

        try (Store opened = store.open(spec.commandLine(), read.profile)) {
            if (!opened.persistent()) {
                throw new ParameterException(spec.commandLine(), "--backend mem holds no datasets between "
                        + "commands; query a file, s3-embedded or s3:// backend");
            }
            try (ObjectBackend client = read.client(opened.backend());
                    Dataset data = open(spec, dataset, copy.datasetName, layout, client, prefix, opened)) {
                try {
                    query.bind(data.schema());
                } catch (PredicateException e) {
                    throw new ParameterException(spec.commandLine(), "Invalid --where: " + e.getMessage());
                }
                try {
                    queryOptions.fieldsOf(data.schema());
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(), "Invalid --fields: " + e.getMessage());
                }
                double warmUpSeconds = noWarmUp ? -1 : warmUp(opened, layout, prefix, query, queryOptions);
                long started = System.nanoTime();
                RetrievalStats stats;
                SampleFiles files = out == null ? null : new SampleFiles(out);
                try (SampleStream samples = data.query(query, queryOptions);
                        Progress progress = ConsoleProgress.factory().start("Query", -1, "samples")) {
                    while (samples.hasNext()) {
                        Sample sample = samples.next();
                        if (files != null) {
                            files.write(sample);
                        }
                        progress.step(1);
                    }
                    stats = samples.stats();
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                RetrievalPlan plan = data.plan(query, queryOptions);
                Prediction predicted = costModel.predict(plan, true, queryOptions);
                report(console, query, layout, prefix, opened, stats, seconds, predicted, costModel, files);
                reportWarmUp(console, warmUpSeconds);
            }
        }
        return 0;
    }

    /**
     * Runs {@code query} with LIMIT 1 from a fresh client of its own and returns its seconds: the process's first use
     * of the code it runs (class loading, static set-up, the interpreter before compilation), which a long-running
     * client pays once and the cost model does not predict. The measured query's client stays cold.
     */
    private double warmUp(Store opened, StorageLayout layout, String prefix, Query query, QueryOptions options) {
        long started = System.nanoTime();
        Query first = query.withLimit(Math.min(1, query.limit().orElse(1)));
        try (ObjectBackend client = read.client(opened.backend());
                Dataset data = layout.open(client, prefix);
                SampleStream samples = data.query(first, options)) {
            samples.forEachRemaining(sample -> { });
        }
        return (System.nanoTime() - started) / 1e9;
    }

    private static void reportWarmUp(PrintWriter console, double seconds) {
        if (seconds >= 0) {
            console.printf(Locale.ROOT, "Warm-up:  %.3f s before T: the same query with LIMIT 1 on a client of its "
                    + "own, this process's first use of the code (not predicted; --no-warm-up to measure it in T)%n",
                    seconds);
        } else {
            console.println("Warm-up:  none (--no-warm-up): measured T includes this process's first use of the "
                    + "code (class loading, compilation), which predicted T does not");
        }
        console.flush();
    }

    /** The prefix of the dataset the options name: the synthetic one of the scale, or {@code --dataset NAME}. */
    static String prefix(CommandSpec spec, DatasetOptions dataset, String datasetName, StorageLayout layout,
            List<String> layoutOptions) {
        Map<String, Map<String, String>> overrides = Layouts.overrides(spec.commandLine(), layoutOptions);
        boolean synthetic = datasetName == null;
        String datasetId = synthetic ? dataset.source().id() : DatasetSource.sanitize(datasetName.strip());
        Map<String, String> options = Layouts.options(layout, synthetic ? dataset.scale() : null, overrides);
        return DatasetStore.prefix(datasetId, layout.name(), options);
    }

    /**
     * Opens the ingested dataset at {@code prefix} through {@code client}.
     *
     * @throws ParameterException naming the ingest command to run if there is none, or the dataset the prefix holds
     */
    static Dataset open(CommandSpec spec, DatasetOptions dataset, String datasetName, StorageLayout layout,
            ObjectBackend client, String prefix, Store opened) {
        boolean synthetic = datasetName == null;
        String datasetId = synthetic ? dataset.source().id() : DatasetSource.sanitize(datasetName.strip());
        String requested = synthetic ? datasetId : datasetName.strip();
        Optional<String> held = new DatasetStore(opened.backend(), opened.label()).datasetName(prefix)
                .filter(name -> !name.equals(requested));
        if (held.isPresent()) {
            throw new ParameterException(spec.commandLine(), "No " + layout.name() + " dataset '" + requested
                    + "' in " + opened.location() + ": its prefix " + prefix + " holds dataset '" + held.get()
                    + "' (in a prefix, characters other than letters, digits, '.', '_' and '-' become '_')");
        }
        try {
            return layout.open(client, prefix);
        } catch (ObjectNotFoundException e) {
            String ingest = synthetic
                    ? "layoutbench ingest --scale " + dataset.scale().scaleName() + " --seed " + dataset.seed
                            + (dataset.shuffle ? " --shuffle" : "") + " --layouts " + layout.name()
                    : "layoutbench ingest --from DIR --name " + datasetId + " --layouts " + layout.name();
            throw new ParameterException(spec.commandLine(), "No " + layout.name() + " dataset '" + datasetId
                    + "' at " + prefix + " in " + opened.location() + "; ingest it first: " + ingest);
        }
    }

    private void report(PrintWriter console, Query query, StorageLayout layout, String prefix, Store opened,
            RetrievalStats stats, double seconds, Prediction predicted, CostModel costModel, SampleFiles files) {
        MetricsSnapshot transfer = stats.transfer();
        long bytes = transfer.bytesReceived() + transfer.bytesSent();
        CostBreakdown cost = costModel.cost(bytes, transfer.getClassRequests(), transfer.putClassRequests(),
                java.time.Duration.ofNanos((long) (seconds * 1e9)));
        console.println("Query:    " + query);
        console.println("Dataset:  " + layout.name() + " at " + prefix + " in " + opened.location() + ", mode "
                + read.mode.label() + ", profile " + read.profile.name() + " (cold client)");
        console.printf(Locale.ROOT, "Samples:  %d (%.3f MB payload)%s%n", stats.samples(),
                stats.payloadBytes() / 1e6, files == null ? "" : ", " + files.written() + " files written to "
                        + files.root() + (files.renamed() == 0 ? "" : " (" + files.renamed() + " under a safe form "
                        + "of a name that was absolute or held '..')"));
        console.printf(Locale.ROOT, "%-10s %14s %14s%n", "", "measured", "predicted");
        console.printf(Locale.ROOT, "%-10s %14.3f %14.3f%n", "T (s)", seconds, predicted.time().toNanos() / 1e9);
        console.printf(Locale.ROOT, "%-10s %14.3f %14.3f%n", "D (MB)", bytes / 1e6, predicted.bytes() / 1e6);
        console.printf(Locale.ROOT, "%-10s %14d %14d%n", "Requests", transfer.totalRequests(),
                predicted.requests());
        console.printf(Locale.ROOT, "%-10s %14.6f %14.6f%n", "C ($)", cost.total(), predicted.cost().total());
        console.printf(Locale.ROOT, "First sample after %.3f s; cost = transfer $%.6f + requests $%.6f + compute "
                + "$%.6f%n", stats.timeToFirstSample().toNanos() / 1e9, cost.transferUsd(), cost.requestUsd(),
                cost.computeUsd());
        console.flush();
    }
}
