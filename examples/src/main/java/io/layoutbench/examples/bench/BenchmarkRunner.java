package io.layoutbench.examples.bench;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.cost.CostBreakdown;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prediction;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.RetrievalStats;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.simulated.SimulatedNetworkBackend;
import io.layoutbench.evaluation.BenchmarkQuery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a benchmark workload (the paper's Q1-Q11 on the synthetic ImageNet, or the speech queries on the synthetic
 * speech corpus) on datasets already ingested: for every repetition, layout, mode and query, a cold
 * run on a fresh client (a new {@link Dataset} on a new simulated network: empty metadata caches, no open
 * connections) and then a warm run of the same query on the same client. Each run is measured (time, bytes,
 * requests, cost, peak heap) and predicted by the {@link CostModel} from the query's plan.
 *
 * <p>Every run starts from a full collection, with the heap kept at the size earlier runs grew it to
 * ({@link GrownHeap}), as a long-running loader's is.
 *
 * <p>With a network profile other than {@code none}, every client reads through its own
 * {@link SimulatedNetworkBackend}, so the measured time is that of the modelled network; its latency jitter is
 * seeded with the repetition number, so runs repeat exactly and repetitions differ.
 *
 * <pre>{@code
 * BenchmarkRunner runner = new BenchmarkRunner(config);
 * List<RunRow> rows = runner.run(backend, Map.of("l2", "imagenet-mini-seed42/l2.shard-size=64MB"),
 *         Progress.Factory.NONE);
 * }</pre>
 */
public final class BenchmarkRunner {

    /**
     * What to run.
     *
     * @param scale          dataset scale, for the reports
     * @param backendLabel   how reports name the backend
     * @param layouts        layouts, in report order
     * @param modes          retrieval modes
     * @param queries        the queries (the paper's, or the speech queries)
     * @param profile        the network every client sits on
     * @param prices         storage prices
     * @param reps           repetitions, at least 1
     * @param maxConcurrency requests in flight per query
     * @param order          the order samples are handed out in (dataset order is deterministic; completion order
     *                       keeps one slow read from holding up the rest)
     * @param objective      what optimized retrieval minimises (time or dollars), which sets its coalescing gap
     * @param maxReadAmplification optimized retrieval's read budget ({@link QueryOptions#maxReadAmplification()})
     * @param hedging        whether optimized retrieval hedges slow reads ({@link QueryOptions#hedging()})
     * @param maxBufferedBytes a query's byte budget ({@link QueryOptions#maxBufferedBytes()})
     */
    public record Config(String scale, String backendLabel, List<StorageLayout> layouts, List<RetrievalMode> modes,
            List<? extends BenchmarkQuery> queries, NetworkProfile profile, Prices prices, int reps,
            int maxConcurrency, ResultOrder order, QueryOptions.Objective objective, double maxReadAmplification,
            boolean hedging, long maxBufferedBytes) {

        /** A configuration that minimises time, hedging slow reads. */
        public Config(String scale, String backendLabel, List<StorageLayout> layouts, List<RetrievalMode> modes,
                List<? extends BenchmarkQuery> queries, NetworkProfile profile, Prices prices, int reps,
                int maxConcurrency, ResultOrder order) {
            this(scale, backendLabel, layouts, modes, queries, profile, prices, reps, maxConcurrency, order,
                    QueryOptions.Objective.TIME, QueryOptions.DEFAULT_MAX_READ_AMPLIFICATION, true,
                    QueryOptions.defaultMaxBufferedBytes());
        }

        public Config {
            requireNonNull(scale, "scale is null");
            requireNonNull(backendLabel, "backendLabel is null");
            layouts = List.copyOf(layouts);
            modes = List.copyOf(modes);
            queries = List.copyOf(queries);
            requireNonNull(profile, "profile is null");
            requireNonNull(prices, "prices is null");
            if (reps < 1) {
                throw new IllegalArgumentException("reps must be >= 1, got " + reps);
            }
            if (maxConcurrency < 1) {
                throw new IllegalArgumentException("maxConcurrency must be >= 1, got " + maxConcurrency);
            }
            requireNonNull(order, "order is null");
            requireNonNull(objective, "objective is null");
            QueryOptions.defaults().withMaxReadAmplification(maxReadAmplification)   // checks them
                    .withMaxBufferedBytes(maxBufferedBytes);
        }

        /** Number of runs: two (cold and warm) per repetition, layout, mode and query. */
        public long runCount() {
            return 2L * reps * layouts.size() * modes.size() * queries.size();
        }
    }

