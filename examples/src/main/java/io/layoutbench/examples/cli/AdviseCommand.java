package io.layoutbench.examples.cli;

import io.layoutbench.advisor.Advice;
import io.layoutbench.advisor.Advisor;
import io.layoutbench.advisor.Objective;
import io.layoutbench.advisor.Workload;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.SupportsMetadataScan;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.paper.PaperQuery;
import io.layoutbench.examples.advise.AdviceReport;
import io.layoutbench.examples.bench.DatasetSource;
import io.layoutbench.examples.bench.DatasetStore;
import io.layoutbench.examples.bench.LayoutSettings;
import io.layoutbench.examples.bench.Progress;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code layoutbench advise}: ranks layouts and their settings (shard size, coalescing gap, page and row-group
 * size) for a weighted query workload and an objective, by the cost model's predictions on plans synthesized from
 * the dataset's metadata (see {@link Advisor}); nothing is ingested or read.
 */
@Command(name = "advise",
        mixinStandardHelpOptions = true,
        description = {
            "Recommend a layout and its settings for a query workload: rank l1, l2 (shard size, coalescing gap) and "
                    + "l3 (page size, row-group size, gap) by predicted time, dollars or a trade-off, and say why.",
            "Predictions come from the cost model on each query's plan, synthesized from the dataset's metadata "
                    + "exactly as the layouts would plan it; no sample is written or read.",
            ""},
        footer = {"", "Examples:",
            "  layoutbench advise --scale mini",
            "  layoutbench advise --workload Q1=1,Q3=5,Q8=0.5 --objective cost",
            "  layoutbench advise --workload my-queries.tsv --objective tradeoff --usd-per-hour 3 --cold",
            "  layoutbench advise --dataset pets --workload pets-queries.tsv",
            "A workload file has one query per line: weight<TAB>predicate (# starts a comment)."})
