package io.layoutbench.advisor;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prediction;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RangeCoalescer;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.LayoutModel;
import io.layoutbench.api.model.SupportsModelling;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.Query;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * Ranks layouts and their write and retrieval settings for a dataset and a weighted workload by the cost model's
 * predictions, without writing or reading a sample.
 *
 * <p>How: every layout that models itself ({@link SupportsModelling}; by default every such layout on the class
 * path) names the write settings worth comparing; for each, the advisor builds the layout's {@link LayoutModel} over
 * the dataset's metadata, plans every workload query on it with the layout's own planner, and prices the plan with
 * {@link CostModel#predict}. Retrieval variants per setting: optimized retrieval as {@link QueryOptions#defaults()}
 * runs it (the time break-even gap within the default read budget); where the layout merges ranges
 * ({@link LayoutModel#coalesces()}), also the gaps 0 (touching only), the dollar and time break-evens, 1 MB and
 * 4 MB, each without a read budget, to show the whole trade of bytes for requests; and paper retrieval on the
 * layout's default setting and on every reference setting, where it differs ({@link LayoutModel#distinguishesModes}).
 * Reference settings ({@link Builder#referenceSettings}) are marked in the ranking: the CLI passes the paper's.
 *
 * <p>Scores: each query's T, D, requests and C are predicted warm (metadata cached: a long-lived client) or cold (a
 * fresh client per query), weighted, and summed; the {@link Objective} turns them into the score the ranking sorts
 * by. One layout model is held at a time (at the full ImageNet scale a model holds tens of megabytes).
 *
 * <pre>{@code
 * DatasetMetadata data = DatasetMetadata.withSizesFrom("pets", metadataTable, "filesize_bytes");
 * Advice advice = Advisor.builder(data).network(NetworkProfiles.get("c5.large")).build()
 *         .advise(Workload.of(Map.of("cats", "label = 'cat'")), Objective.cost(), false);
 * System.out.println(advice.best().title());
 * }</pre>
 *
 * <p>Not thread-safe; one advise call at a time.
 */
public final class Advisor {

    /** Coalescing gaps priced beside the break-evens: AWS's suggested range sizes' neighbourhood. */
    static final List<Long> FIXED_GAPS = List.of(1L << 20, 4L << 20);

    private final DatasetMetadata data;
    private final NetworkProfile network;
    private final Prices prices;
    private final int concurrency;
    private final long maxBufferedBytes;
    private final CostModel costModel;
    private final List<StorageLayout> layouts;
    private final Map<String, List<Map<String, String>>> references;
    private final Progress progress;

    private Advisor(Builder builder) {
        this.data = builder.data;
        this.network = builder.network;
        this.prices = builder.prices;
        this.concurrency = builder.concurrency;
        this.maxBufferedBytes = builder.maxBufferedBytes;
        this.costModel = new CostModel(prices, network);
        this.layouts = List.copyOf(builder.layouts != null ? builder.layouts : modelledLayouts());
        this.references = Map.copyOf(builder.references);
        this.progress = builder.progress;
        for (StorageLayout layout : layouts) {
            if (!(layout instanceof SupportsModelling)) {
                throw new IllegalArgumentException("Layout " + layout.name() + " does not model itself (it does not "
                        + "implement SupportsModelling); the advisor ranks " + String.join(", ",
                                modelledLayouts().stream().map(StorageLayout::name).toList()));
            }
        }
    }

    /**
     * An advisor for {@code data}: t3.medium, S3 Standard prices, as many requests in flight as fill the link (at
     * most 1024), every modelled layout.
     */
    public static Builder builder(DatasetMetadata data) {
        return new Builder(data);
    }

    /** The layouts on the class path that model themselves, by name. */
    public static List<StorageLayout> modelledLayouts() {
        List<StorageLayout> found = new ArrayList<>();
        for (String name : StorageLayouts.names()) {
            StorageLayout layout = StorageLayouts.get(name);
            if (layout instanceof SupportsModelling) {
                found.add(layout);
            }
        }
        return found;
    }

    /**
     * Ranks the candidate settings for {@code workload}.
     *
     * @param cold whether each query runs on a fresh client (metadata loads priced into every query)
     * @throws IllegalArgumentException if a query does not fit the dataset's schema, naming it
     */
    public Advice advise(Workload workload, Objective objective, boolean cold) {
        requireNonNull(workload, "workload is null");
        requireNonNull(objective, "objective is null");
        long started = System.nanoTime();
        List<Query> queries = parse(workload);
        List<Setting> settings = settings();
        List<Recommendation> results = new ArrayList<>();
        progress.start(settings.size());
        for (Setting setting : settings) {
            progress.modelling(setting.layout().name(), setting.options());
            // One model at a time: at the full scale a model holds tens of megabytes.
            LayoutModel model = ((SupportsModelling) setting.layout()).model(data, setting.options());
            if (!setting.seen().add(model.options())) {
                progress.done();
                continue;
            }
            for (Variant variant : variants(model, setting)) {
                results.add(evaluate(model, variant, workload, queries, objective, cold));
            }
            progress.done();
        }
        results.sort(Comparator.comparingDouble(Recommendation::score)
                .thenComparingDouble(Recommendation::bytes)
                .thenComparing(Recommendation::layout)
                .thenComparing(Recommendation::settings));
        List<Recommendation> ranked = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            ranked.add(results.get(i).withRank(i + 1));
        }
        ranked = Reasons.explain(ranked, objective, cold);
        return new Advice(data.name(), data.sampleCount(), data.payloadBytes(), workload, objective, network.name(),
                cold, concurrency, maxBufferedBytes, prices, (System.nanoTime() - started) / 1e9, ranked);
    }

    private List<Query> parse(Workload workload) {
        List<Query> parsed = new ArrayList<>();
        for (Workload.WorkloadQuery q : workload.queries()) {
            try {
                Query query = Query.parse(q.sql(), data.schema());
                query.bind(data.schema());
                parsed.add(query);
            } catch (PredicateException e) {
                throw new IllegalArgumentException("Query " + q.id() + " (" + q.sql() + ") does not fit dataset "
                        + data.name() + ": " + e.getMessage(), e);
            }
        }
        return parsed;
    }

    /** A write setting to model: references first, so a candidate equal to one is priced as the reference. */
    private record Setting(StorageLayout layout, Map<String, String> options, boolean reference, boolean defaults,
            Set<Map<String, String>> seen) {
    }

    private List<Setting> settings() {
        List<Setting> settings = new ArrayList<>();
        for (StorageLayout layout : layouts) {
            Set<Map<String, String>> seen = new HashSet<>();
            for (Map<String, String> options : references.getOrDefault(layout.name(), List.of())) {
                settings.add(new Setting(layout, options, true, false, seen));
            }
            List<Map<String, String>> candidates = ((SupportsModelling) layout).candidateSettings(data);
            for (int i = 0; i < candidates.size(); i++) {
                settings.add(new Setting(layout, candidates.get(i), false, i == 0, seen));
            }
        }
        return settings;
    }

    /**
     * How a setting is retrieved: mode, gap, the read budget merging keeps within, and whether it is a reference.
     *
     * @param note what the gap is, for people
     */
    private record Variant(RetrievalMode mode, long gap, String note, boolean reference, double maxReadAmplification) {
    }

    private List<Variant> variants(LayoutModel model, Setting setting) {
        List<Variant> variants = new ArrayList<>();
        QueryOptions defaults = defaultOptions();
        if (!model.distinguishesModes() && !model.coalesces()) {
            variants.add(new Variant(RetrievalMode.OPTIMIZED, 0, "", setting.reference(), Double.POSITIVE_INFINITY));
            return variants;
        }
        if (model.distinguishesModes() && (setting.reference() || setting.defaults())) {
            variants.add(new Variant(RetrievalMode.PAPER, 0, "", setting.reference(), Double.POSITIVE_INFINITY));
        }
        if (model.coalesces()) {
            gaps().forEach((gap, note) -> variants.add(new Variant(RetrievalMode.OPTIMIZED, gap, note, false,
                    Double.POSITIVE_INFINITY)));
        }
        variants.add(new Variant(RetrievalMode.OPTIMIZED, RangeCoalescer.gapFor(defaults),
                " within " + defaults.maxReadAmplification() + "x the bytes needed (the default)", false,
                defaults.maxReadAmplification()));
        return variants;
    }

    private QueryOptions defaultOptions() {
        return QueryOptions.defaults().withNetwork(network).withMaxConcurrency(concurrency)
                .withMaxBufferedBytes(maxBufferedBytes);
    }

    /** The coalescing gaps to try without a read budget, with what each is. */
    Map<Long, String> gaps() {
        QueryOptions options = defaultOptions();
        long forTime = RangeCoalescer.gapFor(options);
        long forCost = RangeCoalescer.gapFor(options.withObjective(QueryOptions.Objective.COST));
        Map<Long, String> gaps = new TreeMap<>();
        gaps.put(0L, " (touching only)");
        for (long fixed : FIXED_GAPS) {
            gaps.put(fixed, "");
        }
        gaps.put(forCost, " (dollar break-even)");
        gaps.put(forTime, forTime == 0 ? " (touching only; time break-even on " + network.name() + ")"
                : " (time break-even on " + network.name() + ")");
        return gaps;
    }

    private Recommendation evaluate(LayoutModel model, Variant variant, Workload workload, List<Query> queries,
            Objective objective, boolean cold) {
        QueryOptions options = defaultOptions().withMode(variant.mode()).withCoalesceGapBytes(variant.gap())
                .withMaxReadAmplification(variant.maxReadAmplification());
        List<QueryOutcome> outcomes = new ArrayList<>();
        Map<String, PlannedRequest> metadata = new LinkedHashMap<>();
        int metadataRounds = 0;
        double seconds = 0;
        double bytes = 0;
        double requests = 0;
        double dollars = 0;
        double score = 0;
        for (int i = 0; i < queries.size(); i++) {
            Workload.WorkloadQuery q = workload.queries().get(i);
            RetrievalPlan plan = model.plan(queries.get(i), options);
            metadataRounds = Math.max(metadataRounds, plan.metadataRounds());
            for (PlannedRequest request : plan.metadataRequests()) {
                metadata.putIfAbsent(request.key() + "@" + request.range().offset() + "+" + request.range().length(),
                        request);
            }
            QueryOutcome outcome = outcome(q.id(), q.weight(), plan, costModel.predict(plan, cold, options),
                    objective);
            outcomes.add(outcome);
            seconds += q.weight() * outcome.seconds();
            bytes += q.weight() * outcome.bytes();
            requests += q.weight() * outcome.requests();
            dollars += q.weight() * outcome.dollars();
            score += q.weight() * outcome.score();
        }
        // The workload's metadata, each read once, in as many round trips as the query that needs most (an
        // approximation: a later query's extra row-group metadata goes in its own rounds).
        RetrievalPlan load = new RetrievalPlan(List.copyOf(metadata.values()), List.of(), 0, 0,
                Math.min(metadata.size(), Math.max(metadata.isEmpty() ? 0 : 1, metadataRounds)));
        QueryOutcome metadataLoad = outcome("load", 1, load, costModel.predict(load, true, options), objective);
        boolean merges = variant.mode() == RetrievalMode.OPTIMIZED && model.coalesces();
        OptionalLong gap = merges ? OptionalLong.of(variant.gap()) : OptionalLong.empty();
        return new Recommendation(0, model.layout(), variant.mode(), model.options(), describe(model, variant), gap,
                variant.maxReadAmplification(), variant.reference(), seconds, bytes, requests, dollars, score,
                metadataLoad, outcomes, List.of());
    }

    /** The setting for people: {@code shard 64MB, gap 375KB (time break-even on t3.medium)}. */
    private static String describe(LayoutModel model, Variant variant) {
        if (!model.distinguishesModes() && !model.coalesces()) {
            return model.settings();
        }
        if (variant.mode() == RetrievalMode.PAPER) {
            return model.settings() + ", paper retrieval";
        }
        if (!model.coalesces()) {
            return model.settings();
        }
        return model.settings() + ", gap " + (variant.gap() == 0 ? "0" : Reasons.bytes(variant.gap())) + variant.note();
    }

    private static QueryOutcome outcome(String id, double weight, RetrievalPlan plan, Prediction prediction,
            Objective objective) {
        double seconds = prediction.time().toNanos() / 1e9;
        double dollars = prediction.cost().total();
        return new QueryOutcome(id, weight, plan.samples(), plan.payloadBytes(), prediction.requests(),
                prediction.bytes(), seconds, dollars, objective.score(seconds, dollars));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "Advisor[%s, %s, %d in flight, layouts %s]", data.name(), network.name(),
                concurrency, layouts.stream().map(StorageLayout::name).toList());
    }

    /** Told how modelling goes, one setting at a time; the CLI draws a progress bar. */
    public interface Progress {
        /** Nothing reported. */
        Progress NONE = new Progress() {
        };

        /** Modelling starts: {@code settings} write settings to model. */
        default void start(int settings) {
        }

        /** Setting {@code options} of {@code layout} is being modelled and priced. */
        default void modelling(String layout, Map<String, String> options) {
        }

        /** The setting announced last is done. */
        default void done() {
        }
    }

    /** Configures an {@link Advisor}; not thread-safe. */
    public static final class Builder {
        private final DatasetMetadata data;
        private NetworkProfile network = NetworkProfiles.T3_MEDIUM;
        private Prices prices = Prices.s3Standard();
        private int concurrency = QueryOptions.DEFAULT_MAX_CONCURRENCY;
        private long maxBufferedBytes = QueryOptions.defaultMaxBufferedBytes();
        private List<StorageLayout> layouts;
        private final Map<String, List<Map<String, String>>> references = new LinkedHashMap<>();
        private Progress progress = Progress.NONE;

        private Builder(DatasetMetadata data) {
            this.data = requireNonNull(data, "data is null");
        }

        /** The client's network: latency, bandwidth and hourly price (default t3.medium). */
        public Builder network(NetworkProfile network) {
            this.network = requireNonNull(network, "network is null");
            return this;
        }

        /** Transfer and request prices (default S3 Standard, $0.09/GB transfer as the paper charges). */
        public Builder prices(Prices prices) {
            this.prices = requireNonNull(prices, "prices is null");
            return this;
        }

        /** Most requests in flight per query (default 1024; a query runs as many as fill its link). */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /**
         * Each query's byte budget (default {@link QueryOptions#defaultMaxBufferedBytes()}, which follows this JVM's
         * heap): give the budget of the job being advised, as it bounds the reads in flight on a fast link.
         */
        public Builder maxBufferedBytes(long maxBufferedBytes) {
            if (maxBufferedBytes < 1) {
                throw new IllegalArgumentException("maxBufferedBytes must be positive, got " + maxBufferedBytes);
            }
            this.maxBufferedBytes = maxBufferedBytes;
            return this;
        }

        /** The layouts to rank, by name (default: every layout on the class path that models itself). */
        public Builder layouts(List<String> names) {
            List<StorageLayout> chosen = new ArrayList<>();
            for (String name : names) {
                chosen.add(StorageLayouts.get(name));
            }
            this.layouts = chosen;
            return this;
        }

        /**
         * Also models {@code options} of {@code layout}, prices paper retrieval on it, and marks it in the ranking as
         * a reference (the CLI passes the LayoutBench paper's settings for the dataset's scale).
         */
        public Builder referenceSettings(String layout, Map<String, String> options) {
            references.computeIfAbsent(requireNonNull(layout, "layout is null"), k -> new ArrayList<>())
                    .add(Map.copyOf(requireNonNull(options, "options is null")));
            return this;
        }

        /** Where progress goes (default nowhere). */
        public Builder progress(Progress progress) {
            this.progress = requireNonNull(progress, "progress is null");
            return this;
        }

        public Advisor build() {
            return new Advisor(this);
        }
    }
}