    private final Config config;
    private final CostModel costModel;

    public BenchmarkRunner(Config config) {
        this.config = requireNonNull(config, "config is null");
        this.costModel = new CostModel(config.prices(), config.profile());
    }

    public CostModel costModel() {
        return costModel;
    }

    /**
     * Runs every query on every layout.
     *
     * @param backend  where the datasets are; not closed
     * @param prefixes each layout's dataset prefix, by layout name
     */
    public List<RunRow> run(ObjectBackend backend, Map<String, String> prefixes, Progress.Factory progress) {
        for (StorageLayout layout : config.layouts()) {
            if (!prefixes.containsKey(layout.name())) {
                throw new IllegalArgumentException("No dataset prefix for layout " + layout.name());
            }
        }
        List<RunRow> rows = new ArrayList<>();
        // Each run starts with a full collection (measure): kept from shrinking the heap, so no run pays for
        // growing it back (GrownHeap says why).
        try (GrownHeap heap = GrownHeap.hold();
                Progress bar = progress.start("Queries", config.runCount(), "runs")) {
            bar.message("JVM warm-up");
            warmUp(backend, prefixes);
            for (int rep = 1; rep <= config.reps(); rep++) {
                for (StorageLayout layout : config.layouts()) {
                    String prefix = prefixes.get(layout.name());
                    for (RetrievalMode mode : config.modes()) {
                        for (BenchmarkQuery query : config.queries()) {
                            bar.message(layout.name() + " " + mode.label() + " " + query.id() + " rep " + rep);
                            rows.addAll(runPair(backend, layout, prefix, mode, query, rep));
                            bar.step(2);
                        }
                    }
                }
            }
        }
        return rows;
    }

    /**
     * Runs every query once per layout and mode, unrecorded, with the run's options (the same plans, windows and
     * hedging) but on a client with no network, which takes moments where the network would take as long as a
     * repetition: so that class loading and the JIT compilations of each query's own paths do not land on its first
     * repetition. Then the first query once per layout and mode over the network, for the simulated network's own
     * paths and the racing that needs it. Each measured cold run still starts from a fresh client.
     */
    private void warmUp(ObjectBackend backend, Map<String, String> prefixes) {
        for (StorageLayout layout : config.layouts()) {
            for (RetrievalMode mode : config.modes()) {
                String prefix = prefixes.get(layout.name());
                for (BenchmarkQuery query : config.queries()) {
                    coldThenWarm(backend, layout, prefix, mode, query.parse(), NetworkProfiles.NONE);
                }
                if (!config.queries().isEmpty()) {
                    coldThenWarm(backend, layout, prefix, mode, config.queries().get(0).parse(), config.profile());
                }
            }
        }
    }

    /**
     * Runs {@code query} cold on a fresh client over {@code network}, then warm on the same client, with the run's
     * options; unrecorded.
     */
    private void coldThenWarm(ObjectBackend backend, StorageLayout layout, String prefix, RetrievalMode mode,
            Query query, NetworkProfile network) {
        QueryOptions options = options(mode, config.profile());
        try (ObjectBackend client = client(backend, network, 0); Dataset dataset = layout.open(client, prefix)) {
            drain(dataset, query, options);
            drain(dataset, query, options);
        }
    }

    /** Runs {@code query} and reads every sample it returns, untimed. */
    private static void drain(Dataset dataset, Query query, QueryOptions options) {
        try (SampleStream samples = dataset.query(query, options)) {
            while (samples.hasNext()) {
                consume(samples.next());
            }
        }
    }

    /** The cold run of {@code query} on a fresh client, then the warm run on the same client. */
    List<RunRow> runPair(ObjectBackend backend, StorageLayout layout, String prefix, RetrievalMode mode,
            BenchmarkQuery benchmarkQuery, int rep) {
        Query query = benchmarkQuery.parse();
        QueryOptions options = options(mode, config.profile());
        // Each run draws its own latencies: with one seed for all, every query's first requests would get the same
        // draws, and a layout's total over the workload would carry one sample's luck eleven times.
        long seed = java.util.Objects.hash(layout.name(), mode.name(), benchmarkQuery.id(), rep);
        try (ObjectBackend client = client(backend, config.profile(), seed);
                Dataset dataset = layout.open(client, prefix)) {
            Measured cold = measure(dataset, query, options);
            // Planned after the cold run so that planning (which loads metadata) does not warm the cold client.
            RetrievalPlan plan = dataset.plan(query, options);
            Measured warm = measure(dataset, query, options);
            NetworkProfile profile = config.profile();
            return List.of(
                    row(layout, mode, benchmarkQuery, RunRow.COLD, rep, cold,
                            costModel.predict(plan, true, options), profile.physicalBound(
                                    cold.stats().payloadBytes(), plan.metadataRounds(), coldMetadataBytes(plan))),
                    row(layout, mode, benchmarkQuery, RunRow.WARM, rep, warm,
                            costModel.predict(plan, false, options),
                            profile.physicalBound(warm.stats().payloadBytes())));
        }
    }

