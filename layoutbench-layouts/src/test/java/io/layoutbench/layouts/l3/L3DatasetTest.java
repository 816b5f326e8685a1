package io.layoutbench.layouts.l3;

import static io.layoutbench.layouts.l3.L3Fixture.expected;
import static io.layoutbench.layouts.l3.L3Fixture.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.RetrievalStats;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.paper.PaperQuery;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.parquet.FetchOptions;
import io.layoutbench.parquet.ParquetFooter;
import io.layoutbench.parquet.ParquetObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The paper's eleven queries on tiny L3 in both modes: the right samples with the right bytes in dataset order, cold
 * plans that predict what a cold run sends, warm runs that send no metadata reads, and optimized retrieval that
 * reads little more than the payload.
 */
class L3DatasetTest {

    static Stream<Arguments> queriesAndModes() {
        List<Arguments> cases = new ArrayList<>();
        for (PaperQuery query : PaperQueries.forScale("tiny")) {
            for (RetrievalMode mode : RetrievalMode.values()) {
                cases.add(Arguments.of(query, mode));
            }
        }
        return cases.stream();
    }

    static Stream<PaperQuery> queries() {
        return PaperQueries.forScale("tiny").stream();
    }

    private static Dataset open(String prefix) {
        return StorageLayouts.get("l3").open(L3Fixture.backend(), prefix);
    }

    private record Run(List<String> samples, RetrievalStats stats) {
    }

    private static Run run(Dataset dataset, Query query, QueryOptions options) {
        List<String> samples = new ArrayList<>();
        try (SampleStream stream = dataset.query(query, options)) {
            stream.forEachRemaining(s -> samples.add(fingerprint(s)));
            return new Run(samples, stream.stats());
        }
    }

