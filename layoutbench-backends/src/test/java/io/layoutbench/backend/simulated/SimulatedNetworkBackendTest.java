package io.layoutbench.backend.simulated;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.HostBandwidth;
import io.layoutbench.api.network.NetworkModel;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.api.network.VirtualClock;
import io.layoutbench.api.testing.TestBytes;
import io.layoutbench.backend.memory.MemoryBackend;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The decorator on a {@link VirtualClock}: every completion time is asserted to the nanosecond, and nothing
 * sleeps. The profile's numbers are round so the times can be worked out by hand: 5 ms set-up, 10 ms to first
 * byte, 1 MB/s per connection (1 byte per microsecond), 4 MB/s for the host, 8 connections.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SimulatedNetworkBackendTest {

    private static final long MS = 1_000_000;
    private static final NetworkProfile SIMPLE = new NetworkProfile("simple", Duration.ofMillis(10), 0,
            1_000_000, HostBandwidth.sustained(4_000_000), Duration.ofMillis(5), 8, 0.10);

    private final VirtualClock clock = new VirtualClock();
    private final MemoryBackend memory = new MemoryBackend();

    @BeforeEach
    void storeObjects() {
        memory.put("small.jpg", TestBytes.of("small.jpg", 1000));
        memory.put("large.bin", TestBytes.of("large.bin", 3_000_000));
        for (int i = 0; i < 8; i++) {
            memory.put("mb/" + i, TestBytes.of("mb/" + i, 1_000_000));
        }
    }

    @AfterEach
    void closeMemory() {
        memory.close();
    }

    @Test
    void oneSmallRequestPaysSetUpFirstByteLatencyAndItsBytes() {
        SimulatedNetworkBackend backend = simulated(SIMPLE);

        CompletableFuture<ByteBuffer> read = backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000));

        clock.advanceTo(16 * MS - 1);
        assertThat(read).isNotDone();
        clock.advanceTo(16 * MS);
        assertThat(read).isCompleted();
        TestBytes.verify("small.jpg", 0, read.join());
    }

    @Test
    void theFirstByteIsSignalledWhenItArrivesBeforeTheBodyAndNotForACancelledRead() {
        SimulatedNetworkBackend backend = simulated(SIMPLE);
        AtomicInteger firstBytes = new AtomicInteger();
        AtomicInteger abandonedFirstBytes = new AtomicInteger();

        // 5 ms to connect and 10 ms to the first byte, then 3 MB at 1 MB/s.
        CompletableFuture<ByteBuffer> read = backend.readAllAsync("large.bin", firstBytes::incrementAndGet);
        CompletableFuture<ByteBuffer> abandoned = backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000),
                abandonedFirstBytes::incrementAndGet);
        clock.advanceTo(15 * MS - 1);
        abandoned.cancel(false);
        assertThat(firstBytes).hasValue(0);
        clock.advanceTo(15 * MS);

        assertThat(firstBytes).hasValue(1);
        assertThat(read).isNotDone();
        clock.advanceTo(15 * MS + 3_000 * MS);
        assertThat(read).isCompleted();
        assertThat(firstBytes).as("once").hasValue(1);
        assertThat(abandonedFirstBytes).hasValue(0);
    }

    @Test
    void aLargeRequestIsBoundByPerConnectionThroughput() {
        SimulatedNetworkBackend backend = simulated(SIMPLE);

        CompletableFuture<ByteBuffer> read = backend.readAllAsync("large.bin");

        // 15 ms to first byte, then 3 MB at 1 MB/s.
        assertThat(completionTime(read)).isEqualTo(15 * MS + 3_000 * MS);
        assertThat(read.join().remaining()).isEqualTo(3_000_000);
    }

    @Test
    void parallelRequestsAreBoundByTheHostCap() {
        SimulatedNetworkBackend backend = simulated(SIMPLE);

        List<CompletableFuture<ByteBuffer>> reads = IntStream.range(0, 8)
                .mapToObj(i -> backend.readRangeAsync("mb/" + i, ByteRange.of(0, 1_000_000)))
                .collect(Collectors.toList());

        // 8 transfers share the host's 4 MB/s: 0.5 MB/s each, so 2 s for each megabyte.
        clock.advanceTo(2_015 * MS - 1);
        assertThat(reads).noneMatch(CompletableFuture::isDone);
        clock.advanceTo(2_015 * MS);
        assertThat(reads).allMatch(read -> read.isDone() && !read.isCompletedExceptionally());
    }

    @Test
    void aSecondRequestOnAWarmConnectionPaysNoSetUp() {
        SimulatedNetworkBackend backend = simulated(SIMPLE);
        assertThat(completionTime(backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000)))).isEqualTo(16 * MS);

        clock.advanceTo(20 * MS);
        CompletableFuture<ByteBuffer> second = backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000));

        assertThat(completionTime(second)).isEqualTo(20 * MS + 10 * MS + 1 * MS);
        assertThat(backend.network().model().openConnections()).isEqualTo(1);
    }

    @Test
    void requestsBeyondTheConcurrencyLimitQueueForAConnection() {
        SimulatedNetworkBackend backend = simulated(SIMPLE.withMaxConnections(2));

        CompletableFuture<ByteBuffer> first = backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000));
        CompletableFuture<ByteBuffer> second = backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000));
        CompletableFuture<ByteBuffer> third = backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000));

        clock.advanceTo(16 * MS);
        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
        assertThat(third).isNotDone();
        // The third takes a freed, warm connection at 16 ms: 10 ms to first byte, 1 ms of body.
        assertThat(completionTime(third)).isEqualTo(27 * MS);
        assertThat(backend.network().model().openConnections()).isEqualTo(2);
    }

    @Test
    void jitterIsDeterministicForASeed() {
        NetworkProfile jittery = SIMPLE.withLatencyJitter(0.5);
        // The model's own draws for seed 7 (NetworkModel mixes the seed): connection, latency, 1 ms for 1000 bytes.
        NetworkModel model = NetworkModel.withJitter(jittery, 7);
        NetworkModel.Transfer first = model.submit(1000);
        NetworkModel.Transfer second = model.submit(1000);
        while (model.requestsInFlight() > 0) {
            model.advanceTo(model.nextEventNanos());
        }

        List<Long> times = completionTimesOfTwoReads(jittery, 7);

        assertThat(times).containsExactly(first.completedNanos(), second.completedNanos());
        assertThat(times.get(0)).isNotEqualTo(16 * MS).isNotEqualTo(times.get(1));
        assertThat(completionTimesOfTwoReads(jittery, 7)).isEqualTo(times);
        assertThat(completionTimesOfTwoReads(jittery, 8)).isNotEqualTo(times);
    }

    @Test
    void anErrorCostsARoundTripAndNoBytes() {
        SimulatedNetworkBackend backend = simulated(SIMPLE);

        CompletableFuture<ByteBuffer> missing = backend.readRangeAsync("missing.jpg", ByteRange.of(0, 10));
        CompletableFuture<ByteBuffer> pastEnd = backend.readRangeAsync("small.jpg", ByteRange.of(990, 20));

        clock.advanceTo(15 * MS - 1);
        assertThat(missing).isNotDone();
        clock.advanceTo(15 * MS);
        assertThatThrownBy(missing::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(ObjectNotFoundException.class);
        assertThatThrownBy(pastEnd::join).hasCauseInstanceOf(RangeNotSatisfiableException.class);
    }

    @Test
    void metricsViewsShareThePoolAndReportSimulatedFirstBytes() {
        SimulatedNetworkBackend backend = simulated(SIMPLE);
        QueryMetrics metrics = new QueryMetrics(clock::nanoTime);
        metrics.start();

        try (SimulatedNetworkBackend view = backend.withMetrics(metrics)) {
            assertThat(completionTime(view.readRangeAsync("small.jpg", ByteRange.of(0, 1000)))).isEqualTo(16 * MS);
            // Through the base backend, on the connection the view opened: no set-up.
            assertThat(completionTime(backend.readRangeAsync("small.jpg", ByteRange.of(0, 500))))
                    .isEqualTo(16 * MS + 10 * MS + MS / 2);
            assertThat(completionTime(view.readAllAsync("small.jpg"))).isEqualTo(26 * MS + MS / 2 + 11 * MS);
        }
        metrics.stop();

        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.requests(RequestKind.RANGE_GET)).isEqualTo(1);
        assertThat(snapshot.requests(RequestKind.GET)).isEqualTo(1);
        assertThat(snapshot.bytesReceived()).isEqualTo(2000);
        // Simulated first bytes only: 15 ms (new connection) and 10 ms (warm); the memory backend's are dropped.
        assertThat(snapshot.firstByteCount()).isEqualTo(2);
        assertThat(snapshot.firstByteNanos()).isEqualTo(25 * MS);
        assertThat(snapshot.maxFirstByteNanos()).isEqualTo(15 * MS);
        assertThat(snapshot.wallTime()).isEqualTo(Duration.ofNanos(37 * MS + MS / 2));
        assertThat(backend.readRangeAsync("small.jpg", ByteRange.of(0, 1))).isNotDone();
    }

    @Test
    void aCancelledReadFreesItsConnectionAndCountsOnlyTheBytesThatArrived() {
        SimulatedNetworkBackend backend = simulated(SIMPLE.withMaxConnections(1));
        QueryMetrics metrics = new QueryMetrics(clock::nanoTime);
        SimulatedNetworkBackend view = backend.withMetrics(metrics);
        CompletableFuture<ByteBuffer> slow = view.readRangeAsync("large.bin", ByteRange.of(0, 100_000));
        CompletableFuture<ByteBuffer> queued = view.readRangeAsync("small.jpg", ByteRange.of(0, 1000));

        // 5 ms set-up, 10 ms to the first byte, then 1 byte per microsecond: 4,000 bytes by 19 ms.
        clock.advanceTo(19 * MS);
        assertThat(slow.cancel(false)).isTrue();

        // The queued read gets a connection at once, a new one (the cancelled read's closed): set-up again.
        assertThat(completionTime(queued)).isEqualTo(19 * MS + 5 * MS + 10 * MS + MS);
        clock.advanceUntilIdle();   // a wake-up armed for the cancelled read's end finds nothing to do
        synchronized (backend.network()) {
            assertThat(backend.network().model().requestsInFlight()).isZero();
            assertThat(backend.network().model().openConnections()).isEqualTo(1);
        }
        assertThat(metrics.snapshot().requests(RequestKind.RANGE_GET)).isEqualTo(2);
        assertThat(metrics.snapshot().bytesReceived()).isEqualTo(4000 + 1000);
    }

    @Test
    void aReadCancelledBeforeItsFirstByteNeverAsksTheStoreAndIsStillCounted() {
        QueryMetrics metrics = new QueryMetrics();
        metrics.start();
        AtomicInteger asked = new AtomicInteger();
        SimulatedNetworkBackend backend = SimulatedNetworkBackend.builder(new CountingAsks(memory, asked), SIMPLE)
                .clock(clock).build();
        SimulatedNetworkBackend view = backend.withMetrics(metrics);

        CompletableFuture<ByteBuffer> lost = view.readRangeAsync("small.jpg", ByteRange.of(0, 1000));
        CompletableFuture<ByteBuffer> lostCopy = view.readAllAsync("small.jpg", () -> { });
        clock.advanceTo(15 * MS - 1);
        lost.cancel(false);
        lostCopy.cancel(false);
        clock.advanceTo(100 * MS);

        assertThat(asked).as("the store is asked at the first byte, which never came").hasValue(0);
        assertThat(metrics.snapshot().requests(RequestKind.RANGE_GET)).isEqualTo(1);
        assertThat(metrics.snapshot().requests(RequestKind.GET)).isEqualTo(1);
        assertThat(metrics.snapshot().bytesReceived()).isZero();
        CompletableFuture<ByteBuffer> read = view.readRangeAsync("small.jpg", ByteRange.of(0, 1000));
        clock.advanceTo(200 * MS);
        TestBytes.verify("small.jpg", 0, read.join());
        assertThat(asked).hasValue(1);
        assertThat(metrics.snapshot().requests(RequestKind.RANGE_GET)).as("once each, not again by the store")
                .isEqualTo(2);
    }

    @Test
    void aStreamedReadIsTimedAsARangedReadAndHandsOverItsPiecesFromTheFirstByte() {
        SimulatedNetworkBackend backend = simulated(SIMPLE);
        List<Integer> pieces = new ArrayList<>();

        CompletableFuture<Void> streamed = backend.streamRangeAsync("large.bin", ByteRange.of(0, 3_000_000),
                piece -> pieces.add(piece.remaining()));
        CompletableFuture<ByteBuffer> read = simulated(SIMPLE).readRangeAsync("large.bin", ByteRange.of(0, 3_000_000));

        clock.advanceTo(15 * MS - 1);
        assertThat(pieces).as("the store is asked at the first byte").isEmpty();
        clock.advanceTo(15 * MS);
        assertThat(pieces).as("the memory backend hands its range over whole").containsExactly(3_000_000);
        assertThat(streamed).isNotDone();
        // As long as the same ranged read on a network of its own: 15 ms to the first byte, 3 MB at 1 MB/s.
        assertThat(completionTime(streamed)).isEqualTo(15 * MS + 3_000 * MS);
        assertThat(read).isCompleted();
    }

    @Test
    void cancellingAStreamedReadCancelsTheWrappedBackendsStream() {
        List<CompletableFuture<Void>> wrappedStreams = new ArrayList<>();
        ObjectBackend neverDone = new ForwardingObjectBackend() {
            @Override
            protected ObjectBackend delegate() {
                return memory;
            }

            @Override
            public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range,
                    Consumer<ByteBuffer> pieces) {
                CompletableFuture<Void> stream = new CompletableFuture<>();
                wrappedStreams.add(stream);
                return stream;
            }

            @Override
            public ObjectBackend withMetrics(RequestMetrics metrics) {
                return this;
            }
        };
        SimulatedNetworkBackend backend = SimulatedNetworkBackend.builder(neverDone, SIMPLE).clock(clock).build();

        CompletableFuture<Void> streamed = backend.streamRangeAsync("large.bin", ByteRange.of(0, 3_000_000),
                piece -> { });
        clock.advanceTo(100 * MS);
        assertThat(wrappedStreams).hasSize(1);
        streamed.cancel(false);

        assertThat(wrappedStreams.get(0)).isCancelled();
        clock.advanceUntilIdle();
        synchronized (backend.network()) {
            assertThat(backend.network().model().requestsInFlight()).isZero();
        }
    }

    /** {@code inner}, counting the ranged reads asked of it (and of its metrics views) in {@code asked}. */
    private static final class CountingAsks extends ForwardingObjectBackend {
        private final ObjectBackend inner;
        private final AtomicInteger asked;

        CountingAsks(ObjectBackend inner, AtomicInteger asked) {
            this.inner = inner;
            this.asked = asked;
        }

        @Override
        protected ObjectBackend delegate() {
            return inner;
        }

        @Override
        public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
            asked.incrementAndGet();
            return inner.readRangeAsync(key, range);
        }

        @Override
        public CompletableFuture<ByteBuffer> readAllAsync(String key) {
            asked.incrementAndGet();
            return inner.readAllAsync(key);
        }

        @Override
        public ObjectBackend withMetrics(RequestMetrics metrics) {
            return new CountingAsks(inner.withMetrics(metrics), asked);
        }
    }

    @Test
    void aWholeReadCancelledBeforeTheStoreAnswersSendsNothingOverTheNetwork() {
        CompletableFuture<ByteBuffer> answer = new CompletableFuture<>();
        SimulatedNetworkBackend backend = SimulatedNetworkBackend.builder(new ForwardingObjectBackend() {
            @Override
            protected ObjectBackend delegate() {
                return memory;
            }

            @Override
            public CompletableFuture<ByteBuffer> readAllAsync(String key) {
                return answer;
            }

            @Override
            public ObjectBackend withMetrics(RequestMetrics metrics) {
                return this;
            }

            @Override
            public void close() {
            }
        }, SIMPLE).clock(clock).build();

        CompletableFuture<ByteBuffer> read = backend.readAllAsync("small.jpg");
        read.cancel(false);

        assertThat(answer).as("the store's read is cancelled too").isCancelled();
        synchronized (backend.network()) {
            assertThat(backend.network().model().requestsInFlight()).isZero();
            assertThat(backend.network().model().openConnections()).isZero();
        }
    }

    @Test
    void theDecoratorAndThePredictorAgree() {
        NetworkProfile profile = SIMPLE.withMaxConnections(3).withHost(HostBandwidth.sustained(2_000_000));
        List<Long> sizes = List.of(1000L, 3_000_000L, 200_000L, 0L, 1_000_000L, 5000L, 750_000L, 1L, 2_000_000L, 42L);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < sizes.size(); i++) {
            keys.add("predict/" + i);
            memory.put(keys.get(i), new byte[(int) (long) sizes.get(i)]);
        }
        SimulatedNetworkBackend backend = simulated(profile);
        int concurrency = 4;
        AtomicInteger next = new AtomicInteger();
        List<CompletableFuture<ByteBuffer>> reads = new ArrayList<>();
        // A closed loop, as predict assumes: each completion sends the next request at once.
        Runnable[] sendNext = new Runnable[1];
        sendNext[0] = () -> {
            int i = next.getAndIncrement();
            if (i < keys.size()) {
                CompletableFuture<ByteBuffer> read = backend.readAllAsync(keys.get(i));
                reads.add(read);
                read.thenRun(sendNext[0]);
            }
        };
        for (int i = 0; i < concurrency; i++) {
            sendNext[0].run();
        }

        long end = clock.advanceUntilIdle();

        assertThat(reads).hasSize(sizes.size()).allMatch(read -> read.isDone() && !read.isCompletedExceptionally());
        assertThat(Duration.ofNanos(end)).isEqualTo(NetworkModel.predict(profile, sizes, concurrency));
    }

    @Test
    void metadataAndWritesPassStraightThrough() {
        SimulatedNetworkBackend backend = simulated(SIMPLE);

        backend.put("new.bin", new byte[10]);
        assertThat(backend.size("new.bin")).isEqualTo(10);
        assertThat(backend.exists("small.jpg")).isTrue();
        try (Stream<?> listed = backend.list("mb/")) {
            assertThat(listed).hasSize(8);
        }
        backend.delete("new.bin");

        assertThat(clock.nanoTime()).isZero();
        assertThat(clock.pendingTasks()).isZero();
        assertThat(backend.uri()).isEqualTo(memory.uri());
    }

    @Test
    void closingFailsReadsInFlightAndClosesTheDelegateButAViewClosesNothing() {
        SimulatedNetworkBackend backend = simulated(SIMPLE);
        backend.withMetrics(new QueryMetrics()).close();
        CompletableFuture<ByteBuffer> inFlight = backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000));

        backend.close();

        assertThatThrownBy(inFlight::join).hasCauseInstanceOf(StorageException.class)
                .hasRootCauseMessage("The simple network over " + memory.uri()
                        + " was closed with 1 simulated requests in flight");
        assertThatThrownBy(() -> memory.size("small.jpg")).isInstanceOf(IllegalStateException.class);
        clock.advanceUntilIdle();
    }

    @Test
    void profileNoneIsAPassThroughWithNoClock() {
        SimulatedNetworkBackend backend = SimulatedNetworkBackend.wrap(memory, NetworkProfiles.NONE);

        CompletableFuture<ByteBuffer> read = backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000));

        assertThat(read).isCompleted();
        assertThat(backend.network()).isNull();
        assertThat(backend.profile()).isSameAs(NetworkProfiles.NONE);
        QueryMetrics metrics = new QueryMetrics();
        backend.withMetrics(metrics).readAllAsync("small.jpg").join();
        assertThat(metrics.snapshot().requests(RequestKind.GET)).isEqualTo(1);
        assertThat(SimulatedNetworkBackend.wrap(memory, "none").network()).isNull();
    }

    @Test
    void realTimeDelaysAreAtLeastTheSimulatedTime() {
        NetworkProfile fast = SIMPLE.withFirstByteLatency(Duration.ofMillis(2)).withConnectionSetup(Duration.ZERO)
                .withConnectionBytesPerSecond(1e9).withHost(HostBandwidth.unlimited());
        try (ObjectBackend backend = SimulatedNetworkBackend.wrap(memory, fast)) {
            long start = System.nanoTime();

            TestBytes.verify("small.jpg", 0, backend.readRange("small.jpg", ByteRange.of(0, 1000)));

            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(2 * MS);
        }
    }

    private SimulatedNetworkBackend simulated(NetworkProfile profile) {
        return SimulatedNetworkBackend.builder(memory, profile).clock(clock).build();
    }

    /** Advances the clock one task at a time until {@code read} is done, and returns the time it completed. */
    private long completionTime(CompletableFuture<?> read) {
        while (!read.isDone()) {
            assertThat(clock.nextTaskNanos()).as("a pending simulation task").isPresent();
            clock.advanceTo(Math.max(clock.nanoTime(), clock.nextTaskNanos().getAsLong()));
        }
        return clock.nanoTime();
    }

    private List<Long> completionTimesOfTwoReads(NetworkProfile profile, long seed) {
        VirtualClock ownClock = new VirtualClock();
        SimulatedNetworkBackend backend = SimulatedNetworkBackend.builder(memory, profile).clock(ownClock)
                .seed(seed).build();
        List<Long> times = new ArrayList<>(List.of(-1L, -1L));
        backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000)).thenRun(() -> times.set(0, ownClock.nanoTime()));
        backend.readRangeAsync("small.jpg", ByteRange.of(0, 1000)).thenRun(() -> times.set(1, ownClock.nanoTime()));
        ownClock.advanceUntilIdle();
        return times;
    }
}