final class AdviseCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    DatasetOptions dataset = new DatasetOptions();

    @Mixin
    StoreOptions store = new StoreOptions();

    @Option(names = "--dataset", paramLabel = "NAME",
            description = "A user's dataset, by the --name it was ingested with into l1, l2 or l3: its metadata is "
                    + "read (no sample). Default: the synthetic dataset of --scale (metadata computed, nothing read).")
    String datasetName;

    @Option(names = "--workload", paramLabel = "QUERIES|FILE",
            description = "The paper's queries with weights (Q1=1,Q3=5,Q8=0.5; a query without =weight counts 1), "
                    + "or a file of weight<TAB>predicate lines. Default: Q1..Q11, weight 1 each.")
    String workload;

    @Option(names = "--objective", paramLabel = "OBJECTIVE", defaultValue = "time",
            converter = ObjectiveKindConverter.class,
            description = "What to minimise: time, cost (dollars: transfer, requests and the instance's time) or "
                    + "tradeoff (dollars + --usd-per-hour x hours). Default: ${DEFAULT-VALUE}.")
    Objective.Kind objective;

    @Option(names = "--usd-per-hour", paramLabel = "USD",
            description = "With --objective tradeoff: what an hour of waiting is worth, on top of the instance.")
    Double usdPerHour;

    @Option(names = "--profile", paramLabel = "PROFILE", defaultValue = "t3.medium",
            converter = Converters.ProfileConverter.class,
            description = "Network preset the client runs on: none, t3.medium, c5.large, c8gb.large, t3.large, "
                    + "t3.xlarge, t3.2xlarge. Default: ${DEFAULT-VALUE}.")
    NetworkProfile profile;

    @ArgGroup(exclusive = true)
    RunChoice run = new RunChoice();

    /** {@code --warm} or {@code --cold}. */
    static final class RunChoice {
        @Option(names = "--warm", description = "Price every query on a client with its metadata cached (a "
                + "long-lived client; the default).")
        boolean warm;

        @Option(names = "--cold", description = "Price every query on a fresh client, metadata loads included.")
        boolean cold;
    }

    @Option(names = "--layouts", paramLabel = "LAYOUT", split = ",",
            description = "Layouts to consider, among those that model themselves (l1, l2, l3). Default: all of them.")
    List<String> layoutNames = new ArrayList<>();

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "" + QueryOptions.DEFAULT_MAX_CONCURRENCY,
            description = "Most requests in flight per query: a cap. An optimized query starts with the profile's"
                    + " connection pool (sized to fill its link) and adapts while it runs: more while throughput"
                    + " grows, fewer when the store throttles or latency rises, within its byte budget."
                    + " Default: ${DEFAULT-VALUE}.")
    int concurrency;

    /** The advised job's byte budget: give the job's own when its heap differs from this JVM's. */
    @Mixin
    ByteBudgetOption byteBudget;

    @Option(names = "--transfer-usd-per-gb", paramLabel = "USD", defaultValue = "0.09",
            description = "Price of a GB transferred out of the store (the paper: 0.09; 0 for a client in the "
                    + "same region). Default: ${DEFAULT-VALUE}.")
    double transferPrice;

    @Option(names = "--top", paramLabel = "N", defaultValue = "15",
            description = "Settings shown in the table; 0 shows all. Default: ${DEFAULT-VALUE}.")
    int top;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write every setting's prediction as JSON.")
    Path json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Objective chosen = objective();
        if (concurrency < 1) {
            throw usage("--concurrency must be at least 1, got " + concurrency);
        }
        if (!(transferPrice >= 0) || Double.isInfinite(transferPrice)) {
            throw usage("--transfer-usd-per-gb must be a price >= 0, got " + transferPrice);
        }
        if (top < 0) {
            throw usage("--top must be >= 0, got " + top);
        }
        long maxBufferedBytes = byteBudget.value(spec.commandLine());
        List<String> layouts = layouts();
        // Q2's LIMIT follows the scale; a user's dataset gets mini's, as it gets mini's file sizes.
        ImageNetScale scale = datasetName == null ? dataset.scale() : ImageNetScale.MINI;
        Map<String, String> paper = paperQueries(scale.scaleName());
        Workload queries;
        try {
            queries = workload == null ? Workload.of(paper) : Workload.fromArgument(workload, paper);
        } catch (IllegalArgumentException e) {
            throw usage("Invalid --workload: " + e.getMessage());
        }

        DatasetMetadata data = datasetName == null ? synthetic() : ingested(datasetName.strip());
        if (data.schema().payloadFields().size() != 1) {
            throw usage("The dataset's samples have " + data.schema().payloadFields().size() + " payload fields "
                    + data.schema().payloadFields() + "; the layout models advise plans for samples of one field");
        }
        Advisor.Builder builder = Advisor.builder(data).network(profile)
                .prices(Prices.s3Standard().withTransferPerGb(transferPrice)).concurrency(concurrency)
                .maxBufferedBytes(maxBufferedBytes).layouts(layouts);
        for (String layout : layouts) {
            // The paper's settings for the scale are priced too, paper retrieval included, and marked with a *.
            builder.referenceSettings(layout, LayoutSettings.paperDefaults(layout, scale));
        }
        Advice advice;
        try (ProgressBar progress = new ProgressBar(ConsoleProgress.factory())) {
            advice = builder.progress(progress).build().advise(queries, chosen, run.cold);
        } catch (IllegalArgumentException e) {
            throw usage("Invalid --workload: " + e.getMessage());
        }
        out.print(AdviceReport.text(advice, top));
        if (json != null) {
            AdviceReport.writeJson(advice, json);
            out.println("\nJSON: " + json.toAbsolutePath().normalize());
        }
        out.flush();
        return 0;
    }

    /** The paper's queries, Q2's LIMIT following {@code scale}, by id. */
    static Map<String, String> paperQueries(String scale) {
        Map<String, String> queries = new LinkedHashMap<>();
        for (PaperQuery q : PaperQueries.forScale(scale)) {
            queries.put(q.id(), q.sql());
        }
        return queries;
    }

    /** The synthetic dataset's metadata, computed from the generator without generating a sample's bytes. */
    private DatasetMetadata synthetic() {
        String id = "imagenet-" + dataset.scale().scaleName() + "-seed" + dataset.seed
                + (dataset.shuffle ? "-shuffled" : "");
        return SyntheticImageNet.of(dataset.scale(), dataset.seed, dataset.shuffle).datasetMetadata(id);
    }

    /** The metadata of a user's dataset, from the first layout it was ingested into: no sample is read. */
    private DatasetMetadata ingested(String name) {
        String id = DatasetSource.sanitize(name);
        try (Store opened = store.open(spec.commandLine())) {
            if (!opened.persistent()) {
                throw usage("--backend mem holds no datasets between commands; use a file, s3-embedded or s3:// "
                        + "backend");
            }
            for (String layout : List.of("l2", "l1", "l3")) {
                String prefix = DatasetStore.prefix(id, layout,
                        Layouts.options(StorageLayouts.get(layout), null, Map.of()));
                try (Dataset ingested = StorageLayouts.get(layout).open(opened.backend(), prefix)) {
                    Optional<String> held = new DatasetStore(opened.backend(), opened.label()).datasetName(prefix)
                            .filter(other -> !other.equals(name));
                    if (held.isPresent()) {
                        throw usage("No dataset '" + name + "' in " + opened.location() + ": its prefix " + prefix
                                + " holds dataset '" + held.get() + "' (in a prefix, characters other than letters, "
                                + "digits, '.', '_' and '-' become '_')");
                    }
                    if (ingested instanceof SupportsMetadataScan scan) {
                        return scan.scanMetadata(id);
                    }
                } catch (ObjectNotFoundException e) {
                    // not ingested into this layout; try the next
                } catch (IllegalArgumentException e) {
                    throw usage("Cannot advise on dataset '" + id + "': " + e.getMessage());
                }
            }
            throw usage("No l1, l2 or l3 dataset '" + id + "' in " + opened.location() + "; ingest it first: "
                    + "layoutbench ingest --from DIR --name " + id + " --layouts l2");
        }
    }

    /** The advisor's progress on the console's progress bar: one step per write setting modelled. */
    private static final class ProgressBar implements Advisor.Progress, AutoCloseable {
        private final Progress.Factory factory;
        private Progress bar = Progress.NONE;

        ProgressBar(Progress.Factory factory) {
            this.factory = factory;
        }

        @Override
        public void start(int settings) {
            bar = factory.start("Advise", settings, "settings");
        }

        @Override
        public void modelling(String layout, Map<String, String> options) {
            bar.message("modelling " + layout + (options.isEmpty() ? " (defaults)" : " " + options));
        }

        @Override
        public void done() {
            bar.step(1);
        }

        @Override
        public void close() {
            bar.close();
        }
    }

    private Objective objective() {
        if (objective == Objective.Kind.TRADEOFF) {
            if (usdPerHour == null) {
                throw usage("--objective tradeoff needs --usd-per-hour, what an hour of waiting is worth in dollars");
            }
            if (!(usdPerHour >= 0) || Double.isInfinite(usdPerHour)) {
                throw usage("--usd-per-hour must be a price >= 0, got " + usdPerHour);
            }
            return Objective.tradeoff(usdPerHour);
        }
        if (usdPerHour != null) {
            throw usage("--usd-per-hour only applies to --objective tradeoff");
        }
        return objective == Objective.Kind.COST ? Objective.cost() : Objective.time();
    }

    private List<String> layouts() {
        List<String> modelled = Advisor.modelledLayouts().stream().map(StorageLayout::name).toList();
        if (layoutNames.isEmpty()) {
            return modelled;
        }
        List<String> layouts = new ArrayList<>();
        for (String raw : layoutNames) {
            String name = raw.strip().toLowerCase(Locale.ROOT);
            if (!modelled.contains(name)) {
                throw usage("Unknown layout '" + raw + "' for advise; it models " + String.join(", ", modelled));
            }
            if (!layouts.contains(name)) {
                layouts.add(name);
            }
        }
        return layouts;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** {@code time}, {@code cost} or {@code tradeoff}. */
    static final class ObjectiveKindConverter implements ITypeConverter<Objective.Kind> {
        @Override
        public Objective.Kind convert(String value) {
            for (Objective.Kind kind : Objective.Kind.values()) {
                if (kind.label().equals(value.strip().toLowerCase(Locale.ROOT))) {
                    return kind;
                }
            }
            throw new TypeConversionException("Unknown objective '" + value + "'; known objectives: time, cost, "
                    + "tradeoff");
        }
    }
}
