package io.layoutbench.layouts.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.testing.FaultInjectingBackend;
import io.layoutbench.backend.memory.MemoryBackend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class StreamingRetrievalTest {

    private final MemoryBackend backend = new MemoryBackend();

    @Test
    void handsOutSamplesInTaskOrderAndCountsTheReads() {
        backend.put("a", new byte[1000]);
        List<ReadTask> tasks = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            tasks.add(task("a", i * 100, 100, "s" + i));
        }
        QueryMetrics metrics = new QueryMetrics();
        metrics.start();

        List<String> names = new ArrayList<>();
        try (StreamingRetrieval stream = StreamingRetrieval.start(backend.withMetrics(metrics), tasks,
                QueryOptions.defaults().withMaxConcurrency(3), metrics)) {
            stream.forEachRemaining(s -> names.add(s.filename()));
            assertThat(stream.stats().samples()).isEqualTo(10);
            assertThat(stream.stats().payloadBytes()).isEqualTo(1000);
            assertThat(stream.stats().transfer().requests(RequestKind.RANGE_GET)).isEqualTo(10);
            assertThat(stream.stats().transfer().bytesReceived()).isEqualTo(1000);
        }
        assertThat(names).containsExactly("s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9");
    }

    @Test
    void aSlowConsumerStopsNewReads() {
        backend.put("a", new byte[100_000]);
        AtomicInteger started = new AtomicInteger();
        List<ReadTask> tasks = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            tasks.add(counted(task("a", i * 1000, 1000, "s" + i), started));
        }
        QueryMetrics metrics = new QueryMetrics();
        try (StreamingRetrieval stream = StreamingRetrieval.start(backend, tasks,
                QueryOptions.defaults().withMaxBufferedBytes(8_000), metrics)) {
            stream.next();
            // Reads run ahead only as far as the byte budget: 8 reads of 1,000 bytes, plus the one just freed.
            assertThat(started.get()).isLessThanOrEqualTo(9);
        }
    }

    @Test
    void theByteBudgetLimitsWhatIsInFlightButAlwaysAllowsOneTask() {
        backend.put("a", new byte[10_000]);
        AtomicInteger started = new AtomicInteger();
        List<ReadTask> tasks = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            tasks.add(counted(task("a", i * 1000, 1000, "s" + i), started));
        }
        try (StreamingRetrieval stream = StreamingRetrieval.start(backend, tasks,
                QueryOptions.defaults().withMaxBufferedBytes(500), new QueryMetrics())) {
            assertThat(started.get()).isEqualTo(1);
            int count = 0;
            while (stream.hasNext()) {
                stream.next();
                count++;
            }
            assertThat(count).isEqualTo(10);
        }
    }

    @Test
    void aFailedReadSurfacesWithItsOwnMessageAndStopsTheStream() {
        backend.put("a", new byte[1000]);
        List<ReadTask> tasks = List.of(task("a", 0, 100, "ok"), task("a", 900, 200, "past-end"));

        try (StreamingRetrieval stream = StreamingRetrieval.start(backend, tasks, QueryOptions.defaults(),
                new QueryMetrics())) {
            assertThat(stream.next().filename()).isEqualTo("ok");
            assertThatThrownBy(stream::next)
                    .isInstanceOf(StorageException.class)
                    .hasMessage("Cannot read range [900, 1100) of a: object is 1000 bytes");
            assertThat(stream.hasNext()).isFalse();
        }
    }

    @Test
    void completionOrderReturnsEverySampleOnce() {
        backend.put("a", new byte[5000]);
        FaultInjectingBackend slow = FaultInjectingBackend.wrap(backend);
        CompletableFuture<Void> gate = new CompletableFuture<>();
        slow.delayNext(RequestKind.RANGE_GET, 1, gate);
        List<ReadTask> tasks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            tasks.add(task("a", i * 1000, 1000, "s" + i));
        }
        List<String> names = new ArrayList<>();
        try (StreamingRetrieval stream = StreamingRetrieval.start(slow, tasks,
                QueryOptions.defaults().withOrder(ResultOrder.COMPLETION), new QueryMetrics())) {
            for (int i = 0; i < 4; i++) {
                names.add(stream.next().filename());
            }
            gate.complete(null);
            stream.forEachRemaining(s -> names.add(s.filename()));
        }
        // The first read was held back, so it arrives last.
        assertThat(names).containsExactly("s1", "s2", "s3", "s4", "s0");
    }

    @Test
    void optimizedRetrievalBacksOffWhenTheStoreThrottlesAndThePapersModeDoesNot() {
        backend.put("a", new byte[200_000]);
        for (RetrievalMode mode : RetrievalMode.values()) {
            QueryMetrics metrics = new QueryMetrics();
            metrics.start();
            List<ReadTask> tasks = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                // Every read is throttled once before it succeeds, as the backend's Retrier would count it.
                tasks.add(retriedOnce(task("a", i * 1000, 1000, "s" + i), metrics));
            }
            List<String> names = new ArrayList<>();
            try (StreamingRetrieval stream = StreamingRetrieval.start(backend.withMetrics(metrics), tasks,
                    QueryOptions.defaults().withMode(mode).withMaxConcurrency(8), metrics)) {
                stream.forEachRemaining(s -> names.add(s.filename()));
                if (mode == RetrievalMode.OPTIMIZED) {
                    assertThat(stream.readsInFlightLimit()).as("halved each round of 16 reads").isEqualTo(1);
                } else {
                    assertThat(stream.readsInFlightLimit()).isEqualTo(8);
                }
                assertThat(stream.peakReadsInFlight()).isEqualTo(8);
            }
            assertThat(names).hasSize(200).startsWith("s0", "s1").endsWith("s199");
        }
    }

    /** {@code inner}, with a retry counted in {@code metrics} before it runs. */
    private static ReadTask retriedOnce(ReadTask inner, QueryMetrics metrics) {
        return before(inner, () -> metrics.onRetry(RequestKind.RANGE_GET));
    }

    private static ReadTask task(String key, long offset, long length, String name) {
        MetadataRow row = MetadataRow.of(MetadataSchema.imageNet(), Map.of("filename", name));
        return ReadTask.single(new PlannedRequest(RequestKind.RANGE_GET, key, ByteRange.of(offset, length)), 1,
                data -> List.of(new Sample(row, data)));
    }

    /** {@code inner}, counting into {@code started} each time it is launched. */
    private static ReadTask counted(ReadTask inner, AtomicInteger started) {
        return before(inner, started::incrementAndGet);
    }

    /** {@code inner}, running {@code action} each time it is launched. */
    private static ReadTask before(ReadTask inner, Runnable action) {
        return new ReadTask() {
            @Override
            public List<PlannedRequest> requests() {
                return inner.requests();
            }

            @Override
            public int sampleCount() {
                return inner.sampleCount();
            }

            @Override
            public CompletableFuture<List<Sample>> run(ObjectBackend b) {
                action.run();
                return inner.run(b);
            }
        };
    }
}
