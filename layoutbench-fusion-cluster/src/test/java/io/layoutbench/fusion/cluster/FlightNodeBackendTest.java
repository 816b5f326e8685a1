package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.TransientStorageException;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.testing.FaultInjectingBackend;
import io.layoutbench.api.testing.TestBytes;
import io.layoutbench.backend.memory.MemoryBackend;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the flight backend adds to the contract: discovery, errors, deadlines, dead and restarted nodes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FlightNodeBackendTest {

    private final FaultInjectingBackend objects = FaultInjectingBackend.wrap(new MemoryBackend());
    private StorageNodeServer server;
    private FlightNodeBackend backend;

    @BeforeEach
    void start() {
        server = StorageNodeServer.start(objects, StorageNodeServer.Options.defaults());
        backend = new FlightNodeBackend(server.uri());
    }

    @AfterEach
    void stop() {
        backend.close();
        server.close();
        assertThat(backend.allocator().getAllocatedMemory()).isZero();
        assertThat(server.allocator().getAllocatedMemory()).isZero();
    }

    @Test
    void isOpenedByUriThroughItsProvider() {
        objects.put("a/b.bin", TestBytes.of("a/b.bin", 100));

        try (ObjectBackend opened = ObjectBackends.open(server.uri().toString(),
                Map.of("callTimeout", "2s", "ioThreads", "4", "maxAttempts", "2"), RequestMetrics.NONE)) {
            assertThat(opened).isInstanceOf(FlightNodeBackend.class);
            assertThat(opened.uri()).isEqualTo(server.uri());
            FlightNodeBackend.Options options = ((FlightNodeBackend) opened).options();
            assertThat(options.callTimeout()).isEqualTo(Duration.ofSeconds(2));
            assertThat(options.ioThreads()).isEqualTo(4);
            assertThat(options.retryPolicy().maxAttempts()).isEqualTo(2);
            TestBytes.verify("a/b.bin", 10, opened.readRange("a/b.bin", ByteRange.of(10, 50)));
        }
        assertThat(ObjectBackends.schemes()).contains("flight");
        assertThat(server.uri().toString()).isEqualTo("flight://127.0.0.1:" + server.port());
    }

    @Test
    void unknownAndMalformedPropertiesAreRejected() {
        assertThatThrownBy(() -> ObjectBackends.open(server.uri().toString(), Map.of("timeout", "1s"),
                RequestMetrics.NONE))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("[timeout]")
                .hasMessageContaining("callTimeout");
        assertThatThrownBy(() -> ObjectBackends.open(server.uri().toString(), Map.of("callTimeout", "soon"),
                RequestMetrics.NONE))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("callTimeout")
                .hasMessageContaining("500ms");
    }

    @ParameterizedTest
    @ValueSource(strings = {"flight://127.0.0.1", "flight://127.0.0.1:4700/data", "flight:127.0.0.1:4700",
            "flight://127.0.0.1:4700?x=1", "flight://user@127.0.0.1:4700", "file:/tmp/x"})
    void urisOtherThanHostAndPortAreRejected(String uri) {
        assertThatThrownBy(() -> new FlightNodeBackend(URI.create(uri)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flight://host:port")
                .hasMessageContaining(uri);
    }

    @Test
    void errorsNameTheNodeTheKeyAndTheRange() {
        objects.put("short.bin", new byte[100]);
        String node = server.uri().toString();

        assertThatThrownBy(() -> backend.readRange("missing.bin", ByteRange.of(5, 10)))
                .isInstanceOf(ObjectNotFoundException.class)
                .hasMessageStartingWith("GET " + node + " missing.bin [5, 15): ")
                .hasMessageContaining("No object missing.bin in " + objects.uri());
        assertThatThrownBy(() -> backend.size("missing.bin"))
                .isInstanceOf(ObjectNotFoundException.class).hasMessageStartingWith("HEAD " + node + " missing.bin");
        assertThatThrownBy(() -> backend.readRange("short.bin", ByteRange.of(50, 2 << 20)))
                .isInstanceOf(RangeNotSatisfiableException.class)
                .hasMessage("Cannot read range [50, " + (50 + (2 << 20)) + ") of short.bin: object is 100 bytes")
                .isInstanceOfSatisfying(RangeNotSatisfiableException.class,
                        e -> assertThat(e.objectSize()).isEqualTo(100))
                .cause().as("the request and the node, under the contract's message")
                .hasMessageStartingWith("GET " + node + " short.bin [50, " + (50 + (2 << 20)) + "): ");
        objects.failNext(RequestKind.RANGE_GET, 1, FaultInjectingBackend.permanentError());
        assertThatThrownBy(() -> backend.readRange("short.bin", ByteRange.of(0, 10)))
                .isInstanceOf(StorageException.class).isNotInstanceOf(TransientStorageException.class)
                .hasMessageStartingWith("GET " + node + " short.bin [0, 10): ");
    }

    @Test
    void transientNodeFaultsAreRetriedAndPermanentOnesAreNot() {
        objects.put("flaky.bin", TestBytes.of("flaky.bin", 1000));
        objects.failNext(RequestKind.RANGE_GET, 2, FaultInjectingBackend.transientError());
        QueryMetrics metrics = new QueryMetrics();

        try (ObjectBackend counted = backend.withMetrics(metrics)) {
            TestBytes.verify("flaky.bin", 100, counted.readRange("flaky.bin", ByteRange.of(100, 200)));
            MetricsSnapshot afterRetries = metrics.snapshot();
            assertThat(afterRetries.requests(RequestKind.RANGE_GET)).isEqualTo(3);
            assertThat(afterRetries.totalRetries()).isEqualTo(2);
            assertThat(afterRetries.bytesReceived()).isEqualTo(200);

            assertThatThrownBy(() -> counted.size("absent.bin")).isInstanceOf(ObjectNotFoundException.class);
            assertThat(metrics.snapshot().requests(RequestKind.HEAD)).isOne();
            assertThat(metrics.snapshot().totalRetries()).isEqualTo(2);
        }
    }

    @Test
    void readsReturnAtOnceAndCompleteWhenTheNodeAnswers() {
        objects.put("slow.bin", TestBytes.of("slow.bin", 3000));
        CompletableFuture<Void> gate = new CompletableFuture<>();
        objects.delayNext(RequestKind.RANGE_GET, 1, gate);

        CompletableFuture<ByteBuffer> read = backend.readRangeAsync("slow.bin", ByteRange.of(1000, 500));

        assertThat(read).isNotDone();
        gate.complete(null);
        TestBytes.verify("slow.bin", 1000, read.join());
    }

    @Test
    void aNodeThatDoesNotAnswerFailsAtTheDeadline() {
        objects.put("hung.bin", new byte[10]);
        CompletableFuture<Void> gate = new CompletableFuture<>();
        objects.delayNext(RequestKind.RANGE_GET, 1, gate);
        QueryMetrics metrics = new QueryMetrics();
        try (FlightNodeBackend quick = new FlightNodeBackend(server.uri(),
                FlightNodeBackend.Options.defaults().withCallTimeout(Duration.ofMillis(300)), metrics)) {
            assertThatThrownBy(() -> quick.readRange("hung.bin", ByteRange.of(0, 10)))
                    .isInstanceOf(TransientStorageException.class)
                    .hasMessageContaining("GET " + server.uri() + " hung.bin [0, 10)")
                    .hasMessageContaining("no answer within the deadline of 300 ms");

            assertThat(metrics.snapshot().requests(RequestKind.RANGE_GET)).as("no retry after the time limit")
                    .isOne();
            gate.complete(null);
            assertThat(quick.readRange("hung.bin", ByteRange.of(0, 10)).remaining()).isEqualTo(10);
        }
    }

    @Test
    void aStoppedNodeFailsFastAndARestartedOneServesAgain() {
        objects.put("kept.bin", TestBytes.of("kept.bin", 2000));
        int port = server.port();
        server.close();

        // What "fast" means is asserted as behaviour (refused, not timed out; three attempts), not as a time.
        assertThatThrownBy(() -> backend.readRange("kept.bin", ByteRange.of(0, 10)))
                .isInstanceOf(TransientStorageException.class)
                .hasMessageContaining("GET " + server.uri() + " kept.bin [0, 10)")
                .hasMessageContaining("the node could not be reached")
                .hasMessageContaining("gave up after 3 attempts");
        assertThatThrownBy(() -> backend.put("new.bin", new byte[10]))
                .isInstanceOf(TransientStorageException.class).hasMessageContaining("PUT " + server.uri());

        server = Restarts.startOn(objects, port);
        TestBytes.verify("kept.bin", 0, backend.readRange("kept.bin", ByteRange.of(0, 10)));
        backend.put("new.bin", new byte[10]);
        assertThat(objects.size("new.bin")).isEqualTo(10);
    }

    @Test
    void aClosedBackendRefusesCallsAndItsViewsToo() {
        ObjectBackend view = backend.withMetrics(new QueryMetrics());
        view.close();
        objects.put("x", new byte[1]);
        assertThat(backend.size("x")).isOne();

        backend.close();

        assertThatThrownBy(() -> backend.size("x")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(server.uri().toString()).hasMessageContaining("closed");
        assertThatThrownBy(() -> view.readRangeAsync("x", ByteRange.of(0, 1)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void noArrowMemoryIsHeldBetweenCalls() {
        backend.put("big.bin", TestBytes.stream("big.bin", 5 << 20), 5 << 20);
        TestBytes.verify("big.bin", 0, backend.readAll("big.bin"));
        assertThatThrownBy(() -> backend.readRange("big.bin", ByteRange.of(5 << 20, 1)))
                .isInstanceOf(RangeNotSatisfiableException.class);

        assertThat(backend.allocator().getAllocatedMemory()).isZero();
        assertThat(server.allocator().getAllocatedMemory()).isZero();
    }

    @Test
    void putsRunOnTheCallersThread() {
        List<Thread> readers = new CopyOnWriteArrayList<>();
        InputStream data = new ByteArrayInputStream(TestBytes.of("mine", 3 << 20)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                readers.add(Thread.currentThread());
                return super.read(b, off, len);
            }
        };

        backend.put("mine.bin", data, 3 << 20);

        assertThat(readers).isNotEmpty().containsOnly(Thread.currentThread());
        TestBytes.verify("mine", 0, objects.readAll("mine.bin"));
    }

    @Test
    void anInterruptedPutIsCancelledStoresNothingAndKeepsTheInterrupt() {
        objects.put("kept.bin", TestBytes.of("old", 100));
        int size = 4 << 20;
        AtomicLong given = new AtomicLong();
        InputStream data = new ByteArrayInputStream(TestBytes.of("new", size)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                if (given.get() >= 1 << 20) {
                    Thread.currentThread().interrupt();   // the caller is interrupted midway
                }
                int read = super.read(b, off, len);
                given.addAndGet(Math.max(read, 0));
                return read;
            }
        };

        try {
            assertThatThrownBy(() -> backend.put("kept.bin", data, size))
                    .isInstanceOf(StorageException.class)
                    .hasMessageStartingWith("PUT " + server.uri() + " kept.bin (" + size + " bytes): ")
                    .hasMessageContaining("interrupted");
            assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is kept").isTrue();
        } finally {
            Thread.interrupted();
        }
        // The node stores a put only once its stream ended whole: this one was cancelled.
        assertThat(objects.size("kept.bin")).isEqualTo(100);
    }

    @Test
    void listingPagesFollowTheBackendsOrderAcrossPageBoundaries() {
        // UTF-8 byte order: 'a' < U+E000 < U+FFFD < U+1F600; UTF-16 (String.compareTo) puts U+1F600 before U+E000.
        // Pages of 2 end on keys of either kind; none is lost or repeated, whichever order the backend lists in.
        List<String> keys = List.of("k/a", "k/\uE000", "k/\uFFFD", "k/\uD83D\uDE00", "k/\uD83D\uDE01",
                "k/\uE001", "k/\uD83D\uDE02");
        keys.forEach(key -> objects.put(key, new byte[1]));
        List<String> backendOrder;
        try (Stream<ObjectInfo> direct = objects.list("k/")) {
            backendOrder = direct.map(ObjectInfo::key).toList();
        }
        assertThat(backendOrder).containsExactlyInAnyOrderElementsOf(keys);
        for (int pageSize = 1; pageSize <= 3; pageSize++) {
            try (StorageNodeServer paged = StorageNodeServer.start(objects, StorageNodeServer.Options.defaults(),
                    pageSize);
                 FlightNodeBackend client = new FlightNodeBackend(paged.uri());
                 Stream<ObjectInfo> listed = client.list("k/")) {
                assertThat(listed.map(ObjectInfo::key)).as("pages of %d", pageSize)
                        .containsExactlyElementsOf(backendOrder);
            }
        }
    }

    @Test
    void theFirstByteIsTimedWhenTheSchemaArrivesBeforeAnyBody() {
        objects.put("timed.bin", TestBytes.of("timed", 3 << 20));
        List<String> events = new CopyOnWriteArrayList<>();
        RequestMetrics recording = new RequestMetrics() {
            @Override
            public void onRequestStarted(RequestKind kind) {
            }

            @Override
            public void onFirstByte(RequestKind kind, long nanosSinceStart) {
                events.add("first byte");
            }

            @Override
            public void onBytesReceived(RequestKind kind, long bytes) {
                events.add("body");
            }
        };

        backend.withMetrics(recording).readAll("timed.bin");

        assertThat(events).first().isEqualTo("first byte");
        assertThat(events).filteredOn("body"::equals).hasSize(3);
    }
}
