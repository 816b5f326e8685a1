package io.layoutbench.layouts.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ForwardingObjectBackend;
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
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.api.testing.FaultInjectingBackend;
import io.layoutbench.backend.memory.MemoryBackend;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
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
                QueryOptions.defaults().withOrder(ResultOrder.COMPLETION).withHedging(false), new QueryMetrics())) {
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

    @Test
    void aReadSlowerThanTheHedgeDelayGetsExactlyOneDuplicateAndTheFirstAnswerWins() {
        ControlledBackend store = new ControlledBackend(3000);
        ManualTimer timer = new ManualTimer();
        List<ReadTask> tasks = List.of(task("a", 0, 1000, "s0"), task("a", 1000, 1000, "s1"),
                task("a", 2000, 1000, "s2"));
        QueryMetrics metrics = new QueryMetrics();
        metrics.start();

        try (StreamingRetrieval stream = StreamingRetrieval.start(store, tasks, QueryOptions.defaults(), metrics,
                timer, 1)) {
            assertThat(store.calls).hasSize(3);
            assertThat(timer.hedges).as("one timer per read").hasSize(3);
            store.answer(0);
            store.answer(2);
            timer.fireAll();
            timer.fireAll();   // a timer fires once: still one duplicate

            assertThat(store.calls).as("a duplicate of s1's read only").hasSize(4);
            assertThat(store.calls.get(3).range()).isEqualTo(store.calls.get(1).range());
            store.answer(3);
            assertThat(store.calls.get(1).answer()).as("the slower first attempt is cancelled").isCancelled();

            List<Sample> samples = new ArrayList<>();
            stream.forEachRemaining(samples::add);
            assertThat(samples).extracting(Sample::filename).containsExactly("s0", "s1", "s2");
            for (int i = 0; i < 3; i++) {
                assertThat(bytesOf(samples.get(i))).isEqualTo(store.slice(i * 1000, 1000));
            }
            assertThat(stream.hedgesSent()).isEqualTo(1);
            assertThat(stream.stats().transfer().hedgedRequests()).isEqualTo(1);
            assertThat(stream.readsInFlight()).isZero();
            assertThat(stream.reservedBytes()).isZero();
        }
    }

    @Test
    void aHedgeWaitsForASlotAndItsCancelledLoserGivesTheWindowBack() {
        ControlledBackend store = new ControlledBackend(5000);
        ManualTimer timer = new ManualTimer();
        List<ReadTask> tasks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            tasks.add(task("a", i * 1000, 1000, "s" + i));
        }

        try (StreamingRetrieval stream = StreamingRetrieval.start(store, tasks,
                QueryOptions.defaults().withMaxConcurrency(2), new QueryMetrics(), timer, 1)) {
            assertThat(store.calls).hasSize(2);
            timer.fire(0);   // s0 is late, but both slots are taken: its duplicate waits
            assertThat(store.calls).hasSize(2);

            store.answer(1);   // s1 frees a slot: the waiting duplicate goes before s2
            assertThat(store.calls).hasSize(3);
            assertThat(store.calls.get(2).range()).isEqualTo(ByteRange.of(0, 1000));
            assertThat(stream.readsInFlight()).isEqualTo(2);

            store.answer(2);   // the duplicate wins; the first attempt is cancelled and both slots free up
            assertThat(store.calls.get(0).answer()).isCancelled();
            assertThat(store.calls).as("s2 and s3 in the full window").hasSize(5);
            assertThat(stream.readsInFlight()).isEqualTo(2);
            assertThat(stream.readsInFlightLimit()).isEqualTo(2);

            store.answer(3);
            store.answer(4);
            store.answer(5);
            List<String> names = new ArrayList<>();
            stream.forEachRemaining(s -> names.add(s.filename()));
            assertThat(names).containsExactly("s0", "s1", "s2", "s3", "s4");
            assertThat(stream.hedgesSent()).isEqualTo(1);
            assertThat(stream.readsInFlight()).isZero();
            assertThat(stream.reservedBytes()).isZero();
        }
    }

    @Test
    void aFailedAttemptWaitsForItsDuplicate() {
        ControlledBackend store = new ControlledBackend(1000);
        ManualTimer timer = new ManualTimer();

        try (StreamingRetrieval stream = StreamingRetrieval.start(store, List.of(task("a", 0, 1000, "s0")),
                QueryOptions.defaults(), new QueryMetrics(), timer, 1)) {
            timer.fireAll();
            store.calls.get(0).answer().completeExceptionally(new StorageException("connection reset"));
            store.answer(1);

            assertThat(bytesOf(stream.next())).isEqualTo(store.slice(0, 1000));
            assertThat(stream.hasNext()).isFalse();
        }
    }

    @Test
    void closingCancelsBothAttemptsOfAHedgedRead() {
        ControlledBackend store = new ControlledBackend(1000);
        ManualTimer timer = new ManualTimer();
        StreamingRetrieval stream = StreamingRetrieval.start(store, List.of(task("a", 0, 1000, "s0")),
                QueryOptions.defaults(), new QueryMetrics(), timer, 1);
        timer.fireAll();

        stream.close();

        assertThat(store.calls).hasSize(2).allSatisfy(call -> assertThat(call.answer()).isCancelled());
        assertThat(stream.readsInFlight()).isZero();
    }

    @Test
    void aRacedReadSendsItsCopiesAtOnceBeforeTheNextTaskAndTheFirstAnswerWins() {
        ControlledBackend store = new ControlledBackend(2000);
        ManualTimer timer = new ManualTimer();
        List<ReadTask> tasks = List.of(task("a", 0, 1000, "s0"), task("a", 1000, 1000, "s1"));
        QueryMetrics metrics = new QueryMetrics();
        metrics.start();

        try (StreamingRetrieval stream = StreamingRetrieval.start(store, tasks, QueryOptions.defaults(), metrics,
                timer, 3)) {
            assertThat(store.calls).as("three copies of each read, s0's before s1's").extracting(c -> c.range())
                    .containsExactly(ByteRange.of(0, 1000), ByteRange.of(0, 1000), ByteRange.of(0, 1000),
                            ByteRange.of(1000, 1000), ByteRange.of(1000, 1000), ByteRange.of(1000, 1000));
            assertThat(timer.hedges).as("a raced read is not also hedged late").isEmpty();
            assertThat(stream.readsInFlight()).isEqualTo(6);

            store.answer(1);   // s0's second copy answers first: its first and third are cancelled
            assertThat(store.calls.get(0).answer()).isCancelled();
            assertThat(store.calls.get(2).answer()).isCancelled();
            store.answer(5);
            assertThat(store.calls.get(3).answer()).isCancelled();
            assertThat(store.calls.get(4).answer()).isCancelled();

            List<Sample> samples = new ArrayList<>();
            stream.forEachRemaining(samples::add);
            assertThat(samples).extracting(Sample::filename).containsExactly("s0", "s1");
            assertThat(bytesOf(samples.get(0))).isEqualTo(store.slice(0, 1000));
            assertThat(bytesOf(samples.get(1))).isEqualTo(store.slice(1000, 1000));
            assertThat(stream.hedgesSent()).isEqualTo(4);
            assertThat(stream.stats().transfer().hedgedRequests()).isEqualTo(4);
            assertThat(stream.readsInFlight()).isZero();
            assertThat(stream.reservedBytes()).isZero();
        }
    }

    @Test
    void aStoreThatRacesBelowGetsTheBatchsCopiesAndEachReadGoesOnceThroughItsView() {
        ControlledBackend below = new ControlledBackend(2000);
        // Its batch view is the backend below, which does not signal first bytes: retrieval must not race it again.
        RacingStore store = new RacingStore(below, null, new ForwardingObjectBackend() {
            @Override
            protected ObjectBackend delegate() {
                return below;
            }

            @Override
            public ObjectBackend withMetrics(RequestMetrics otherMetrics) {
                return this;
            }
        });
        ManualTimer timer = new ManualTimer();
        List<ReadTask> tasks = List.of(task("a", 0, 1000, "s0"), task("a", 1000, 1000, "s1"));
        QueryMetrics metrics = new QueryMetrics();
        metrics.start();

        try (StreamingRetrieval stream = StreamingRetrieval.start(store, tasks, QueryOptions.defaults(), metrics,
                timer, 3)) {
            assertThat(store.copies).isEqualTo(3);
            assertThat(store.metrics).isSameAs(metrics);
            assertThat(below.calls).as("each read once, through the store's view").extracting(c -> c.range())
                    .containsExactly(ByteRange.of(0, 1000), ByteRange.of(1000, 1000));
            assertThat(timer.hedges).as("nor hedged late here").isEmpty();

            below.answerAll();
            List<Sample> samples = new ArrayList<>();
            stream.forEachRemaining(samples::add);
            assertThat(samples).extracting(Sample::filename).containsExactly("s0", "s1");
            assertThat(stream.hedgesSent()).isZero();
        }
    }

    @Test
    void aStoreThatCannotRaceBelowIsHedgedLateAsABackendThatDoesNotSignal() {
        ControlledBackend below = new ControlledBackend(2000);
        RacingStore store = new RacingStore(below, null, null);   // its nodes do not signal: it returns itself
        ManualTimer timer = new ManualTimer();
        List<ReadTask> tasks = List.of(task("a", 0, 1000, "s0"), task("a", 1000, 1000, "s1"));
        QueryMetrics metrics = new QueryMetrics();
        metrics.start();

        try (StreamingRetrieval stream = StreamingRetrieval.start(store, tasks, QueryOptions.defaults(), metrics,
                timer, 3)) {
            assertThat(store.copies).as("asked").isEqualTo(3);
            assertThat(below.calls).as("each read once").hasSize(2);
            assertThat(timer.hedges).as("a hedge timer per read").hasSize(2);

            below.answerAll();
            List<Sample> samples = new ArrayList<>();
            stream.forEachRemaining(samples::add);
            assertThat(samples).extracting(Sample::filename).containsExactly("s0", "s1");
        }
    }

    @Test
    void aRacedCopysFirstByteAbandonsTheOthersAndTheCopiesNotYetSent() {
        ControlledBackend store = new ControlledBackend(2000);
        ManualTimer timer = new ManualTimer();
        List<ReadTask> tasks = List.of(task("a", 0, 1000, "s0"), task("a", 1000, 1000, "s1"));
        QueryMetrics metrics = new QueryMetrics();
        metrics.start();

        try (StreamingRetrieval stream = StreamingRetrieval.start(store, tasks,
                QueryOptions.defaults().withMaxConcurrency(2), metrics, timer, 3)) {
            assertThat(store.calls).as("two of s0's three copies; the third waits for a slot").hasSize(2);

            store.firstByte(1);   // the second copy's response starts: the first is abandoned, the third never goes
            assertThat(store.calls.get(0).answer()).isCancelled();
            store.firstByte(1);   // heard once: nothing more happens
            assertThat(store.calls).as("s0 holds its slots until it is answered").hasSize(2);

            store.answer(1);   // s0 is answered: both slots go to s1, its first attempt and one copy
            assertThat(store.calls).extracting(c -> c.range()).endsWith(ByteRange.of(1000, 1000),
                    ByteRange.of(1000, 1000)).hasSize(4);
            store.answer(2);
            List<String> names = new ArrayList<>();
            stream.forEachRemaining(s -> names.add(s.filename()));
            assertThat(names).containsExactly("s0", "s1");
            assertThat(store.calls.get(3).answer()).isCancelled();
            assertThat(stream.hedgesSent()).as("one copy of s0, one of s1").isEqualTo(2);
            assertThat(stream.readsInFlight()).isZero();
            assertThat(stream.reservedBytes()).isZero();
        }
    }

    @Test
    void aFirstByteHeardInsideTheSendingCallStopsTheCopiesBeforeTheyGo() {
        ControlledBackend store = new ControlledBackend(1000);
        store.firstByteOnCall = true;
        ManualTimer timer = new ManualTimer();

        try (StreamingRetrieval stream = StreamingRetrieval.start(store, List.of(task("a", 0, 1000, "s0")),
                QueryOptions.defaults(), new QueryMetrics(), timer, 3)) {
            assertThat(store.calls).as("the first attempt answered before its copies could go").hasSize(1);
            store.answer(0);
            assertThat(bytesOf(stream.next())).isEqualTo(store.slice(0, 1000));
            assertThat(stream.hasNext()).isFalse();
            assertThat(stream.hedgesSent()).isZero();
            assertThat(stream.readsInFlight()).isZero();
            assertThat(stream.reservedBytes()).isZero();
        }
    }

    @Test
    void aRacedReadsCopiesTakeSlotsOfTheWindow() {
        ControlledBackend store = new ControlledBackend(3000);
        ManualTimer timer = new ManualTimer();
        List<ReadTask> tasks = List.of(task("a", 0, 1000, "s0"), task("a", 1000, 1000, "s1"),
                task("a", 2000, 1000, "s2"));

        try (StreamingRetrieval stream = StreamingRetrieval.start(store, tasks,
                QueryOptions.defaults().withMaxConcurrency(3), new QueryMetrics(), timer, 2)) {
            assertThat(store.calls).as("s0 twice, then s1; s1's copy waits for a slot").hasSize(3);
            store.answer(0);   // s0 answers: its copy is cancelled, two slots free: s1's copy, then s2
            assertThat(store.calls.get(1).answer()).isCancelled();
            assertThat(store.calls).extracting(c -> c.range()).containsExactly(ByteRange.of(0, 1000),
                    ByteRange.of(0, 1000), ByteRange.of(1000, 1000), ByteRange.of(1000, 1000),
                    ByteRange.of(2000, 1000));
            assertThat(stream.readsInFlight()).isEqualTo(3);

            store.answer(3);
            store.answer(4);
            store.answer(5);
            List<String> names = new ArrayList<>();
            stream.forEachRemaining(s -> names.add(s.filename()));
            assertThat(names).containsExactly("s0", "s1", "s2");
            assertThat(stream.readsInFlight()).isZero();
            assertThat(stream.reservedBytes()).isZero();
        }
    }

    @Test
    void withHedgingOffOrInThePapersModeNoReadIsDuplicated() {
        for (QueryOptions options : List.of(QueryOptions.defaults().withHedging(false),
                QueryOptions.defaults().withMode(RetrievalMode.PAPER),
                QueryOptions.defaults().withNetwork(NetworkProfiles.T3_MEDIUM.withLatencyJitter(0)))) {
            ControlledBackend store = new ControlledBackend(3000);
            ManualTimer timer = new ManualTimer();
            List<ReadTask> tasks = List.of(task("a", 0, 1000, "s0"), task("a", 1000, 1000, "s1"),
                    task("a", 2000, 1000, "s2"));
            try (StreamingRetrieval stream = StreamingRetrieval.start(store, tasks, options, new QueryMetrics(),
                    timer, 0)) {
                timer.fireAll();
                store.answerAll();
                List<String> names = new ArrayList<>();
                stream.forEachRemaining(s -> names.add(s.filename()));

                assertThat(names).as("%s", options).containsExactly("s0", "s1", "s2");
                assertThat(timer.hedges).as("%s", options).isEmpty();
                assertThat(store.calls).as("%s", options).hasSize(3);
                assertThat(stream.hedgesSent()).isZero();
            }
        }
    }

    private static ByteBuffer bytesOf(Sample sample) {
        return sample.fields().get(Sample.DATA).readAll();
    }

    /** Hedge checks that run only when the test fires them; its clock moves to a check's time when it fires. */
    private static final class ManualTimer implements HedgeTimer {
        record Check(long at, FutureTask<Void> task) {
        }

        final List<Check> hedges = new ArrayList<>();
        private long now;

        @Override
        public synchronized Future<?> schedule(long delayNanos, Runnable check) {
            assertThat(delayNanos).isPositive();
            FutureTask<Void> task = new FutureTask<>(check, null);
            hedges.add(new Check(now + delayNanos, task));
            return task;
        }

        @Override
        public synchronized long nanoTime() {
            return now;
        }

        void fire(int i) {
            Check check;
            synchronized (this) {
                check = hedges.get(i);
                now = Math.max(now, check.at());
            }
            check.task().run();
        }

        /** Fires every check, those the firing schedules included. */
        void fireAll() {
            for (int i = 0; i < hedges.size(); i++) {
                fire(i);
            }
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