    @Test
    void theFixtureHasSeveralPartsRowGroupsAndPages() {
        try (Dataset dataset = open(L3Fixture.PREFIX)) {
            L3Dataset l3 = (L3Dataset) dataset;
            assertThat(dataset.summary().sampleCount()).isEqualTo(L3Fixture.DATA.size());
            // Planning a full scan loads every footer; count row groups through a plan of paper mode.
            RetrievalPlan plan = dataset.plan(Query.parse("filesize_bytes >= 0"),
                    QueryOptions.defaults().withMode(RetrievalMode.PAPER));
            long parts = plan.dataRequests().stream().map(PlannedRequest::key).distinct().count();
            long rowGroups = plan.dataRequests().size() / 7;   // 7 column chunks per row group
            assertThat(parts).isGreaterThanOrEqualTo(10);
            assertThat(rowGroups).isGreaterThan(2 * parts);
            assertThat(l3.toString()).contains("l3");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("queriesAndModes")
    void returnsTheGeneratorsMatchesInDatasetOrder(PaperQuery query, RetrievalMode mode) {
        List<String> expected = expected(query.parse());
        assertThat(expected).as("tiny has a match for %s", query.id()).isNotEmpty();
        try (Dataset dataset = open(L3Fixture.PREFIX)) {
            QueryOptions options = QueryOptions.defaults().withMode(mode);
            RetrievalPlan plan = dataset.plan(query.parse(), options);
            Run run = run(dataset, query.parse(), options);
            assertThat(run.samples()).as("%s %s", query.id(), mode).containsExactlyElementsOf(expected);
            assertThat(run.stats().samples()).isEqualTo(expected.size());
            assertThat(plan.samples()).isEqualTo(expected.size());
            assertThat(plan.payloadBytes()).isEqualTo(run.stats().payloadBytes());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("queriesAndModes")
    void aColdPlanPredictsTheColdRunAndAWarmRunReadsNoMetadata(PaperQuery query, RetrievalMode mode) {
        QueryOptions options = QueryOptions.defaults().withMode(mode);
        RetrievalPlan plan;
        try (Dataset planner = open(L3Fixture.PREFIX)) {
            plan = planner.plan(query.parse(), options);
        }
        try (Dataset dataset = open(L3Fixture.PREFIX)) {
            RetrievalStats cold = run(dataset, query.parse(), options).stats();
            assertThat((double) cold.transfer().bytesReceived()).as("cold bytes of %s %s", query.id(), mode)
                    .isCloseTo(plan.totalBytes(), within(plan.totalBytes() * 0.02));
            assertThat(cold.transfer().totalRequests()).as("cold requests of %s %s", query.id(), mode)
                    .isEqualTo(plan.totalRequests());
            assertThat(cold.transfer().requests(RequestKind.HEAD)).as("no HEAD: lengths come from the manifest")
                    .isZero();

            RetrievalStats warm = run(dataset, query.parse(), options).stats();
            long dataBytes = plan.dataRequests().stream().mapToLong(PlannedRequest::bytes).sum();
            assertThat(warm.transfer().bytesReceived()).as("warm bytes of %s %s", query.id(), mode)
                    .isEqualTo(dataBytes);
            assertThat(warm.transfer().totalRequests()).isEqualTo(plan.dataRequests().size());
        }
    }

    @Test
    void optimizedModeReadsLittleMoreThanThePayload() {
        System.out.printf("%-4s %8s %10s | %-28s | %-28s | %-28s%n", "", "samples", "payload",
                "paper: bytes/payload (req)", "optimized 256KB pages", "optimized ~1 blob/page");
        for (PaperQuery query : PaperQueries.forScale("tiny")) {
            Measured paper = measure(L3Fixture.PREFIX, query, QueryOptions.defaults().withMode(RetrievalMode.PAPER));
            Measured optimized = measure(L3Fixture.PREFIX, query, QueryOptions.defaults());
            Measured tight = measure(L3Fixture.ONE_BLOB_PREFIX, query,
                    QueryOptions.defaults().withCoalesceGapBytes(0));
            System.out.printf("%-4s %8d %10d | %s | %s | %s%n", query.id(), paper.samples, paper.payload, paper,
                    optimized, tight);

            // Data reads only (the metadata reads are the cold plan's): pages of about one blob, no gap merging.
            assertThat(tight.dataRatio()).as("optimized data bytes / payload for %s", query.id())
                    .isLessThanOrEqualTo(1.1);
            // Including the cold metadata reads (mostly the footers' 64 KiB tails), below paper mode, and far
            // below it where paper mode reads many row groups for few samples.
            assertThat(optimized.totalBytes).isLessThan(paper.totalBytes);
            assertThat(tight.totalBytes).isLessThan(paper.totalBytes);
            if (paper.dataBytes() > 20 * paper.payload) {
                assertThat(tight.dataBytes()).as("selective %s", query.id()).isLessThan(paper.dataBytes() / 10);
            }
        }
    }

    private record Measured(long samples, long payload, long totalBytes, long metadataBytes, long requests) {
        long dataBytes() {
            return totalBytes - metadataBytes;
        }

        double dataRatio() {
            return (double) dataBytes() / payload;
        }

        @Override
        public String toString() {
            return String.format("%6.2fx data %6.2fx all %4d req", dataRatio(), (double) totalBytes / payload,
                    requests);
        }
    }

    private static Measured measure(String prefix, PaperQuery query, QueryOptions options) {
        long metadataBytes;
        try (Dataset planner = open(prefix)) {
            metadataBytes = planner.plan(query.parse(), options).metadataRequests().stream()
                    .mapToLong(PlannedRequest::bytes).sum();
        }
        try (Dataset dataset = open(prefix)) {
            RetrievalStats stats = run(dataset, query.parse(), options).stats();
            return new Measured(stats.samples(), stats.payloadBytes(), stats.transfer().bytesReceived(),
                    metadataBytes, stats.transfer().totalRequests());
        }
    }

    @Test
    void footersAndPageIndexesBeyondTheDefaultTailAreReadInTheOpeningRequest() {
        // Row groups of a sample or two: footers pass the 64 KiB tail, and the page indexes lie before them.
        MemoryBackend backend = new MemoryBackend();
        int samples = 400;
        L3Fixture.write(backend, "many-groups", Map.of(L3Layout.FILE_SIZE, "64MB", L3Layout.ROW_GROUP_SIZE, "256KB",
                L3Layout.PAGE_SIZE, "1KB"), L3Fixture.DATA.samples().limit(samples));
        String firstPart = DatasetManifest.read(backend, "many-groups").objects().get(0).key();
        ParquetFooter footer = ParquetObject.open(backend, firstPart).footer();
        assertThat(footer.footerRange().length()).isGreaterThan(FetchOptions.DEFAULT_TAIL_SIZE);
        ByteRange pageIndexes = footer.pageIndexRange().orElseThrow();

        Query query = Query.parse("width >= 400 AND filesize_bytes < 100 * 1024");
        BoundQuery bound = query.bind(MetadataSchema.imageNet());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            if (bound.test(L3Fixture.DATA.metadata(i))) {
                expected.add(fingerprint(L3Fixture.DATA.metadata(i).getString("filename"),
                        L3Fixture.DATA.sampleBytes(i)));
            }
        }
        assertThat(expected).hasSizeGreaterThan(5);
        for (RetrievalMode mode : RetrievalMode.values()) {
            QueryOptions options = QueryOptions.defaults().withMode(mode);
            RetrievalPlan plan;
            try (Dataset planner = new L3Layout().open(backend, "many-groups")) {
                plan = planner.plan(query, options);
            }
            List<ByteRange> firstPartReads = plan.metadataRequests().stream()
                    .filter(r -> r.key().equals(firstPart)).map(PlannedRequest::range).toList();
            // The manifest says where the page indexes start: one request reads them and the footer (under 1 MiB).
            assertThat(firstPartReads.get(0)).as("page indexes and footer in one request")
                    .isEqualTo(ByteRange.between(pageIndexes.offset(), footer.objectLength()));
            assertThat(firstPartReads.subList(1, firstPartReads.size())).as("then row groups' metadata chunks only")
                    .allMatch(r -> r.end() <= pageIndexes.offset());
            try (Dataset dataset = new L3Layout().open(backend, "many-groups")) {
                Run cold = run(dataset, query, options);
                assertThat(cold.samples()).containsExactlyElementsOf(expected);
                assertThat(cold.stats().transfer().bytesReceived()).isEqualTo(plan.totalBytes());
                assertThat(cold.stats().transfer().totalRequests()).isEqualTo(plan.totalRequests());
                Run warm = run(dataset, query, options);
                assertThat(warm.samples()).containsExactlyElementsOf(expected);
                assertThat(warm.stats().transfer().totalRequests()).isEqualTo(plan.dataRequests().size());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void completionOrderReturnsTheSameSamples(PaperQuery query) {
        try (Dataset dataset = open(L3Fixture.PREFIX)) {
            for (RetrievalMode mode : RetrievalMode.values()) {
                QueryOptions options = QueryOptions.defaults().withMode(mode).withOrder(ResultOrder.COMPLETION)
                        .withMaxConcurrency(3);
                assertThat(run(dataset, query.parse(), options).samples())
                        .containsExactlyInAnyOrderElementsOf(expected(query.parse()));
            }
        }
    }

    @Test
    void limitStopsAtTheFirstMatchesInDatasetOrder() {
        Query everything = Query.parse("filesize_bytes >= 0 LIMIT 3");
        try (Dataset dataset = open(L3Fixture.PREFIX)) {
            for (RetrievalMode mode : RetrievalMode.values()) {
                QueryOptions options = QueryOptions.defaults().withMode(mode);
                Run run = run(dataset, everything, options);
                assertThat(run.samples()).containsExactlyElementsOf(expected(everything));
                RetrievalPlan plan = dataset.plan(everything, options);
                assertThat(plan.dataRequests()).extracting(PlannedRequest::key).containsOnly(
                        plan.dataRequests().get(0).key());   // the first part only
            }
        }
    }

    @Test
    void pruningSkipsRowGroupsByStatistics() {
        // Class order sorts file names (n01440764_..., n01443537_...), so a file-name range lies in few row groups.
        // (Labels are not sorted by class, so label predicates prune little.)
        Query firstClasses = Query.parse("filename < 'n01500000'");
        assertThat(expected(firstClasses)).hasSizeBetween(3, 40);
        try (Dataset dataset = open(L3Fixture.PREFIX)) {
            QueryOptions paper = QueryOptions.defaults().withMode(RetrievalMode.PAPER);
            RetrievalPlan pruned = dataset.plan(firstClasses, paper);
            RetrievalPlan all = dataset.plan(Query.parse("filesize_bytes >= 0"), paper);
            assertThat(pruned.dataRequests().size()).isLessThanOrEqualTo(3 * 7);   // 7 column chunks a row group
            assertThat(all.dataRequests().size()).isGreaterThan(10 * pruned.dataRequests().size());
            RetrievalPlan optimized = dataset.plan(firstClasses, QueryOptions.defaults());
            // Cold: the footers, then the metadata of the few row groups that may match, no more.
            int parts = (int) all.dataRequests().stream().map(PlannedRequest::key).distinct().count();
            assertThat(optimized.metadataRequests().size()).isLessThanOrEqualTo(parts + 3);
        }
        assertThat(run(open(L3Fixture.PREFIX), firstClasses, QueryOptions.defaults()).samples())
                .containsExactlyElementsOf(expected(firstClasses));
    }

    @Test
    void queriesRunConcurrentlyOnOneDataset() throws Exception {
        try (Dataset dataset = open(L3Fixture.PREFIX)) {
            List<java.util.concurrent.CompletableFuture<List<String>>> runs = new ArrayList<>();
            List<PaperQuery> queries = PaperQueries.forScale("tiny");
            for (PaperQuery query : queries) {
                runs.add(java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> run(dataset, query.parse(), QueryOptions.defaults()).samples()));
            }
            for (int i = 0; i < queries.size(); i++) {
                assertThat(runs.get(i).get()).containsExactlyElementsOf(expected(queries.get(i).parse()));
            }
        }
    }

    @Test
    void closeDropsTheCachesAndTheNextQueryIsColdAgain() {
        Query cello = Query.parse("label = 'cello'");
        try (Dataset dataset = open(L3Fixture.PREFIX)) {
            RetrievalStats cold = run(dataset, cello, QueryOptions.defaults()).stats();
            RetrievalStats warm = run(dataset, cello, QueryOptions.defaults()).stats();
            dataset.close();
            RetrievalStats again = run(dataset, cello, QueryOptions.defaults()).stats();
            assertThat(warm.transfer().bytesReceived()).isLessThan(cold.transfer().bytesReceived());
            assertThat(again.transfer().bytesReceived()).isEqualTo(cold.transfer().bytesReceived());
        }
    }
}
