package io.layoutbench.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.layoutbench.api.cost.ClientWork;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.evaluation.paper.PaperQueries;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On a deterministic backend (memory, no network) the cost model's predicted D and request count are the measured
 * ones exactly, for l1 and l2, in both modes, cold and warm, on all eleven queries at tiny.
 */
class PredictionAccuracyTest {

    static MemoryBackend backend;
    static List<RunRow> rows;
    static String heapOptionBefore;
    static final List<String> heapOptionDuringRuns = new ArrayList<>();
    static String heapOptionAfter;

    @BeforeAll
    static void runWorkload() {
        backend = new MemoryBackend();
        List<StorageLayout> layouts = List.of(StorageLayouts.get("l1"), StorageLayouts.get("l2"));
        // The network alone: the client's own work is a calibration of a machine, not what this test checks.
        CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.NONE).withClientWork(ClientWork.NONE);
        DatasetStore store = new DatasetStore(backend, "mem");
        DatasetSource tiny = DatasetSource.synthetic(ImageNetScale.TINY, 7, false);
        Map<String, String> prefixes = new LinkedHashMap<>();
        for (StorageLayout layout : layouts) {
            IngestRow ingest = store.ensure(tiny, layout, LayoutSettings.paperDefaults(layout.name(),
                    ImageNetScale.TINY), false, model, Progress.Factory.NONE);
            prefixes.put(layout.name(), ingest.prefix());
        }
        BenchmarkRunner runner = new BenchmarkRunner(new BenchmarkRunner.Config("tiny", "mem", layouts,
                List.of(RetrievalMode.PAPER, RetrievalMode.OPTIMIZED), PaperQueries.forScale("tiny"),
                NetworkProfiles.NONE, Prices.s3Standard(), 1, 64, ResultOrder.DATASET));
        heapOptionBefore = GrownHeapTest.value();
        Progress.Factory recording = (task, total, unit) -> new Progress() {
            @Override
            public void step(long amount) {
                heapOptionDuringRuns.add(GrownHeapTest.value());
            }

            @Override
            public void message(String text) {
            }

            @Override
            public void close() {
            }
        };
        rows = runner.run(backend, prefixes, recording);
        heapOptionAfter = GrownHeapTest.value();
    }

    @AfterAll
    static void close() {
        backend.close();
    }

    @Test
    void theHeapIsKeptGrownWhileRunsGoAndPutBackAfter() {
        assertThat(heapOptionDuringRuns).hasSize(2 * 2 * 11).containsOnly("100");
        assertThat(heapOptionAfter).isEqualTo(heapOptionBefore);
    }

    @Test
    void everyCombinationRan() {
        assertThat(rows).hasSize(2 * 2 * 11 * 2);
    }

    @Test
    void predictedBytesAreMeasuredBytes() {
        assertThat(rows).allSatisfy(row -> assertThat(row.predictedBytes())
                .as("%s %s %s %s", row.layout(), row.mode(), row.query(), row.run()).isEqualTo(row.bytes()));
    }

    @Test
    void predictedRequestsAreMeasuredRequests() {
        assertThat(rows).allSatisfy(row -> assertThat(row.predictedRequests())
                .as("%s %s %s %s", row.layout(), row.mode(), row.query(), row.run()).isEqualTo(row.requests()));
    }

    @Test
    void coldRunsReadMetadataAndWarmRunsDoNot() {
        for (RunRow cold : rows) {
            if (!cold.run().equals(RunRow.COLD)) {
                continue;
            }
            RunRow warm = rows.stream().filter(r -> r.run().equals(RunRow.WARM) && r.layout().equals(cold.layout())
                    && r.mode().equals(cold.mode()) && r.query().equals(cold.query())).findFirst().orElseThrow();
            assertThat(cold.bytes()).isGreaterThan(warm.bytes());
            assertThat(cold.requests()).isGreaterThan(warm.requests());
            assertThat(cold.samples()).isEqualTo(warm.samples());
            assertThat(cold.payloadBytes()).isEqualTo(warm.payloadBytes());
        }
    }

    @Test
    void withoutANetworkThereIsNoComputeCostAndTheTimeIsTheClientsOwnWork() {
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.computeUsd()).isZero();
            assertThat(row.costUsd()).isEqualTo(row.transferUsd() + row.requestUsd());
            double payloadWork = ClientWork.TWO_VCPU.seconds(row.payloadBytes(), 0);
            if (row.run().equals(RunRow.WARM)) {
                // The payload's check and the client's own time on each request it sends (a request answered from
                // an earlier one's bytes is not sent).
                assertThat(row.predictedSeconds()).isBetween(payloadWork - 1e-6,
                        payloadWork + ClientWork.TWO_VCPU.requestSeconds(row.requests()) + 1e-6);
            } else {
                assertThat(row.predictedSeconds()).isGreaterThan(payloadWork);   // and decoding the metadata
            }
        });
    }
}
