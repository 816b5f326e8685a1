package io.layoutbench.layouts.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.RetrievalStats;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.backend.simulated.SimulatedNetworkBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A cold query through a backend that signals first bytes races its metadata reads ({@link RacedReads}): the same
 * samples come back as unraced, and the copies are counted as hedged requests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ColdMetadataRaceTest {

    private static final Query CELLO = Query.parse("human_label = 'cello'");
    private static final QueryOptions T3 = QueryOptions.defaults().withNetwork(NetworkProfiles.T3_MEDIUM);
    private final MemoryBackend store = new MemoryBackend();

    @BeforeAll
    void ingest() {
        SyntheticImageNet tiny = SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
        for (String layout : List.of("l1", "l2", "l3")) {
            Map<String, String> options = layout.equals("l3") ? Map.of("file-size", "4MB") : Map.of();
            try (DatasetWriter writer = StorageLayouts.get(layout).create(store, "tiny/" + layout,
                    MetadataSchema.imageNet(), options)) {
                tiny.samples().forEach(writer::add);
                writer.commit();
            }
        }
    }

    @AfterAll
    void close() {
        store.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2", "l3"})
    void aColdQuerysMetadataReadsAreRacedAndItsSamplesAreThoseOfAnUnracedRun(String layout) {
        Cold raced = cold(layout, T3);
        Cold unraced = cold(layout, T3.withHedging(false));

        assertThat(raced.names()).isNotEmpty().containsExactlyElementsOf(unraced.names());
        assertThat(unraced.stats().transfer().hedgedRequests()).isZero();
        assertThat(raced.stats().transfer().hedgedRequests()).isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2", "l3"})
    void aQueryWithoutPayloadSendsOnlyItsMetadataReadsEachAtMostAsOftenAsARaceOfOneSendsIt(String layout) {
        QueryOptions metadataOnly = T3.withoutPayload();
        RetrievalPlan plan;
        try (Dataset dataset = StorageLayouts.get(layout).open(store, "tiny/" + layout)) {
            plan = dataset.plan(CELLO, metadataOnly);
        }
        assertThat(plan.dataRequests()).isEmpty();
        int most = 0;
        for (PlannedRequest read : plan.metadataRequests()) {
            most += HedgeDelay.racedCopiesAlone(NetworkProfiles.T3_MEDIUM, read.bytes());
        }
        assertThat(new CostModel(Prices.s3Standard(), NetworkProfiles.T3_MEDIUM).predict(plan, true, metadataOnly)
                .requests()).as("the cost model prices every copy retrieval may send").isEqualTo(most);

        RetrievalStats stats = cold(layout, metadataOnly).stats();

        // A copy goes unsent only if another copy's response started while the copies went out.
        assertThat(stats.transfer().totalRequests()).isGreaterThan(plan.metadataRequests().size())
                .isLessThanOrEqualTo(most);
        assertThat(stats.transfer().hedgedRequests())
                .isEqualTo(stats.transfer().totalRequests() - plan.metadataRequests().size());
    }

    private record Cold(List<String> names, RetrievalStats stats) {
    }

    /** Runs the cello query on a fresh client through a simulated t3.medium network. */
    private Cold cold(String layout, QueryOptions options) {
        ObjectBackend view = store.withMetrics(RequestMetrics.NONE);
        try (ObjectBackend client = SimulatedNetworkBackend.builder(view, NetworkProfiles.T3_MEDIUM).seed(7).build();
                Dataset dataset = StorageLayouts.get(layout).open(client, "tiny/" + layout);
                SampleStream samples = dataset.query(CELLO, options)) {
            List<String> names = new ArrayList<>();
            while (samples.hasNext()) {
                Sample sample = samples.next();
                names.add(sample.filename());
            }
            return new Cold(names, samples.stats());
        }
    }
}
