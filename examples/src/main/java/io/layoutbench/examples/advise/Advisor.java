package io.layoutbench.examples.advise;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prediction;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.examples.bench.DatasetStore;
import io.layoutbench.examples.bench.LayoutSettings;
import io.layoutbench.examples.bench.Progress;
import io.layoutbench.layouts.common.LayoutOptions;
import io.layoutbench.api.layout.RangeCoalescer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * Ranks layouts and their settings for a dataset and a workload by the cost model's predictions, without writing
 * or reading a sample.
 *
 * <p>How: for each candidate setting the advisor builds a model of the layout over the dataset's metadata — L2's
 * tar packing ({@link L2Model}), L3's Parquet pages, row groups and parts ({@link L3Model}), L1's objects and the
 * metadata tables ({@link L1Model}) — plans every workload query on it as the layout's own planner would, and prices
 * the plan with {@link CostModel#predict}. The synthesized plans are the layouts' real plans: request for request
 * for L1 and L2, and for L3 the same requests with byte counts a few bytes off per page (a page header's CRC has a
 * varint length that depends on the image bytes); {@code LayoutModelsMatchLayoutsTest} checks this against ingested
 * datasets.
 *
 * <p>The candidates, for the dataset's scale (a user's dataset gets mini's 64 MB files):
 * <ul>
 *   <li>l1, one setting (nothing to merge, so paper and optimized retrieval are the same);</li>
 *   <li>l2 with shards of 16 MB, 64 MB and 512 MB (and the paper's size): paper retrieval (one ranged GET per
 *       sample) at the paper's shard size, and optimized retrieval with coalescing gaps of 0 (touching ranges),
 *       the break-even gap for dollars (a GET's price in transfer bytes, about 4.3 KB), the break-even gap for time
 *       on the network ({@link RangeCoalescer#gapFor}: first-byte latency x each connection's share of bandwidth,
 *       375 KB on t3.medium), 1 MB and 4 MB, each without a read budget; and the default, the time break-even
 *       gap within 1.1x the bytes needed ({@code QueryOptions.defaults()});</li>
 *   <li>l3 with the paper's file size, row groups of 128 MB (the paper's) and 16 MB, pages of 4 KB (an image per
 *       page), 16 KB, 64 KB, 256 KB and 1 MB (and the paper's): optimized retrieval with the same gaps and the
 *       default, and paper
 *       retrieval (whole row groups) per row-group size.</li>
 * </ul>
 * The fac layout (erasure-coded L3) is not modelled.
 *
 * <p>Scores: each query's T, D, requests and C are predicted warm (metadata cached: a long-lived client) or cold
 * (a fresh client per query), weighted, and summed; the {@link Objective} turns them into the score the ranking
 * sorts by. Cost: at the full scale (1.28 million samples) modelling takes about 20 seconds and runs in a 1 GB
 * heap (one layout model is held at a time); at mini, about a second.
 *
 * <p>Not thread-safe; one advise call at a time.
 */
public final class Advisor {

    /** Layouts the advisor models. */
    public static final List<String> LAYOUTS = List.of("l1", "l2", "l3");

    static final List<Long> SHARD_SIZES = List.of(16L << 20, 64L << 20, 512L << 20);
    static final List<Long> ROW_GROUP_SIZES = List.of(128L << 20, 16L << 20);
    static final List<Long> PAGE_SIZES = List.of(4L << 10, 16L << 10, 64L << 10, 256L << 10, 1L << 20);
    static final List<Long> FIXED_GAPS = List.of(1L << 20, 4L << 20);

    private final DatasetMetadata data;
    private final NetworkProfile network;
    private final Prices prices;
    private final int concurrency;
    private final CostModel costModel;
    private final Progress.Factory progress;

    /**
     * @param data        the dataset
     * @param network     the client's network (latency, bandwidth, hourly price)
     * @param prices      transfer and request prices
     * @param concurrency requests in flight per query
     * @param progress    where to report progress
     */
    public Advisor(DatasetMetadata data, NetworkProfile network, Prices prices, int concurrency,
            Progress.Factory progress) {
        this.data = requireNonNull(data, "data is null");
        this.network = requireNonNull(network, "network is null");
        this.prices = requireNonNull(prices, "prices is null");
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
        }
        this.concurrency = concurrency;
        this.costModel = new CostModel(prices, network);
        this.progress = requireNonNull(progress, "progress is null");
    }

    /**
     * Ranks the candidate settings of {@code layouts} for {@code workload}.
     *
     * @param cold whether each query runs on a fresh client (metadata loads priced into every query)
     * @throws IllegalArgumentException if a layout is not modelled, or a query does not fit the dataset's schema
     */
    public Advice advise(Workload workload, Objective objective, boolean cold, List<String> layouts) {
        requireNonNull(workload, "workload is null");
        requireNonNull(objective, "objective is null");
        long started = System.nanoTime();
        for (String layout : layouts) {
            if (!LAYOUTS.contains(layout)) {
                throw new IllegalArgumentException("The advisor models layouts " + String.join(", ", LAYOUTS)
                        + "; not '" + layout + "'");
            }
        }
        List<BoundQuery> bound = bind(workload);
        List<Selection> matches = bound.stream().map(q -> q.select(data.table())).toList();

        List<Setting> settings = settings(layouts);
        int total = settings.stream().mapToInt(setting -> setting.variants().size()).sum();
        List<Recommendation> results = new ArrayList<>(total);
        try (Progress bar = progress.start("Advise", total, "settings")) {
            for (Setting setting : settings) {
                bar.message("modelling " + setting.layout() + " " + setting.describe());
                // One model at a time: at the full scale a model holds tens of megabytes.
                LayoutModel model = setting.build().get();
                for (Variant variant : setting.variants()) {
                    Candidate candidate = new Candidate(model, variant.mode(), variant.gap(), variant.gapNote(),
                            variant.paperSettings(), variant.maxReadAmplification());
                    results.add(evaluate(candidate, workload, bound, matches, objective, cold));
                    bar.step(1);
                }
            }
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
                cold, concurrency, prices, (System.nanoTime() - started) / 1e9, ranked);
    }

    private List<BoundQuery> bind(Workload workload) {
        List<BoundQuery> bound = new ArrayList<>();
        for (Workload.WorkloadQuery q : workload.queries()) {
            try {
                bound.add(Query.parse(q.sql(), data.schema()).bind(data.schema()));
            } catch (PredicateException e) {
                throw new IllegalArgumentException("Query " + q.id() + " (" + q.sql() + ") does not fit dataset "
                        + data.name() + ": " + e.getMessage(), e);
            }
        }
        return bound;
    }

    /** One setting to price: a layout model, a retrieval mode, and the gap optimized retrieval merges within. */
    record Candidate(LayoutModel model, RetrievalMode mode, long gap, String gapNote, boolean paperSettings,
            double maxReadAmplification) {
        String settings() {
            if (model instanceof L1Model) {
                return model.settings();
            }
            if (mode == RetrievalMode.PAPER) {
                return model.settings() + (model instanceof L3Model ? ", paper retrieval (whole row groups)"
                        : ", paper retrieval (a GET per sample)");
            }
            return model.settings() + ", gap " + (gap == 0 ? "0" : Sizes.human(gap)) + gapNote;
        }
    }

    /**
     * How a layout model retrieves: mode, gap, the read budget merging keeps within, and whether this is the paper's
     * setting. The fixed gaps are priced without a budget, to show the whole trade of bytes for requests; one
     * variant is what {@code QueryOptions.defaults()} does.
     */
    record Variant(RetrievalMode mode, long gap, String gapNote, boolean paperSettings, double maxReadAmplification) {

        Variant(RetrievalMode mode, long gap, String gapNote, boolean paperSettings) {
            this(mode, gap, gapNote, paperSettings, Double.POSITIVE_INFINITY);
        }
    }

    /** A layout written one way, built when needed, and the retrieval variants to price on it. */
    record Setting(String layout, String describe, java.util.function.Supplier<LayoutModel> build,
            List<Variant> variants) {
    }

    /** The settings of {@code layouts} to model, in a stable order. */
    List<Setting> settings(List<String> layouts) {
        ImageNetScale scale = data.scale().orElse(ImageNetScale.MINI);
        Map<Long, String> gaps = gaps();
        List<Setting> settings = new ArrayList<>();
        if (layouts.contains("l1")) {
            settings.add(new Setting("l1", "one object per sample",
                    () -> new L1Model(data, DatasetStore.prefix(data.name(), "l1", Map.of())),
                    List.of(new Variant(RetrievalMode.OPTIMIZED, 0, "", true))));
        }
        if (layouts.contains("l2")) {
            long paperShard = size(LayoutSettings.paperDefaults("l2", scale).get("shard-size"));
            Set<Long> shardSizes = new TreeSet<>(SHARD_SIZES);
            shardSizes.add(paperShard);
            for (long shardSize : shardSizes) {
                List<Variant> variants = new ArrayList<>();
                if (shardSize == paperShard) {
                    variants.add(new Variant(RetrievalMode.PAPER, 0, "", true));
                }
                gaps.forEach((gap, note) -> variants.add(new Variant(RetrievalMode.OPTIMIZED, gap, note, false)));
                variants.add(defaultVariant());
                settings.add(new Setting("l2", "shard " + Sizes.option(shardSize),
                        () -> new L2Model(data, DatasetStore.prefix(data.name(), "l2",
                                Map.of("shard-size", Sizes.option(shardSize))), shardSize), variants));
            }
        }
        if (layouts.contains("l3")) {
            Map<String, String> paper = LayoutSettings.paperDefaults("l3", scale);
            long fileSize = size(paper.get("file-size"));
            long paperRowGroup = size(paper.getOrDefault("row-group-size", "128MB"));
            long paperPage = size(paper.getOrDefault("page-size", "64KB"));
            Set<Long> rowGroups = new LinkedHashSet<>();
            rowGroups.add(paperRowGroup);
            rowGroups.addAll(ROW_GROUP_SIZES);
            Set<Long> pages = new TreeSet<>(PAGE_SIZES);
            pages.add(paperPage);
            for (long rowGroup : rowGroups) {
                for (long page : pages) {
                    Map<String, String> options = new LinkedHashMap<>();
                    options.put("file-size", Sizes.option(fileSize));
                    options.put("page-size", Sizes.option(page));
                    options.put("row-group-size", Sizes.option(rowGroup));
                    List<Variant> variants = new ArrayList<>();
                    if (page == paperPage) {
                        // Paper retrieval reads whole row groups: the page size does not change it.
                        variants.add(new Variant(RetrievalMode.PAPER, 0, "", rowGroup == paperRowGroup));
                    }
                    gaps.forEach((gap, note) -> variants.add(new Variant(RetrievalMode.OPTIMIZED, gap, note,
                            false)));
                    variants.add(defaultVariant());
                    settings.add(new Setting("l3", "page " + Sizes.option(page) + ", row group "
                            + Sizes.option(rowGroup),
                            () -> new L3Model(data, DatasetStore.prefix(data.name(), "l3", options), fileSize,
                                    rowGroup, page), variants));
                }
            }
        }
        return settings;
    }

    /** Optimized retrieval as {@code QueryOptions.defaults()} runs it: the time break-even gap within 1.1x bytes. */
    private Variant defaultVariant() {
        QueryOptions options = QueryOptions.defaults().withNetwork(network).withMaxConcurrency(concurrency);
        return new Variant(RetrievalMode.OPTIMIZED, RangeCoalescer.gapFor(options), " within "
                + options.maxReadAmplification() + "x the bytes needed (the default)", false,
                options.maxReadAmplification());
    }

    /** The coalescing gaps to try, with what each is. */
    Map<Long, String> gaps() {
        QueryOptions options = QueryOptions.defaults().withNetwork(network).withMaxConcurrency(concurrency);
        long forTime = RangeCoalescer.gapFor(options);
        long forCost = RangeCoalescer.gapFor(options.withObjective(QueryOptions.Objective.COST));
        Map<Long, String> gaps = new java.util.TreeMap<>();
        gaps.put(0L, " (touching only)");
        for (long fixed : FIXED_GAPS) {
            gaps.put(fixed, "");
        }
        gaps.put(forCost, " (dollar break-even)");
        gaps.put(forTime, forTime == 0 ? " (touching only; time break-even on " + network.name() + ")"
                : " (time break-even on " + network.name() + ")");
        return gaps;
    }

    private static long size(String text) {
        return LayoutOptions.parseSize("size", text);
    }

    private Recommendation evaluate(Candidate candidate, Workload workload, List<BoundQuery> bound,
            List<Selection> matches, Objective objective, boolean cold) {
        QueryOptions options = QueryOptions.defaults().withMode(candidate.mode()).withNetwork(network)
                .withMaxConcurrency(concurrency).withCoalesceGapBytes(candidate.gap())
                .withMaxReadAmplification(candidate.maxReadAmplification());
        List<QueryOutcome> outcomes = new ArrayList<>();
        Map<String, PlannedRequest> metadata = new LinkedHashMap<>();
        int metadataRounds = 0;
        double seconds = 0;
        double bytes = 0;
        double requests = 0;
        double dollars = 0;
        double score = 0;
        for (int i = 0; i < bound.size(); i++) {
            Workload.WorkloadQuery q = workload.queries().get(i);
            RetrievalPlan plan = candidate.model().plan(bound.get(i), matches.get(i), options);
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
        LayoutModel model = candidate.model();
        OptionalLong gap = candidate.mode() == RetrievalMode.OPTIMIZED && !(model instanceof L1Model)
                ? OptionalLong.of(candidate.gap()) : OptionalLong.empty();
        return new Recommendation(0, model.layout(), candidate.mode(), model.options(), candidate.settings(), gap,
                candidate.maxReadAmplification(), candidate.paperSettings(), seconds, bytes, requests, dollars, score, metadataLoad, outcomes,
                List.of());
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
        return String.format(Locale.ROOT, "Advisor[%s, %s, %d in flight]", data.name(), network.name(),
                concurrency);
    }
}
