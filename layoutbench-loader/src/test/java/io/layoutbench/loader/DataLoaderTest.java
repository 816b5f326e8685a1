package io.layoutbench.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultRange;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.predicate.Query;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader's promises, as properties over random world sizes (1-16), ranks, seeds, epochs, shuffles and stop
 * points, on every layout: each epoch the ranks together yield the query's result exactly once; a seed and epoch
 * give one order, another epoch another; a loader resumed from any saved state yields the uninterrupted tail; a
 * rank reads at most 1.1 times its payload, in at most 1.2 times the requests of a single optimized reader of its
 * samples.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DataLoaderTest {

    private static final List<String> QUERIES = List.of("filesize_bytes > 0", "label IN ('class2', 'class7')",
            "filesize_bytes < 20000", "filesize_bytes > 9000 LIMIT 77");

    private LoaderDatasets datasets;

    @BeforeAll
    void write() {
        datasets = new LoaderDatasets();
    }

    @AfterAll
    void close() {
        datasets.close();
    }

    /** A random loader configuration of one case. */
    private record Case(String layout, Query query, int world, long seed, Shuffle shuffle, boolean dropLast,
            int batch, int workers) {
        LoaderSettings settings(int rank) {
            return LoaderSettings.defaults().withRank(rank, world).withSeed(seed).withShuffle(shuffle)
                    .withDropLast(dropLast).withBatchSize(batch).withWorkers(workers);
        }
    }

    private static Case randomCase(Random random) {
        String layout = LoaderDatasets.LAYOUTS.get(random.nextInt(LoaderDatasets.LAYOUTS.size()));
        Query query = Query.parse(QUERIES.get(random.nextInt(QUERIES.size())));
        Shuffle shuffle = switch (random.nextInt(5)) {
            case 0 -> Shuffle.none();
            case 1 -> Shuffle.blocks(0, 0);
            case 2 -> Shuffle.blocks(64 << 10, 1 + random.nextInt(40));
            case 3 -> Shuffle.blocks(random.nextInt(300_000), random.nextInt(50)).withStickyShares(true);
            default -> Shuffle.blocks(random.nextInt(600_000), random.nextInt(100));
        };
        return new Case(layout, query, 1 + random.nextInt(16), random.nextLong(), shuffle, random.nextBoolean(),
                1 + random.nextInt(20), 1 + random.nextInt(4));
    }

    private DataLoader loader(Case c, int rank) {
        return DataLoader.open(datasets.get(c.layout()), c.query(), QueryOptions.defaults(), c.settings(rank));
    }

    private static List<String> names(Epoch epoch, long stopAfter) {
        List<String> names = new ArrayList<>();
        while (epoch.hasNext() && names.size() < stopAfter) {
            epoch.next().forEach(s -> names.add(s.filename()));
        }
        return names;
    }

    private List<String> result(Case c) {
        List<String> names = new ArrayList<>();
        try (var samples = datasets.get(c.layout()).query(c.query(), QueryOptions.defaults())) {
            samples.forEachRemaining(s -> names.add(s.filename()));
        }
        return names;
    }

    @Test
    void everyEpochTheRanksYieldTheResultExactlyOnceWithEqualSharesUnderDropLast() {
        Random random = new Random(1);
        for (int trial = 0; trial < 60; trial++) {
            Case c = randomCase(random);
            List<String> result = result(c);
            int epoch = random.nextInt(5);
            List<String> union = new ArrayList<>();
            List<Integer> sizes = new ArrayList<>();
            for (int rank = 0; rank < c.world(); rank++) {
                DataLoader loader = loader(c, rank);
                try (Epoch e = loader.epoch(epoch)) {
                    List<String> mine = names(e, Long.MAX_VALUE);
                    assertThat(mine).as(c + " rank " + rank).hasSize((int) loader.samplesPerEpoch());
                    union.addAll(mine);
                    sizes.add(mine.size());
                }
            }
            assertThat(new HashSet<>(union)).as(c + ": no sample twice").hasSize(union.size());
            int dropped = c.dropLast() ? result.size() % c.world() : 0;
            assertThat(union).as(c.toString()).hasSize(result.size() - dropped);
            assertThat(result).as(c.toString()).containsAll(union);
            if (c.dropLast()) {
                assertThat(new HashSet<>(sizes)).as(c + ": equal shares").hasSize(1);
            } else {
                assertThat(sizes.stream().mapToInt(Integer::intValue).max().orElse(0)
                        - sizes.stream().mapToInt(Integer::intValue).min().orElse(0)).as(c.toString())
                        .isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void theDroppedTailIsTheLastSamplesOfTheEpochOrder() {
        Case c = new Case("l2", Query.parse("filesize_bytes > 0"), 7, 5, Shuffle.blocks(64 << 10, 0), true, 8, 2);
        // The epoch's order is the ranks' shares one after another, without a buffer; of a world of 1, all of it.
        Case whole = new Case(c.layout(), c.query(), 1, c.seed(), c.shuffle(), false, 8, 2);
        List<String> order;
        try (Epoch e = loader(whole, 0).epoch(3)) {
            order = names(e, Long.MAX_VALUE);
        }
        List<String> ranks = new ArrayList<>();
        for (int rank = 0; rank < c.world(); rank++) {
            try (Epoch e = loader(c, rank).epoch(3)) {
                ranks.addAll(names(e, Long.MAX_VALUE));
            }
        }
        int used = order.size() - order.size() % c.world();
        assertThat(ranks).isEqualTo(order.subList(0, used));
    }

    @Test
    void aSeedAndEpochGiveOneOrderAndAnotherEpochAnother() {
        Random random = new Random(2);
        for (int trial = 0; trial < 20; trial++) {
            Case c = randomCase(random);
            if (!c.shuffle().enabled()) {
                continue;
            }
            c = new Case(c.layout(), Query.parse("filesize_bytes > 0"), 1 + random.nextInt(3), c.seed(),
                    Shuffle.blocks(32 << 10, 16), c.dropLast(), c.batch(), c.workers());
            int rank = random.nextInt(c.world());
            List<String> first;
            List<String> again;
            List<String> next;
            try (Epoch e = loader(c, rank).epoch(1)) {
                first = names(e, Long.MAX_VALUE);
            }
            try (Epoch e = loader(c, rank).epoch(1)) {
                again = names(e, Long.MAX_VALUE);
            }
            try (Epoch e = loader(c, rank).epoch(2)) {
                next = names(e, Long.MAX_VALUE);
            }
            assertThat(again).as(c.toString()).isEqualTo(first);
            assertThat(next).as(c.toString()).isNotEqualTo(first);
        }
    }

    @Test
    void theOrderDoesNotDependOnTheNetworkConcurrencyOrReadBudgetARankReadsWith() {
        Case c = new Case("l2", Query.parse("filesize_bytes > 0"), 3, 4, Shuffle.blocks(0, 16), false, 10, 2);
        List<String> defaults;
        try (Epoch e = loader(c, 1).epoch(2)) {
            defaults = names(e, Long.MAX_VALUE);
        }
        QueryOptions other = QueryOptions.defaults().withNetwork(io.layoutbench.api.network.NetworkProfiles.NONE)
                .withMaxConcurrency(3).withMaxReadAmplification(Double.POSITIVE_INFINITY);
        DataLoader elsewhere = DataLoader.open(datasets.get("l2"), c.query(), other, c.settings(1));
        try (Epoch e = elsewhere.epoch(2)) {
            assertThat(names(e, Long.MAX_VALUE)).isEqualTo(defaults);
        }
    }

    @Test
    void unshuffledARankReadsARunOfTheResultInDatasetOrder() {
        Case c = new Case("l3", Query.parse("filesize_bytes > 0"), 4, 0, Shuffle.none(), false, 10, 2);
        List<String> result = result(c);
        List<String> all = new ArrayList<>();
        for (int rank = 0; rank < 4; rank++) {
            try (Epoch e = loader(c, rank).epoch(0)) {
                all.addAll(names(e, Long.MAX_VALUE));
            }
        }
        assertThat(all).isEqualTo(result);
    }

    @Test
    void aLoaderResumedFromAnyStateYieldsTheUninterruptedTail() {
        Random random = new Random(3);
        for (int trial = 0; trial < 60; trial++) {
            Case c = randomCase(random);
            int rank = random.nextInt(c.world());
            int epoch = random.nextInt(4);
            DataLoader loader = loader(c, rank);
            List<String> uninterrupted;
            try (Epoch e = loader.epoch(epoch)) {
                uninterrupted = names(e, Long.MAX_VALUE);
            }
            int batches = (int) Math.ceil(uninterrupted.size() / (double) c.batch());
            int stopBatches = batches == 0 ? 0 : random.nextInt(batches + 1);
            LoaderState saved;
            try (Epoch e = loader.epoch(epoch)) {
                for (int b = 0; b < stopBatches; b++) {
                    e.next();
                }
                saved = LoaderState.parse(e.state().toText());
            }
            int stop = (int) saved.position();
            assertThat(stop).isEqualTo(Math.min(uninterrupted.size(), stopBatches * c.batch()));
            // A new process: a new loader built from the state alone, with other workers and batch size.
            LoaderSettings runtime = LoaderSettings.defaults().withWorkers(1 + random.nextInt(4))
                    .withBatchSize(1 + random.nextInt(30));
            DataLoader resumed = DataLoader.forState(datasets.get(c.layout()), saved, QueryOptions.defaults(),
                    runtime);
            try (Epoch e = resumed.resume(saved)) {
                assertThat(names(e, Long.MAX_VALUE)).as(c + " rank " + rank + " stopped at " + stop)
                        .isEqualTo(uninterrupted.subList(stop, uninterrupted.size()));
                int buffer = c.shuffle().enabled() ? c.shuffle().bufferSamples() : 0;
                assertThat(e.stats().reReadSamples()).as(c.toString())
                        .isLessThanOrEqualTo(Math.max(0, buffer));
            }
        }
    }

    @Test
    void anElasticResumeGivesEachRemainingSampleToExactlyOneNewRankInTheEarlierOrder() {
        Random random = new Random(5);
        for (int trial = 0; trial < 30; trial++) {
            Case c = randomCase(random);
            int oldWorld = 1 + random.nextInt(8);
            int newWorld = 1 + random.nextInt(8);
            int epoch = random.nextInt(3);
            Case old = new Case(c.layout(), c.query(), oldWorld, c.seed(), c.shuffle(), c.dropLast(), c.batch(),
                    c.workers());
            // Each earlier rank stops somewhere; the rest of its uninterrupted run is what must still come.
            List<String> expectedRest = new ArrayList<>();
            List<LoaderState> states = new ArrayList<>();
            for (int rank = 0; rank < oldWorld; rank++) {
                DataLoader loader = loader(old, rank);
                List<String> all;
                try (Epoch e = loader.epoch(epoch)) {
                    all = names(e, Long.MAX_VALUE);
                }
                int stop = all.isEmpty() ? 0 : random.nextInt(all.size() + 1);
                try (Epoch e = loader.epoch(epoch)) {
                    while (e.position() < stop) {
                        e.next(stop - (int) e.position());
                    }
                    states.add(LoaderState.parse(e.state().toText()));
                }
                expectedRest.addAll(all.subList(stop, all.size()));
            }
            java.util.Collections.shuffle(states, random);   // in any order
            List<String> newRanks = new ArrayList<>();
            List<Integer> sizes = new ArrayList<>();
            for (int rank = 0; rank < newWorld; rank++) {
                Case now = new Case(c.layout(), c.query(), newWorld, c.seed(), c.shuffle(), c.dropLast(), c.batch(),
                        c.workers());
                DataLoader loader = loader(now, rank);
                List<String> mine = new ArrayList<>();
                LoaderState midway = null;
                try (Epoch e = loader.resumeElastic(states)) {
                    long half = e.size() / 2;
                    while (e.hasNext() && e.position() < half) {
                        e.next((int) (half - e.position())).forEach(s -> mine.add(s.filename()));
                    }
                    midway = LoaderState.parse(e.state().toText());
                }
                assertThat(midway.elastic()).isTrue();
                // A state saved during the elastic epoch resumes it like any other.
                try (Epoch e = loader(now, rank).resume(midway)) {
                    mine.addAll(names(e, Long.MAX_VALUE));
                }
                newRanks.addAll(mine);
                sizes.add(mine.size());
            }
            assertThat(newRanks).as(old + " -> " + newWorld).isEqualTo(expectedRest);
            assertThat(sizes.stream().mapToInt(Integer::intValue).max().orElse(0)
                    - sizes.stream().mapToInt(Integer::intValue).min().orElse(0)).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void anElasticResumeNeedsEveryRanksStateOfOneEpoch() {
        Case c = new Case("l1", Query.parse("filesize_bytes > 0"), 3, 2, Shuffle.defaults(), false, 8, 1);
        List<LoaderState> states = new ArrayList<>();
        for (int rank = 0; rank < 3; rank++) {
            try (Epoch e = loader(c, rank).epoch(1)) {
                e.next();
                states.add(e.state());
            }
        }
        DataLoader two = loader(new Case("l1", c.query(), 2, 2, c.shuffle(), false, 8, 1), 0);
        assertThatThrownBy(() -> two.resumeElastic(states.subList(0, 2))).hasMessageContaining("No state of rank 2");
        assertThatThrownBy(() -> two.resumeElastic(List.of(states.get(0), states.get(0), states.get(1))))
                .hasMessageContaining("Two states of rank 0");
        DataLoader otherSeed = loader(new Case("l1", c.query(), 2, 3, c.shuffle(), false, 8, 1), 0);
        assertThatThrownBy(() -> otherSeed.resumeElastic(states)).hasMessageContaining("seed 2");
    }

    @Test
    void aRankReadsItsOwnBytesInAboutTheRequestsOfOneReaderOfItsSamples() {
        Random random = new Random(4);
        for (int trial = 0; trial < 40; trial++) {
            Case c = randomCase(random);
            // Blocks of several reads, as the defaults make them (8 MiB of 110 KB images; here 1 MB of 24 KB ones).
            Shuffle shuffle = random.nextBoolean() ? Shuffle.none() : Shuffle.blocks(1 << 20, random.nextInt(64));
            c = new Case(c.layout(), c.query(), c.world(), c.seed(), shuffle, c.dropLast(), c.batch(), c.workers());
            int rank = random.nextInt(c.world());
            DataLoader loader = loader(c, rank);
            List<ResultRange> share = loader.share(0);
            LoaderStats stats;
            try (Epoch e = loader.epoch(0)) {
                names(e, Long.MAX_VALUE);
                stats = e.stats();
            }
            if (stats.samples() == 0) {
                assertThat(stats.requests()).isZero();
                continue;
            }
            RetrievalPlan single = loader.prepared().plan(ResultRange.sortedAndJoined(share));
            assertThat(stats.payloadBytes()).isEqualTo(single.payloadBytes());
            assertThat((double) stats.bytesRead()).as(c + " rank " + rank + ": bytes")
                    .isLessThanOrEqualTo(1.1 * stats.payloadBytes() + 200.0 * stats.samples());
            assertThat((double) stats.requests()).as(c + " rank " + rank + ": requests against " + single
                    .dataRequests().size()).isLessThanOrEqualTo(Math.max(single.dataRequests().size() + 2,
                            1.2 * single.dataRequests().size()));
        }
    }

    @Test
    void aCacheServesLaterEpochsWithoutRequests(@TempDir Path cacheDir) {
        Case c = new Case("l2", Query.parse("filesize_bytes > 0"), 1, 9, Shuffle.blocks(64 << 10, 32), false, 16,
                2);
        LoaderSettings settings = c.settings(0).withCache(new CacheSettings(cacheDir, 1L << 30));
        DataLoader loader = DataLoader.open(datasets.get("l2"), c.query(), QueryOptions.defaults(), settings);
        LoaderStats first;
        List<String> firstNames;
        try (Epoch e = loader.epoch(0)) {
            firstNames = names(e, Long.MAX_VALUE);
            first = e.stats();
        }
        assertThat(first.cacheHitRate()).isZero();
        assertThat(first.cacheMisses()).isEqualTo(LoaderDatasets.SAMPLES);
        // A new loader, as a restarted process: the cache is on disk.
        DataLoader again = DataLoader.open(datasets.get("l2"), c.query(), QueryOptions.defaults(), settings);
        try (Epoch e = again.epoch(1)) {
            List<String> secondNames = names(e, Long.MAX_VALUE);
            assertThat(e.stats().cacheHitRate()).isEqualTo(1.0);
            assertThat(e.stats().requests()).isZero();
            assertThat(new HashSet<>(secondNames)).isEqualTo(new HashSet<>(firstNames));
        }
        // The samples come back whole from the cache: same bytes as from the store.
        try (Epoch fromCache = again.epoch(4); Epoch fromStore = loader(c, 0).epoch(4)) {
            while (fromStore.hasNext()) {
                List<Sample> expected = fromStore.next();
                List<Sample> cached = fromCache.next();
                for (int i = 0; i < expected.size(); i++) {
                    assertThat(cached.get(i).metadata()).isEqualTo(expected.get(i).metadata());
                    assertThat(cached.get(i).data()).isEqualTo(expected.get(i).data());
                }
            }
        }
    }

    @Test
    void withStickySharesARankGetsTheSameSamplesEachEpochInAnotherOrderAndItsCacheServesThem(@TempDir Path cache) {
        Shuffle sticky = Shuffle.blocks(64 << 10, 16).withStickyShares(true);
        Case c = new Case("l3", Query.parse("filesize_bytes > 0"), 4, 6, sticky, false, 10, 2);
        LoaderSettings settings = c.settings(2).withCache(new CacheSettings(cache, 1L << 30));
        DataLoader loader = DataLoader.open(datasets.get("l3"), c.query(), QueryOptions.defaults(), settings);
        List<String> first;
        try (Epoch e = loader.epoch(0)) {
            first = names(e, Long.MAX_VALUE);
        }
        try (Epoch e = loader.epoch(1)) {
            List<String> second = names(e, Long.MAX_VALUE);
            assertThat(second).isNotEqualTo(first).containsExactlyInAnyOrderElementsOf(first);
            assertThat(e.stats().cacheHitRate()).isEqualTo(1.0);
            assertThat(e.stats().requests()).isZero();
        }
    }

    @Test
    void aSmallCacheHoldsAtMostItsBytes(@TempDir Path cacheDir) throws java.io.IOException {
        long limit = 2L << 20;
        LoaderSettings settings = LoaderSettings.defaults().withCache(new CacheSettings(cacheDir, limit));
        DataLoader loader = DataLoader.open(datasets.get("l1"), Query.parse("filesize_bytes > 0"),
                QueryOptions.defaults(), settings);
        LoaderStats second;
        try (Epoch e = loader.epoch(0)) {
            names(e, Long.MAX_VALUE);
        }
        try (Epoch e = loader.epoch(1)) {
            names(e, Long.MAX_VALUE);
            second = e.stats();
        }
        assertThat(second.cacheHitRate()).isGreaterThan(0).isLessThan(0.5);
        long held;
        try (var files = java.nio.file.Files.walk(cacheDir)) {
            held = files.filter(p -> p.toString().endsWith(".sample")).mapToLong(p -> p.toFile().length()).sum();
        }
        assertThat(held).isLessThanOrEqualTo(limit);
    }

    @Test
    void decodingWorkersKeepTheOrderAndTheState() {
        Case c = new Case("l3", Query.parse("filesize_bytes > 0"), 2, 3, Shuffle.blocks(64 << 10, 20), false, 7, 1);
        List<String> plain;
        try (Epoch e = loader(c, 1).epoch(0)) {
            plain = names(e, Long.MAX_VALUE);
        }
        for (int workers : List.of(1, 4)) {
            DataLoader loader = DataLoader.open(datasets.get("l3"), c.query(), QueryOptions.defaults(),
                    c.settings(1).withWorkers(workers));
            List<String> decoded = new ArrayList<>();
            try (Epoch e = loader.epoch(0); DecodedBatches<String> batches = e.decoded(Sample::filename)) {
                batches.next();
                batches.next();
                assertThat(e.state().position()).isEqualTo(14);
                assertThat(e.state().position()).isEqualTo(14);
                decoded.addAll(plain.subList(0, 14));
                while (batches.hasNext()) {
                    decoded.addAll(batches.next());
                }
            }
            assertThat(decoded).as(workers + " workers").isEqualTo(plain);
        }
    }

    @Test
    void aDecoderFailureNamesItsCause() {
        DataLoader loader = DataLoader.open(datasets.get("l1"), Query.parse("filesize_bytes > 0"),
                QueryOptions.defaults(), LoaderSettings.defaults());
        try (Epoch e = loader.epoch(0); DecodedBatches<Object> batches = e.decoded(s -> {
            throw new java.io.IOException("not an image: " + s.filename());
        })) {
            assertThatThrownBy(batches::next).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not an image");
        }
    }

    @Test
    void aStateOfAnotherJobIsRefusedNamingTheSetting() {
        Dataset l2 = datasets.get("l2");
        DataLoader loader = DataLoader.open(l2, Query.parse("filesize_bytes > 0"), QueryOptions.defaults(),
                LoaderSettings.defaults().withRank(1, 4).withSeed(7));
        LoaderState state;
        try (Epoch e = loader.epoch(2)) {
            e.next();
            state = e.state();
        }
        DataLoader otherSeed = DataLoader.open(l2, Query.parse("filesize_bytes > 0"), QueryOptions.defaults(),
                LoaderSettings.defaults().withRank(1, 4).withSeed(8));
        assertThatThrownBy(() -> otherSeed.resume(state)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seed 7").hasMessageContaining("has 8");
        DataLoader otherQuery = DataLoader.open(l2, Query.parse("filesize_bytes > 1"), QueryOptions.defaults(),
                LoaderSettings.defaults().withRank(1, 4).withSeed(7));
        assertThatThrownBy(() -> otherQuery.resume(state)).hasMessageContaining("result");
        DataLoader otherWorld = DataLoader.open(l2, Query.parse("filesize_bytes > 0"), QueryOptions.defaults(),
                LoaderSettings.defaults().withRank(1, 2).withSeed(7));
        assertThatThrownBy(() -> otherWorld.resume(state)).hasMessageContaining("world size 4");
        DataLoader paper = DataLoader.open(l2, Query.parse("filesize_bytes > 0"), QueryOptions.defaults()
                .withMode(io.layoutbench.api.layout.RetrievalMode.PAPER), LoaderSettings.defaults().withRank(1, 4)
                .withSeed(7));
        assertThatThrownBy(() -> paper.resume(state)).hasMessageContaining("block boundaries");
    }

    @Test
    void aQueryPreparedForCompletionOrderStillLoadsInTheJobsOrderAndCachesTheRightSamples(@TempDir Path cache)
            throws Exception {
        // Through a simulated network with jitter, reads complete out of order.
        try (Dataset slow = io.layoutbench.api.layout.StorageLayouts.get("l1").open(
                io.layoutbench.backend.simulated.SimulatedNetworkBackend.wrap(datasets.backend(),
                        io.layoutbench.api.network.NetworkProfiles.T3_MEDIUM), "l1")) {
            Query query = Query.parse("filesize_bytes > 0 LIMIT 60");
            LoaderSettings settings = LoaderSettings.defaults().withSeed(3).withBatchSize(7)
                    .withCache(new CacheSettings(cache, 1L << 30));
            List<Sample> inOrder = new ArrayList<>();
            try (Epoch e = DataLoader.open(slow, query, QueryOptions.defaults(), LoaderSettings.defaults()
                    .withSeed(3).withBatchSize(7)).epoch(0)) {
                e.forEachRemaining(inOrder::addAll);
            }
            DataLoader completion = DataLoader.open(slow, query, QueryOptions.defaults()
                    .withOrder(io.layoutbench.api.layout.ResultOrder.COMPLETION), settings);
            for (int epoch = 0; epoch < 2; epoch++) {   // from the store, then from the cache
                List<Sample> loaded = new ArrayList<>();
                try (Epoch e = completion.epoch(0)) {
                    e.forEachRemaining(loaded::addAll);
                }
                assertThat(loaded).hasSameSizeAs(inOrder);
                for (int i = 0; i < loaded.size(); i++) {
                    assertThat(loaded.get(i).filename()).isEqualTo(inOrder.get(i).filename());
                    assertThat(loaded.get(i).data()).isEqualTo(inOrder.get(i).data());
                }
            }
        }
    }

    @Test
    void aBatchThatFailsToDecodeCountsAsHandedOutSoAResumeDoesNotRepeatIt() {
        Case c = new Case("l2", Query.parse("filesize_bytes > 0"), 1, 4, Shuffle.none(), false, 10, 2);
        DataLoader loader = loader(c, 0);
        List<String> names = new ArrayList<>();
        LoaderState state;
        try (Epoch e = loader.epoch(0); DecodedBatches<String> batches = e.decoded(s -> {
            if (s.filename().equals("s0025.bin")) {
                throw new java.io.IOException("cannot decode " + s.filename());
            }
            return s.filename();
        })) {
            for (int b = 0; b < 5; b++) {
                try {
                    names.addAll(batches.next());
                } catch (IllegalStateException failed) {
                    assertThat(failed).hasMessageContaining("s0025.bin");
                }
            }
            state = e.state();
        }
        assertThat(names).hasSize(40);
        assertThat(state.position()).isEqualTo(50);
        try (Epoch e = loader.resume(state)) {
            assertThat(e.next().get(0).filename()).isEqualTo("s0050.bin");
        }
    }

    @Test
    void anEpochWhoseReadFailsSaysSoAndResumesFromItsState() {
        try (io.layoutbench.backend.memory.MemoryBackend backend = new io.layoutbench.backend.memory.MemoryBackend()) {
            try (var writer = io.layoutbench.api.layout.StorageLayouts.get("l1").create(backend, "l1",
                    LoaderDatasets.SCHEMA, java.util.Map.of())) {
                LoaderDatasets.samples().subList(0, 40).forEach(writer::add);
                writer.commit();
            }
            try (Dataset dataset = io.layoutbench.api.layout.StorageLayouts.get("l1").open(backend, "l1")) {
                DataLoader loader = DataLoader.open(dataset, Query.parse("filesize_bytes > 0"),
                        QueryOptions.defaults(), LoaderSettings.defaults().withShuffle(Shuffle.none())
                                .withBatchSize(10));
                String lost = backend.list("l1/").map(io.layoutbench.api.backend.ObjectInfo::key)
                        .filter(k -> k.contains("s0025")).findFirst().orElseThrow();
                backend.delete(lost);   // a lost object: its read fails when the epoch gets there
                try (Epoch e = loader.epoch(0)) {
                    e.next();
                    e.next();
                    assertThatThrownBy(e::next).hasMessageContaining("s0025");
                    assertThatThrownBy(e::hasNext).isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("failed after 20 samples").hasMessageContaining("resume");
                    assertThat(e.state().position()).isEqualTo(20);
                }
            }
        }
    }

    @Test
    void aBufferLargerThanTheShareHoldsOnlyTheShare() {
        DataLoader loader = DataLoader.open(datasets.get("l2"), Query.parse("filesize_bytes > 0 LIMIT 5"),
                QueryOptions.defaults(), LoaderSettings.defaults().withShuffle(Shuffle.blocks(0, 200_000_000)));
        try (Epoch e = loader.epoch(0)) {
            assertThat(names(e, Long.MAX_VALUE)).hasSize(5);
        }
    }

    @Test
    void aStateRoundTripsAsTextAndBadTextIsNamed() {
        LoaderState state = new LoaderState("l2", "x", "l2:x:g1:q :fields data", "label = 'a''b'\nLIMIT 3",
                List.of("jpg", "cls"), -5, 3, 8, 7, Shuffle.blocks(1 << 20, 64).withStickyShares(true), true,
                0xfedcba9876543210L, 1234, List.of(5L, 0L, 77L));
        assertThat(LoaderState.parse(state.toText())).isEqualTo(state);
        assertThat(state.toText().lines().count()).isLessThan(20);
        assertThatThrownBy(() -> LoaderState.parse(state.toText().replace("position=1234", "")))
                .hasMessageContaining("'position'");
        assertThatThrownBy(() -> LoaderState.parse(state.toText().replace("format=1", "format=2")))
                .hasMessageContaining("format 2");
    }

    @Test
    void moreRanksThanSamplesGivesSomeRanksNothingAndDropLastGivesAllNothing() {
        Query three = Query.parse("filesize_bytes > 0 LIMIT 3");
        Set<String> seen = new HashSet<>();
        for (int rank = 0; rank < 16; rank++) {
            DataLoader loader = DataLoader.open(datasets.get("l1"), three, QueryOptions.defaults(),
                    LoaderSettings.defaults().withRank(rank, 16));
            try (Epoch e = loader.epoch(0)) {
                List<String> mine = names(e, Long.MAX_VALUE);
                assertThat(mine).hasSize(rank < 3 ? 1 : 0);
                seen.addAll(mine);
            }
            DataLoader dropping = DataLoader.open(datasets.get("l1"), three, QueryOptions.defaults(),
                    LoaderSettings.defaults().withRank(rank, 16).withDropLast(true));
            assertThat(dropping.samplesPerEpoch()).isZero();
        }
        assertThat(seen).hasSize(3);
    }

    @Test
    void batchesBecomeArrowRecordBatches() {
        DataLoader loader = DataLoader.open(datasets.get("l3"), Query.parse("label = 'class3'"),
                QueryOptions.defaults(), LoaderSettings.defaults().withBatchSize(16));
        try (var allocator = new org.apache.arrow.memory.RootAllocator();
                var root = io.layoutbench.layouts.arrow.ArrowBatches.newRoot(loader.schema(), List.of("data"),
                        allocator);
                Epoch e = loader.epoch(0)) {
            List<Sample> batch = e.next();
            io.layoutbench.layouts.arrow.ArrowBatches.fill(root, batch);
            assertThat(root.getRowCount()).isEqualTo(16);
            assertThat(root.getVector("label").getObject(0).toString()).isEqualTo("class3");
            byte[] first = ((org.apache.arrow.vector.VarBinaryVector) root.getVector("image_bytes")).get(0);
            assertThat(java.nio.ByteBuffer.wrap(first)).isEqualTo(batch.get(0).data());
        }
    }
}
