package io.layoutbench.fusion.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.RetrievalStats;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.metrics.RequestMetrics;
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
 * A cold fac query races its metadata reads below the FAC store's unit cache, as L3's are raced over a plain backend:
 * the same samples come back as unraced, the copies are counted as hedged requests, and the plan says so (metadata
 * raced, data reads hedged late).
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
    void thePlanRacesTheMetadataReadsAndHedgesTheDataReadsLate() {
        try (Dataset dataset = StorageLayouts.get(FacLayout.NAME).open(store, "tiny/fac")) {
            RetrievalPlan plan = dataset.plan(CELLO, T3);

            assertThat(plan.metadataRequests()).isNotEmpty();
            assertThat(plan.racedMetadataReads()).isTrue();
            assertThat(plan.racedReads()).isFalse();
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
