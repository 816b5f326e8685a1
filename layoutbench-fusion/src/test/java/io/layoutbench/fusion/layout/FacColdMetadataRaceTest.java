package io.layoutbench.fusion.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.dataset.MetadataSchema;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A fac query races its reads below the FAC store's unit cache, as L3's are raced over a plain backend: a cold query's
 * metadata reads each alone, a warm query's small batch of data reads with the batch's copies. The same samples come
 * back as unraced, the copies are counted as hedged requests, and the plan says so.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FacColdMetadataRaceTest {

    private static final Query CELLO = Query.parse("human_label = 'cello'");
    private static final QueryOptions T3 = QueryOptions.defaults().withNetwork(NetworkProfiles.T3_MEDIUM);
    private final MemoryBackend store = new MemoryBackend();

    @BeforeAll
    void ingest() {
        try (DatasetWriter writer = StorageLayouts.get(FacLayout.NAME).create(store, "tiny/fac",
                MetadataSchema.imageNet(), Map.of("file-size", "4MB"))) {
            SyntheticImageNet.of(ImageNetScale.TINY, 42, false).samples().forEach(writer::add);
            writer.commit();
        }
    }

    @AfterAll
    void close() {
        store.close();
    }

    @Test
    void aColdQuerysMetadataReadsAreRacedToTheNodesAndItsSamplesAreThoseOfAnUnracedRun() {
        Cold raced = cold(T3);
        Cold unraced = cold(T3.withHedging(false));

        assertThat(raced.names()).isNotEmpty().containsExactlyElementsOf(unraced.names());
        assertThat(unraced.stats().transfer().hedgedRequests()).isZero();
        assertThat(raced.stats().transfer().hedgedRequests()).isPositive();
        assertThat(raced.stats().transfer().totalRequests()).as("each copy a request")
                .isEqualTo(unraced.stats().transfer().totalRequests() + raced.stats().transfer().hedgedRequests());
    }

    @Test
    void aWarmQuerysDataReadsAreRacedToTheNodesAsABatch() {
        ObjectBackend view = store.withMetrics(RequestMetrics.NONE);
        try (ObjectBackend client = SimulatedNetworkBackend.builder(view, NetworkProfiles.T3_MEDIUM).seed(7).build();
                Dataset dataset = StorageLayouts.get(FacLayout.NAME).open(client, "tiny/fac")) {
            statsOf(dataset.query(CELLO, T3));   // cold: loads the metadata
            RetrievalPlan plan = dataset.plan(CELLO, T3);
            int copies = HedgeDelay.racedCopies(NetworkProfiles.T3_MEDIUM,
                    plan.dataRequests().stream().map(PlannedRequest::bytes).toList(),
                    CostModel.effectiveConcurrency(plan.dataRequests(), T3));
            assertThat(copies).as("a dozen small reads on an idle link").isGreaterThan(1);

            RetrievalStats warm = statsOf(dataset.query(CELLO, T3));

            assertThat(plan.racedReads()).isTrue();
            // Each data read is one node read here (a sample lies in one block), sent as the batch's copies.
            assertThat(warm.transfer().hedgedRequests()).isPositive()
                    .isLessThanOrEqualTo((long) (copies - 1) * plan.dataRequests().size());
            assertThat(warm.transfer().totalRequests())
                    .isEqualTo(plan.dataRequests().size() + warm.transfer().hedgedRequests());
        }
    }

    /** Reads every sample of {@code samples}, and closes it. */
    private static RetrievalStats statsOf(SampleStream samples) {
        try (samples) {
            while (samples.hasNext()) {
                samples.next();
            }
            return samples.stats();
        }
    }

    private record Cold(List<String> names, RetrievalStats stats) {
    }

    /** Runs the cello query on a fresh client through a simulated t3.medium network. */
    private Cold cold(QueryOptions options) {
        ObjectBackend view = store.withMetrics(RequestMetrics.NONE);
        try (ObjectBackend client = SimulatedNetworkBackend.builder(view, NetworkProfiles.T3_MEDIUM).seed(7).build();
                Dataset dataset = StorageLayouts.get(FacLayout.NAME).open(client, "tiny/fac");
                SampleStream samples = dataset.query(CELLO, options)) {
            List<String> names = new ArrayList<>();
            while (samples.hasNext()) {
                names.add(samples.next().filename());
            }
            return new Cold(names, samples.stats());
        }
    }
}
