package io.layoutbench.api.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.HostBandwidth;
import io.layoutbench.api.network.NetworkModel;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.api.network.NetworkProfiles;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

class CostModelTest {

    private final CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.T3_MEDIUM);

    @Test
    void costIsTransferPlusRequestsPlusComputeAsThePaperCountsIt() {
        CostBreakdown cost = model.cost(2_000_000_000L, 10_000, 1_000, Duration.ofHours(1));

        assertThat(cost.transferUsd()).isCloseTo(0.18, within(1e-12));
        assertThat(cost.requestUsd()).isCloseTo(0.004 + 0.005, within(1e-12));
        assertThat(cost.computeUsd()).isCloseTo(0.0416, within(1e-12));
        assertThat(cost.paperTotal()).isCloseTo(0.18 + 0.0416, within(1e-12));
        assertThat(Prices.sameRegion().transferDollars(1_000_000_000L)).isZero();
        assertThatThrownBy(() -> Prices.s3Standard().withGetPer1000(-1)).hasMessageContaining("getPer1000");
    }

    @Test
    void bytesAndRequestsArePredictedFromThePlanExactlyAndWarmSkipsMetadata() {
        RetrievalPlan plan = new RetrievalPlan(List.of(get("meta", 65_536), get("meta", 10_000)),
                List.of(get("a", 100_000), get("b", 200_000)), 2, 300_000);

        QueryOptions unhedged = QueryOptions.defaults().withHedging(false);
        Prediction cold = model.predict(plan, true, unhedged);
        Prediction warm = model.predict(plan, false, unhedged);

        assertThat(cold.bytes()).isEqualTo(375_536);
        assertThat(cold.requests()).isEqualTo(4);
        assertThat(warm.bytes()).isEqualTo(300_000);
        assertThat(warm.requests()).isEqualTo(2);
        assertThat(cold.time()).isGreaterThan(warm.time());
        assertThat(cold.cost().total()).isGreaterThan(warm.cost().total());
    }

    @Test
    void hedgedReadsArePredictedFasterAndTheirDuplicatesCounted() {
        List<PlannedRequest> reads = new ArrayList<>();
        for (int i = 0; i < 13; i++) {
            reads.add(get("l1/" + i + ".jpg", 110_000));
        }
        RetrievalPlan plan = new RetrievalPlan(List.of(), reads, 0, 13 * 110_000L);

        Prediction hedged = model.predict(plan, false, QueryOptions.defaults());
        Prediction unhedged = model.predict(plan, false, QueryOptions.defaults().withHedging(false));
        Prediction paper = model.predict(plan, false, QueryOptions.defaults().withMode(RetrievalMode.PAPER));

        assertThat(hedged.time()).isLessThan(unhedged.time());
        // Thirteen small reads on an idle link are raced: every read goes as often as HedgeDelay chooses.
        int copies = HedgeDelay.racedCopies(NetworkProfiles.T3_MEDIUM, Collections.nCopies(13, 110_000L),
                CostModel.effectiveConcurrency(reads, QueryOptions.defaults()));
        assertThat(copies).isGreaterThan(1);
        assertThat(hedged.requests()).isEqualTo(13L * copies);
        // A plan whose reads go through a store that cannot drop a loser early is priced hedged late, as it is read.
        Prediction late = model.predict(plan.withoutRacedReads(), false, QueryOptions.defaults());
        assertThat(late.requests()).isBetween(13L, 13L * copies - 1);
        assertThat(late.time()).isGreaterThan(hedged.time()).isLessThan(unhedged.time());
        assertThat(hedged.bytes()).isGreaterThanOrEqualTo(13 * 110_000L);
        assertThat(unhedged.requests()).isEqualTo(13);
        assertThat(unhedged.bytes()).isEqualTo(13 * 110_000L);
        assertThat(paper.requests()).isEqualTo(13);
        assertThat(paper.time()).isEqualTo(unhedged.time());
    }

    @Test
    void metadataReadsInOneRoundAreFasterThanInSequence() {
        List<PlannedRequest> footers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            footers.add(get("part-" + i, 65_536));
        }
        RetrievalPlan sequential = new RetrievalPlan(footers, List.of(), 0, 0);
        RetrievalPlan parallel = new RetrievalPlan(footers, List.of(), 0, 0, 1);

        Duration oneByOne = model.predict(sequential, true, QueryOptions.defaults()).time();
        Duration together = model.predict(parallel, true, QueryOptions.defaults()).time();

        assertThat(together.toNanos()).isLessThan(oneByOne.toNanos() / 5);
        assertThatThrownBy(() -> new RetrievalPlan(footers, List.of(), 0, 0, 21))
                .hasMessageContaining("metadataRounds");
    }

    @Test
    void aColdRunsMetadataReadsAreRacedWhereThePlansReadsMayBeAndNeverHedgedLate() {
        RetrievalPlan plan = new RetrievalPlan(List.of(get("meta", 65_536), get("meta", 546_000)),
                List.of(get("a", 100_000)), 1, 100_000);
        int footer = HedgeDelay.racedCopiesAlone(NetworkProfiles.T3_MEDIUM, 65_536);
        int table = HedgeDelay.racedCopiesAlone(NetworkProfiles.T3_MEDIUM, 546_000);
        assertThat(footer).isGreaterThan(1);
        assertThat(table).isGreaterThan(1);
        QueryOptions hedged = QueryOptions.defaults();

        Prediction raced = model.predict(plan, true, hedged);
        Prediction warm = model.predict(plan, false, hedged);
        RetrievalPlan metadataOnly = new RetrievalPlan(plan.metadataRequests(), List.of(), 0, 0);
        Prediction late = model.predict(metadataOnly.withoutRacedReads(), true, hedged);
        Prediction unhedged = model.predict(plan, true, hedged.withHedging(false));

        assertThat(raced.requests()).as("each metadata read sent as often as it is raced alone, beside the data's")
                .isEqualTo(warm.requests() + footer + table);
        assertThat(model.predict(metadataOnly, true, hedged).requests()).isEqualTo(footer + table);
        // A metadata table over the bandwidth-delay product goes once, beside its raced footer.
        RetrievalPlan largeTable = new RetrievalPlan(List.of(get("meta", 65_536), get("meta", 40_000_000)),
                List.of(), 0, 0);
        assertThat(model.predict(largeTable, true, hedged).requests()).isEqualTo(footer + 1);
        assertThat(late.requests()).as("metadata reads of a plan that may not race: not hedged late either")
                .isEqualTo(2);
        assertThat(unhedged.requests()).isEqualTo(3);
        assertThat(raced.time()).isLessThan(unhedged.time());
        assertThat(raced.bytes()).as("losers cancelled before their first byte").isEqualTo(warm.bytes() + 611_536);
    }

    /**
     * A request the store answers from an earlier one's bytes (FAC's shared checksum units) waits for no round trip:
     * one in flight at a time, 10 ms each, no jitter. A request shared only with a cold run's metadata reads waits
     * on a warm run. Bytes and requests are the plan's either way.
     */
    @Test
    void sharedRequestsAddNoRoundTripButCountAsTheQuerys() {
        NetworkProfile fixed = new NetworkProfile("fixed", Duration.ofMillis(10), 0, Double.POSITIVE_INFINITY,
                HostBandwidth.sustained(1e15), Duration.ZERO, 1000, 0);
        CostModel latencyOnly = new CostModel(Prices.s3Standard(), fixed).withClientWork(ClientWork.NONE);
        RetrievalPlan plan = new RetrievalPlan(
                List.of(get("footer", 1_000), get("chunk", 100).withSharing(PlannedRequest.Sharing.SHARED)),
                List.of(get("a", 100), get("b", 100).withSharing(PlannedRequest.Sharing.SHARED),
                        get("c", 100).withSharing(PlannedRequest.Sharing.SHARED_WHEN_COLD), get("d", 100)),
                4, 400, 2);
        QueryOptions one = QueryOptions.defaults().withNetwork(fixed).withMaxConcurrency(1);

        Prediction cold = latencyOnly.predict(plan, true, one);
        Prediction warm = latencyOnly.predict(plan, false, one);

        assertThat(cold.time()).as("one metadata round trip, two of data").isEqualTo(Duration.ofMillis(30));
        assertThat(warm.time()).as("three of data: c waits when the metadata reads did not bring it")
                .isEqualTo(Duration.ofMillis(30));
        assertThat(latencyOnly.predict(new RetrievalPlan(List.of(), List.of(get("a", 100), get("b", 100)), 2, 200),
                false, one).time()).isEqualTo(Duration.ofMillis(20));
        assertThat(cold.requests()).isEqualTo(6);
        assertThat(cold.bytes()).isEqualTo(1_500);
        assertThat(warm.requests()).isEqualTo(4);
        assertThat(warm.bytes()).isEqualTo(400);
        assertThat(get("a", 1).roundTrip(true)).isTrue();
        assertThat(get("a", 1).withSharing(PlannedRequest.Sharing.SHARED_WHEN_COLD).roundTrip(false)).isTrue();
    }

    /**
     * The client's work: a cold client's metadata decoding adds to the time; the payload's check overlaps the reads
     * still in flight, so with one read it all comes after the network, and with many only the last read's share
     * does, unless checking is the slower of the two.
     */
    @Test
    void theClientsOwnWorkIsAddedToTheNetworkTime() {
        RetrievalPlan plan = new RetrievalPlan(List.of(get("meta", 2_000_000)), List.of(get("a", 3_000_000)), 1,
                2_000_000);
        CostModel network = new CostModel(Prices.s3Standard(), NetworkProfiles.NONE).withClientWork(ClientWork.NONE);
        CostModel client = network.withClientWork(new ClientWork(1e9, 1e8));

        assertThat(network.predict(plan, true, QueryOptions.defaults()).time()).isZero();
        // Warm: the 2 MB of payload at 1 GB/s (the 1 MB read through a gap is not checked); cold: 2 MB of metadata
        // at 100 MB/s more.
        assertThat(client.predict(plan, false, QueryOptions.defaults()).time()).isEqualTo(Duration.ofMillis(2));
        assertThat(client.predict(plan, true, QueryOptions.defaults()).time()).isEqualTo(Duration.ofMillis(22));
        assertThat(new CostModel(Prices.s3Standard(), NetworkProfiles.T3_MEDIUM).clientWork())
                .isEqualTo(ClientWork.TWO_VCPU);
        assertThatThrownBy(() -> new ClientWork(0, 1)).hasMessageContaining("positive");

        // 100 reads of 1 MB on a network that moves 100 MB/s with no latency: 1 s of transfer; checking at 1 GB/s
        // takes 0.1 s, of which only the last read's 1 ms comes after the transfer.
        List<PlannedRequest> reads = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            reads.add(get("r" + i, 1_000_000));
        }
        NetworkProfile slow = new NetworkProfile("slow", Duration.ZERO, 0, Double.POSITIVE_INFINITY,
                HostBandwidth.sustained(100e6), Duration.ZERO, 1000, 0);
        CostModel overlapped = new CostModel(Prices.s3Standard(), slow).withClientWork(new ClientWork(1e9, 1e8));
        assertThat(overlapped.predict(new RetrievalPlan(List.of(), reads, 1, 100_000_000), false,
                QueryOptions.defaults().withNetwork(slow)).time()).isEqualTo(Duration.ofMillis(1001));

        // The same 100 reads as one round of metadata: decoding them at 100 MB/s takes 1 s, half of which hides
        // behind their 1 s of transfer.
        assertThat(overlapped.predict(new RetrievalPlan(reads, List.of(), 0, 0, 1), true,
                QueryOptions.defaults().withNetwork(slow)).time()).isEqualTo(Duration.ofMillis(1500));
    }

    /**
     * A warm client holds the connections its earlier run left: one per read, as a raced read's losers closed
     * theirs. So a warm raced batch's copies pay the connection set-up, and an unraced one's reads do not.
     */
    @Test
    void aWarmRacedBatchPaysTheSetUpOfTheConnectionsItsLosersClosed() {
        List<PlannedRequest> reads = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            reads.add(get("l1/" + i + ".jpg", 85_000));
        }
        RetrievalPlan plan = new RetrievalPlan(List.of(), reads, 0, 6 * 85_000L);
        NetworkProfile noSetUp = NetworkProfiles.T3_MEDIUM.withConnectionSetup(Duration.ZERO);
        CostModel withoutSetUp = new CostModel(Prices.s3Standard(), noSetUp);
        QueryOptions raced = QueryOptions.defaults();
        QueryOptions unhedged = QueryOptions.defaults().withHedging(false);

        // Raced alike with or without the set-up.
        assertThat(model.predict(plan, false, raced).requests())
                .isEqualTo(withoutSetUp.predict(plan, false, raced.withNetwork(noSetUp)).requests());
        Duration racedWarm = model.predict(plan, false, raced).time();
        assertThat(racedWarm).isGreaterThan(withoutSetUp.predict(plan, false, raced.withNetwork(noSetUp)).time());
        // The first reads' copies take the six connections held; the others' pay the set-up, each copy of a read
        // alike, so the batch pays it once at most.
        assertThat(racedWarm).isLessThan(withoutSetUp.predict(plan, false, raced.withNetwork(noSetUp)).time()
                .plus(NetworkProfiles.T3_MEDIUM.connectionSetup()));
        assertThat(model.predict(plan, false, unhedged).time())
                .isEqualTo(withoutSetUp.predict(plan, false, unhedged.withNetwork(noSetUp)).time());
    }

    /**
     * The client's time per request spaces the requests it sends at once, and adds to the work that runs beside the
     * transfers.
     */
    @Test
    void theClientsTimePerRequestSpacesItsRequestsAndAddsToItsWork() {
        NetworkProfile tenMs = new NetworkProfile("ten-ms", Duration.ofMillis(10), 0, Double.POSITIVE_INFINITY,
                HostBandwidth.sustained(Double.POSITIVE_INFINITY), Duration.ZERO, 1000, 0);
        List<PlannedRequest> reads = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            reads.add(get("r" + i, 1));
        }
        RetrievalPlan plan = new RetrievalPlan(List.of(), reads, 0, 10);
        QueryOptions options = QueryOptions.defaults().withNetwork(tenMs);
        CostModel network = new CostModel(Prices.s3Standard(), tenMs).withClientWork(ClientWork.NONE);

        assertThat(network.predict(plan, false, options).time()).isEqualTo(Duration.ofMillis(10));
        // The tenth request leaves 10 ms after the batch was sent: its first byte 10 ms later.
        assertThat(network.withClientWork(new ClientWork(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
                Duration.ofMillis(1))).predict(plan, false, options).time()).isEqualTo(Duration.ofMillis(20));
        // Checking the 10 bytes at 100 B/s takes 100 ms, longer than the network's 10: all of it but the last read's
        // 10 ms runs beside the transfers, and then the last read's. The 10 requests' 1 ms each add to that work.
        assertThat(network.withClientWork(new ClientWork(100, Double.POSITIVE_INFINITY))
                .predict(plan, false, options).time()).isEqualTo(Duration.ofMillis(100));
        assertThat(network.withClientWork(new ClientWork(100, Double.POSITIVE_INFINITY, Duration.ofMillis(1)))
                .predict(plan, false, options).time()).isEqualTo(Duration.ofMillis(110));
        assertThat(ClientWork.TWO_VCPU.perRequest()).isPositive();
        assertThat(new ClientWork(1e9, 1e8).perRequest()).isZero();
        assertThatThrownBy(() -> new ClientWork(1e9, 1e8, Duration.ofNanos(-1))).hasMessageContaining("at least zero");
    }

    @Test
    void concurrencyIsThePoolWithinTheCapAndTheByteBudget() {
        List<PlannedRequest> rowGroups = List.of(get("a", 60L << 20), get("b", 60L << 20), get("c", 1000));
        List<PlannedRequest> images = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            images.add(get("img" + i, 110_000));
        }
        QueryOptions defaults = QueryOptions.defaults().withMaxBufferedBytes(QueryOptions.DEFAULT_MAX_BUFFERED_BYTES);

        assertThat(CostModel.effectiveConcurrency(rowGroups, defaults)).isEqualTo(1);
        assertThat(CostModel.effectiveConcurrency(images, defaults)).isEqualTo(297);
        assertThat(CostModel.effectiveConcurrency(images, defaults.withMaxConcurrency(64))).isEqualTo(64);
        assertThat(CostModel.effectiveConcurrency(images, defaults.withMaxBufferedBytes(1_000_000))).isEqualTo(9);
        assertThat(CostModel.effectiveConcurrency(images, defaults.withNetwork(NetworkProfiles.C5_LARGE)))
                .as("c5.large's pool, below the 610 reads of 110 kB that 64 MiB holds").isEqualTo(594);
        assertThat(CostModel.effectiveConcurrency(images, defaults.withNetwork(NetworkProfiles.NONE)))
                .isEqualTo(QueryOptions.UNLIMITED_NETWORK_READS);
        assertThat(CostModel.effectiveConcurrency(List.of(), defaults.withMaxConcurrency(16))).isEqualTo(16);
    }

    /**
     * Retrieval sends a task's requests at once and counts tasks in flight: paper-mode L3 reads a row group as one
     * task of its column chunks. Priced one chunk at a time, a 46 MB row group was over-predicted by 17-25% at tiny on
     * t3.medium (the six small chunks' latencies one after another).
     */
    @Test
    void aTasksRequestsArePricedTogetherAndTasksAreCountedInFlight() {
        List<List<PlannedRequest>> rowGroups = new ArrayList<>();
        for (int g = 0; g < 2; g++) {
            List<PlannedRequest> chunks = new ArrayList<>();
            chunks.add(get("part-0", 40_000_000));
            for (int c = 0; c < 6; c++) {
                chunks.add(get("part-0", 9_000));
            }
            rowGroups.add(chunks);
        }
        RetrievalPlan byTask = RetrievalPlan.ofTasks(List.of(), rowGroups, 100, 11_000_000, 0);
        RetrievalPlan byRequest = new RetrievalPlan(List.of(), byTask.dataRequests(), 100, 11_000_000);
        QueryOptions paper = QueryOptions.defaults().withMode(RetrievalMode.PAPER)
                .withMaxBufferedBytes(QueryOptions.DEFAULT_MAX_BUFFERED_BYTES);

        assertThat(CostModel.effectiveConcurrency(byTask, paper)).isEqualTo(1);
        Prediction together = model.withClientWork(ClientWork.NONE).predict(byTask, false, paper);
        Prediction oneByOne = model.withClientWork(ClientWork.NONE).predict(byRequest, false, paper);
        List<Long> sizes = byTask.dataRequests().stream().map(PlannedRequest::bytes).toList();
        NetworkProfile warm = NetworkProfiles.T3_MEDIUM.withConnectionSetup(Duration.ZERO);
        assertThat(together.time()).isEqualTo(NetworkModel.expectation(warm, sizes, List.of(7, 7), 1, 0).time());
        assertThat(oneByOne.time()).isEqualTo(NetworkModel.expectation(warm, sizes, 1, 0).time());
        assertThat(together.time()).isLessThan(oneByOne.time());
        assertThat(together.bytes()).isEqualTo(oneByOne.bytes());
        assertThat(together.requests()).isEqualTo(oneByOne.requests()).isEqualTo(14);

        // The client checks a task's samples when its last read is in: only the last task's check comes after.
        ClientWork checking = new ClientWork(ClientWork.TWO_VCPU.payloadBytesPerSecond(),
                ClientWork.TWO_VCPU.metadataBytesPerSecond());
        Prediction checked = model.withClientWork(checking).predict(byTask, false, paper);
        double check = ClientWork.TWO_VCPU.seconds(11_000_000, 0);
        assertThat(checked.time().toNanos() / 1e9).isCloseTo(together.time().toNanos() / 1e9 + check / 2,
                within(1e-6));

        // The byte budget holds tasks, each weighed by all it reads: two fields of 55 kB are one read of 110 kB.
        List<List<PlannedRequest>> samples = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            samples.add(List.of(get("img" + i, 55_000), get("label" + i, 55_000)));
        }
        QueryOptions budget = QueryOptions.defaults().withMaxBufferedBytes(1_000_000);
        RetrievalPlan fields = RetrievalPlan.ofTasks(List.of(), samples, 100, 11_000_000, 0);
        assertThat(CostModel.effectiveConcurrency(fields, budget)).isEqualTo(9);
        assertThat(CostModel.effectiveConcurrency(fields.dataRequests(), budget)).isEqualTo(18);
    }

    /**
     * A request the store answers from an earlier read's bytes waits for no round trip, and leaves its task; a task
     * all of whose requests are answered so waits for nothing.
     */
    @Test
    void sharedRequestsLeaveTheirTasks() {
        PlannedRequest shared = get("part-0", 9_000).withSharing(PlannedRequest.Sharing.SHARED);
        List<List<PlannedRequest>> tasks = List.of(
                List.of(get("part-0", 2_000_000), shared, get("part-0", 9_000)),
                List.of(shared, shared),
                List.of(get("part-1", 2_000_000), shared));
        RetrievalPlan plan = RetrievalPlan.ofTasks(List.of(), tasks, 10, 4_000_000, 0);
        QueryOptions options = QueryOptions.defaults().withMode(RetrievalMode.PAPER).withMaxBufferedBytes(3_000_000);
        CostModel network = model.withClientWork(ClientWork.NONE);

        assertThat(CostModel.effectiveConcurrency(plan, options)).isEqualTo(1);
        NetworkProfile warm = NetworkProfiles.T3_MEDIUM.withConnectionSetup(Duration.ZERO);
        assertThat(network.predict(plan, false, options).time()).isEqualTo(NetworkModel.expectation(warm,
                List.of(2_000_000L, 9_000L, 2_000_000L), List.of(2, 0, 1), 1, 0).time());
        assertThat(network.predict(plan, false, options).requests()).isEqualTo(7);
    }

    private static PlannedRequest get(String key, long bytes) {
        return new PlannedRequest(RequestKind.RANGE_GET, key, ByteRange.of(0, bytes));
    }
}
