package io.layoutbench.fusion.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.backend.simulated.SimulatedNetworkBackend;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A raced view of the FAC store ({@link FacBackend#withRacedReads}) races each block read to its node, below the
 * query's unit cache, and reads a location map from several replicas at once: the same bytes come back, each copy of
 * a block read is counted as a request and a hedged one, and a missing or damaged replica costs time, not the object.
 * The nodes are prefixes of one store behind a simulated t3.medium network, which signals first bytes.
 */
class FacRacedReadsTest {

    private static final String KEY = "objects/blob.bin";
    private static final int UNIT = 16 << 10;

    private final MemoryBackend store = new MemoryBackend();
    private final byte[] object = new byte[600_000];
    private ObjectBackend network;

    @BeforeEach
    void put() {
        new Random(5).nextBytes(object);
        network = SimulatedNetworkBackend.builder(store.withMetrics(RequestMetrics.NONE), NetworkProfiles.T3_MEDIUM)
                .seed(11).build();
        try (FacBackend writer = open()) {
            writer.put(KEY, object);
        }
    }

    @AfterEach
    void close() {
        network.close();
        store.close();
    }

    /** A store over the nine nodes with no manifest cached: a cold client. */
    private FacBackend open() {
        List<ObjectBackend> nodes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nodes.add(PrefixedBackend.of(network, "nodes/node-" + i));
        }
        return FacBackend.create(nodes, FacOptions.builder().checksumUnit(UNIT).build(), false);
    }

    @Test
    void eachBlockReadIsRacedToItsNodeAndItsCopiesAreCountedAsRequestsAndHedgedOnes() {
        ByteRange footer = ByteRange.of(590_000, 2_000);
        int copies = HedgeDelay.racedCopiesAlone(NetworkProfiles.T3_MEDIUM, UNIT);
        assertThat(copies).isGreaterThan(1);
        QueryMetrics metrics = new QueryMetrics();
        try (FacBackend fac = open()) {
            ObjectBackend raced = fac.withMetrics(metrics).withRacedReads(NetworkProfiles.T3_MEDIUM, metrics);

            ByteBuffer read = raced.readRange(KEY, footer);

            assertThat(read).isEqualTo(ByteBuffer.wrap(object, 590_000, 2_000));
        }
        MetricsSnapshot counted = metrics.snapshot();
        // The range lies in one unit of one block: one node read, raced. A copy goes unsent only if another's response
        // started while the copies went out. The location map's copies are the store's own, not counted.
        assertThat(counted.hedgedRequests()).isPositive().isLessThanOrEqualTo(copies - 1);
        assertThat(counted.totalRequests()).isEqualTo(1 + counted.hedgedRequests());
    }

    @Test
    void aBatchViewRacesEveryBlockReadWithTheBatchsCopies() {
        QueryMetrics metrics = new QueryMetrics();
        try (FacBackend fac = open()) {
            FacBackend query = fac.withMetrics(metrics);
            query.readRange(KEY, ByteRange.of(0, 10));   // loads the location map: the batch reads warm
            ObjectBackend batch = query.withRacedReads(NetworkProfiles.T3_MEDIUM, metrics, 2);

            assertThat(batch.readRange(KEY, ByteRange.of(300_000, 120_000)))
                    .isEqualTo(ByteBuffer.wrap(object, 300_000, 120_000));
            assertThatThrownBy(() -> query.withRacedReads(NetworkProfiles.T3_MEDIUM, metrics, 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 2");
        }
        // A second copy of each node read the range needs (the first read, of 10 bytes, was not raced).
        assertThat(metrics.snapshot().hedgedRequests()).isPositive();
        assertThat(metrics.snapshot().totalRequests()).isEqualTo(2 + metrics.snapshot().hedgedRequests());
    }

    @Test
    void aLocationMapIsReadFromTheReplicaThatAnswersFirstAndAMissingOrDamagedOneCostsOnlyTime() {
        Placement placement = new Placement(9);
        int home = placement.home(KEY);
        String mapKey = Placement.manifestKey(KEY);
        PrefixedBackend.of(store, "nodes/node-" + home).delete(mapKey);
        PrefixedBackend.of(store, "nodes/node-" + (home + 1) % 9).put(mapKey, new byte[] {1, 2, 3});

        try (FacBackend fac = open()) {
            QueryMetrics metrics = new QueryMetrics();
            ObjectBackend raced = fac.withMetrics(metrics).withRacedReads(NetworkProfiles.T3_MEDIUM, metrics);

            assertThat(raced.readAll(KEY)).isEqualTo(ByteBuffer.wrap(object));
        }
    }

    @Test
    void withoutJitterOrOverNodesThatDoNotSignalTheViewIsItselfAndEachReadGoesOnce() {
        try (FacBackend fac = open()) {
            FacBackend query = fac.withMetrics(RequestMetrics.NONE);
            assertThat(query.withRacedReads(NetworkProfiles.T3_MEDIUM.withLatencyJitter(0), RequestMetrics.NONE))
                    .isSameAs(query);
            assertThat(query.withRacedReads(NetworkProfiles.NONE, RequestMetrics.NONE)).isSameAs(query);
        }
        List<ObjectBackend> plainNodes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            plainNodes.add(PrefixedBackend.of(store, "nodes/node-" + i));   // memory: no first-byte signal
        }
        QueryMetrics metrics = new QueryMetrics();
        try (FacBackend fac = FacBackend.create(plainNodes, FacOptions.builder().checksumUnit(UNIT).build(), false)) {
            FacBackend query = fac.withMetrics(metrics);
            ObjectBackend raced = query.withRacedReads(NetworkProfiles.T3_MEDIUM, metrics);
            assertThat(raced).as("it cannot race: retrieval hedges its reads late").isSameAs(query);
            assertThat(query.withRacedReads(NetworkProfiles.T3_MEDIUM, metrics, 3)).isSameAs(query);

            assertThat(raced.readRange(KEY, ByteRange.of(10, 100))).isEqualTo(ByteBuffer.wrap(object, 10, 100));
        }
        assertThat(metrics.snapshot().hedgedRequests()).isZero();
        assertThat(metrics.snapshot().totalRequests()).isOne();
    }
}
