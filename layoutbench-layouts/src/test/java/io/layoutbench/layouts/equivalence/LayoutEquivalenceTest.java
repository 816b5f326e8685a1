package io.layoutbench.layouts.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.RetrievalStats;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.paper.PaperQuery;
import io.layoutbench.layouts.common.SampleChecksum;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For Q1-Q11 at tiny scale, every layout on every local backend, in both modes and both result orders, returns the
 * samples the generator says match, with the same bytes (compared by CRC32C and size, in dataset order).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LayoutEquivalenceTest {

    private static final SyntheticImageNet DATA = SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
    /** Small enough that tiny's ~110 MB make several shards and files. */
    private static final Map<String, Map<String, String>> WRITE_OPTIONS = Map.of(
            "l1", Map.of(),
            "l2", Map.of("shard-size", "8MB"),
            "l3", Map.of("file-size", "16MB", "row-group-size", "4MB", "page-size", "256KB"));

    private final List<ObjectBackend> backends = new ArrayList<>();
    private final Map<String, Dataset> datasets = new java.util.TreeMap<>();
    private Path fileRoot;

    @BeforeAll
    void ingestEveryLayoutIntoEveryBackend() throws Exception {
        fileRoot = Files.createTempDirectory("layoutbench-equivalence-");
        backends.add(new MemoryBackend());
        backends.add(new FileBackend(fileRoot));
        for (ObjectBackend backend : backends) {
            for (String name : StorageLayouts.names()) {
                StorageLayout layout = StorageLayouts.get(name);
                try (DatasetWriter writer = layout.create(backend, "tiny/" + name, MetadataSchema.imageNet(),
                        WRITE_OPTIONS.getOrDefault(name,
                        Map.of()))) {
                    DATA.samples().forEach(writer::add);
                    writer.commit();
                }
                datasets.put(backend.uri().getScheme() + ":" + name, layout.open(backend, "tiny/" + name));
            }
        }
    }

    @AfterAll
    void close() throws Exception {
        datasets.values().forEach(Dataset::close);
        backends.forEach(ObjectBackend::close);
        try (Stream<Path> files = Files.walk(fileRoot)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String dataset : datasets.keySet()) {
            for (PaperQuery query : PaperQueries.forScale("tiny")) {
                for (RetrievalMode mode : RetrievalMode.values()) {
                    cases.add(Arguments.of(dataset, query, mode));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void returnsExactlyTheMatchingSamplesInDatasetOrder(String datasetName, PaperQuery query, RetrievalMode mode) {
        Dataset dataset = datasets.get(datasetName);
        List<String> expected = expected(query);
        QueryOptions options = QueryOptions.defaults().withMode(mode);

        List<String> actual = new ArrayList<>();
        RetrievalStats stats;
        try (SampleStream samples = dataset.query(query.parse(), options)) {
            samples.forEachRemaining(s -> actual.add(fingerprint(s)));
            stats = samples.stats();
        }

        assertThat(actual).as("%s %s %s", datasetName, query.id(), mode).containsExactlyElementsOf(expected);
        assertThat(stats.samples()).isEqualTo(expected.size());
        RetrievalPlan plan = dataset.plan(query.parse(), options);
        assertThat(plan.samples()).isEqualTo(expected.size());
        assertThat(plan.payloadBytes()).isEqualTo(stats.payloadBytes());
    }

    @ParameterizedTest(name = "{0} {1} {2} completion order")
    @MethodSource("cases")
    void completionOrderReturnsTheSameSet(String datasetName, PaperQuery query, RetrievalMode mode) {
        if (!query.id().equals("Q4") && !query.id().equals("Q8")) {
            return; // the larger results are the interesting ones
        }
        List<String> actual = new ArrayList<>();
        QueryOptions options = QueryOptions.defaults().withMode(mode).withOrder(ResultOrder.COMPLETION);
        try (SampleStream samples = datasets.get(datasetName).query(query.parse(), options)) {
            samples.forEachRemaining(s -> actual.add(fingerprint(s)));
        }
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected(query));
    }

    private static List<String> expected(PaperQuery query) {
        BoundQuery bound = query.bind(MetadataSchema.imageNet());
        long limit = bound.limit().orElse(Long.MAX_VALUE);
        List<String> expected = new ArrayList<>();
        for (long i = 0; i < DATA.size() && expected.size() < limit; i++) {
            if (bound.test(DATA.metadata(i))) {
                expected.add(fingerprint(DATA.sample(i)));
            }
        }
        return expected;
    }

    private static String fingerprint(Sample sample) {
        return sample.filename() + ":" + sample.size() + ":" + Integer.toHexString(SampleChecksum.of(sample.data()));
    }
}