    /** The run's query options, over {@code network}. */
    private QueryOptions options(RetrievalMode mode, NetworkProfile network) {
        return QueryOptions.defaults()
                .withMode(mode)
                .withNetwork(network)
                .withMaxConcurrency(config.maxConcurrency())
                .withOrder(config.order())
                .withObjective(config.objective())
                .withMaxReadAmplification(config.maxReadAmplification())
                .withHedging(config.hedging())
                .withMaxBufferedBytes(config.maxBufferedBytes());
    }

    /** The bytes of {@code plan}'s metadata reads that cross the link on a cold run (not shared with another). */
    private static long coldMetadataBytes(RetrievalPlan plan) {
        return plan.metadataRequests().stream().filter(request -> request.roundTrip(true))
                .mapToLong(PlannedRequest::bytes).sum();
    }

    /** A fresh client: its own {@code network} (no open connections, full burst credit) over the shared store. */
    private static ObjectBackend client(ObjectBackend backend, NetworkProfile network, long seed) {
        // A metrics view, so that closing the client leaves the shared store open.
        ObjectBackend view = backend.withMetrics(RequestMetrics.NONE);
        if (network.isUnlimited()) {
            return view;
        }
        return SimulatedNetworkBackend.builder(view, network).seed(seed).build();
    }

    private record Measured(RetrievalStats stats, Duration time, MemoryPeaks memory) {
    }

    private static Measured measure(Dataset dataset, Query query, QueryOptions options) {
        // Start every run from the live set, so that its peak heap is not the previous run's garbage. Within run()
        // the heap keeps its size through this collection (GrownHeap).
        System.gc();
        try (MemorySampler.Measurement memory = MemorySampler.start()) {
            long start = System.nanoTime();
            RetrievalStats stats;
            long consumed = 0;
            try (SampleStream samples = dataset.query(query, options)) {
                while (samples.hasNext()) {
                    consumed += consume(samples.next());
                }
                stats = samples.stats();
            }
            Duration time = Duration.ofNanos(System.nanoTime() - start);
            if (consumed != stats.payloadBytes()) {
                throw new IllegalStateException("Query " + query + " handed out " + consumed
                        + " payload bytes but reported " + stats.payloadBytes());
            }
            return new Measured(stats, time, memory.peaks());
        }
    }

    /** Reads every payload field of {@code sample} whole, as a loader would; returns the bytes read. */
    private static long consume(Sample sample) {
        long bytes = 0;
        for (Blob field : sample.fields().values()) {
            bytes += field.readAll().remaining();
        }
        return bytes;
    }

    private RunRow row(StorageLayout layout, RetrievalMode mode, BenchmarkQuery query, String run, int rep,
            Measured measured, Prediction predicted, Duration bound) {
        MetricsSnapshot transfer = measured.stats().transfer();
        long bytes = transfer.bytesReceived() + transfer.bytesSent();
        CostBreakdown cost = costModel.cost(bytes, transfer.getClassRequests(), transfer.putClassRequests(),
                measured.time());
        return new RunRow(layout.name(), mode.label(), query.id(), query.sql(), config.scale(),
                config.profile().name(), config.backendLabel(), run, rep, measured.stats().samples(),
                measured.stats().payloadBytes(), bytes, transfer.totalRequests(), transfer.getClassRequests(),
                transfer.putClassRequests(), transfer.hedgedRequests(), DatasetStore.seconds(measured.time()),
                DatasetStore.seconds(measured.stats().timeToFirstSample()), cost.transferUsd(), cost.requestUsd(),
                cost.computeUsd(), cost.total(), DatasetStore.seconds(predicted.time()), predicted.bytes(),
                predicted.requests(), predicted.cost().total(),
                DatasetStore.seconds(bound),
                measured.memory().heapBytes(),
                measured.memory().directBytes(), measured.memory().mappedBytes(), measured.memory().residentBytes());
    }
}
