package io.layoutbench.api.testing;

import static io.layoutbench.api.testing.FaultInjectingBackend.accessDenied;
import static io.layoutbench.api.testing.FaultInjectingBackend.delay;
import static io.layoutbench.api.testing.FaultInjectingBackend.delayUntil;
import static io.layoutbench.api.testing.FaultInjectingBackend.failWith;
import static io.layoutbench.api.testing.FaultInjectingBackend.notFound;
import static io.layoutbench.api.testing.FaultInjectingBackend.permanentError;
import static io.layoutbench.api.testing.FaultInjectingBackend.throttled;
import static io.layoutbench.api.testing.FaultInjectingBackend.transientError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.TransientStorageException;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.VirtualClock;
import io.layoutbench.api.testing.FaultInjectingBackend.Rule;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultInjectingBackendTest {

    private final StubBackend stub = new StubBackend(RequestMetrics.NONE, new ConcurrentSkipListMap<>(), true);
    private final FaultInjectingBackend backend = FaultInjectingBackend.wrap(stub);

    @BeforeEach
    void storeObjects() {
        stub.objects.put("a.bin", new byte[100]);
        stub.objects.put("l2/shard-0.tar", new byte[1000]);
    }

    @Test
    void withNoRulesEveryCallGoesThrough() {
        assertThat(backend.readRange("a.bin", ByteRange.of(0, 10)).remaining()).isEqualTo(10);
        assertThat(backend.readAll("a.bin").remaining()).isEqualTo(100);
        assertThat(backend.size("a.bin")).isEqualTo(100);
        backend.put("b.bin", new byte[3]);
        try (Stream<ObjectInfo> listed = backend.list("")) {
            assertThat(listed).hasSize(3);
        }
        backend.delete("b.bin");

        assertThat(backend.injectedFaults()).isZero();
        assertThat(backend.calls(RequestKind.RANGE_GET)).isEqualTo(1);
        assertThat(backend.uri()).isEqualTo(stub.uri());
    }

    @Test
    void failNextFailsACountOfCallsThenLetsThemThrough() {
        backend.failNext(RequestKind.RANGE_GET, 2, transientError());

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> backend.readRange("a.bin", ByteRange.of(0, 10)))
                    .isInstanceOf(TransientStorageException.class)
                    .hasMessage("Injected transient error: RANGE_GET a.bin [0, 10) on stub:/test"
                            + " (FaultInjectingBackend rule 1: RANGE_GET on any key, calls 1-2: transient error)")
                    .satisfies(e -> assertThat(((StorageException) e).isTransient()).isTrue());
        }
        assertThat(backend.readRange("a.bin", ByteRange.of(0, 10)).remaining()).isEqualTo(10);

        assertThat(backend.injectedFaults()).isEqualTo(2);
        assertThat(backend.injectedFaults(RequestKind.RANGE_GET)).isEqualTo(2);
        assertThat(backend.calls(RequestKind.RANGE_GET)).isEqualTo(3);
        assertThat(stub.calls).isEqualTo(1);
    }

    @Test
    void asynchronousReadsFailThroughTheirFuture() {
        backend.failNext(RequestKind.GET, 1, transientError());

        CompletableFuture<ByteBuffer> read = backend.readAllAsync("a.bin");

        assertThat(read).isCompletedExceptionally();
        assertThatThrownBy(read::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(TransientStorageException.class);
    }

    @Test
    void failCallFailsOnlyTheNthCall() {
        backend.failCall(RequestKind.HEAD, 3, permanentError());

        assertThat(backend.size("a.bin")).isEqualTo(100);
        assertThat(backend.exists("a.bin")).isTrue();
        assertThatThrownBy(() -> backend.size("a.bin"))
                .isExactlyInstanceOf(StorageException.class)
                .hasMessageContaining("HEAD a.bin")
                .hasMessageContaining("HEAD on any key, call 3: permanent error");
        assertThat(backend.size("a.bin")).isEqualTo(100);
        assertThat(backend.injectedFaults(RequestKind.HEAD)).isEqualTo(1);
    }

    @Test
    void failAlwaysPicksKeysAndIsPermanent() {
        backend.failAlways(RequestKind.PUT, key -> key.startsWith("ro/"), accessDenied());

        backend.put("rw/x", new byte[1]);
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> backend.put("ro/x", new byte[1]))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("PUT ro/x (1 bytes)")
                    .satisfies(e -> assertThat(((StorageException) e).isTransient()).isFalse());
        }

        assertThat(stub.objects).containsKey("rw/x").doesNotContainKey("ro/x");
        assertThat(backend.injectedFaults()).isEqualTo(3);
    }

    @Test
    void theOtherFaultsThrowWhatTheySay() {
        backend.failNext(RequestKind.RANGE_GET, 1, throttled())
                .failNext(RequestKind.GET, 1, notFound())
                .failNext(RequestKind.LIST, 1, failWith("checksum mismatch", StorageException::new))
                .failNext(RequestKind.DELETE, 1, transientError());

        assertThatThrownBy(() -> backend.readRange("a.bin", ByteRange.of(0, 1)))
                .isInstanceOf(TransientStorageException.class)
                .satisfies(e -> assertThat(((TransientStorageException) e).isThrottled()).isTrue());
        assertThatThrownBy(() -> backend.readAll("a.bin")).isInstanceOf(ObjectNotFoundException.class);
        assertThatThrownBy(() -> backend.list("l2/"))
                .hasMessageStartingWith("Injected checksum mismatch: LIST prefix 'l2/' on stub:/test");
        assertThatThrownBy(() -> backend.delete("a.bin")).isInstanceOf(TransientStorageException.class);
        assertThat(stub.objects).containsKey("a.bin");
    }

    @Test
    void rulesAreCheckedInOrderAndCountOnlyTheCallsThatReachThem() {
        backend.inject(Rule.of(transientError(), RequestKind.RANGE_GET).forKeysStartingWith("l2/").times(1))
                .inject(Rule.of(permanentError(), RequestKind.RANGE_GET).skipping(1).times(1));

        // Call 1 (l2/) is taken by rule 1, so rule 2 first sees call 2 and lets it through; call 3 is its second.
        assertThatThrownBy(() -> backend.readRange("l2/shard-0.tar", ByteRange.of(0, 1)))
                .isInstanceOf(TransientStorageException.class).hasMessageContaining("rule 1: RANGE_GET on keys under l2/");
        assertThat(backend.readRange("l2/shard-0.tar", ByteRange.of(0, 1)).remaining()).isEqualTo(1);
        assertThatThrownBy(() -> backend.readRange("a.bin", ByteRange.of(0, 1)))
                .isExactlyInstanceOf(StorageException.class).hasMessageContaining("rule 2: RANGE_GET on any key, call 2");
        assertThat(backend.readRange("a.bin", ByteRange.of(0, 1)).remaining()).isEqualTo(1);
    }

    @Test
    void aRuleWithoutKindsAppliesToEveryOperation() {
        backend.inject(Rule.of(transientError()).forKey("a.bin"));

        assertThatThrownBy(() -> backend.size("a.bin")).hasMessageContaining("any request on key a.bin");
        assertThatThrownBy(() -> backend.delete("a.bin")).isInstanceOf(TransientStorageException.class);
        assertThat(backend.size("l2/shard-0.tar")).isEqualTo(1000);

        backend.clearRules();
        assertThat(backend.size("a.bin")).isEqualTo(100);
    }

    @Test
    void aDelayedReadCompletesWhenTheGateOpens() {
        CompletableFuture<Void> gate = new CompletableFuture<>();
        backend.delayNext(RequestKind.RANGE_GET, 1, gate);

        CompletableFuture<ByteBuffer> slow = backend.readRangeAsync("a.bin", ByteRange.of(0, 10));
        CompletableFuture<ByteBuffer> fast = backend.readRangeAsync("a.bin", ByteRange.of(0, 20));

        assertThat(slow).isNotDone();
        assertThat(fast).isCompleted();
        gate.complete(null);
        assertThat(slow.join().remaining()).isEqualTo(10);
        assertThat(backend.injectedFaults()).isEqualTo(1);
    }

    @Test
    void aGateThatFailsFailsTheRead() {
        CompletableFuture<Void> gate = new CompletableFuture<>();
        backend.failNext(RequestKind.GET, 1, delayUntil(gate));

        CompletableFuture<ByteBuffer> read = backend.readAllAsync("a.bin");
        gate.completeExceptionally(new TransientStorageException("timed out while slow"));

        assertThatThrownBy(read::join).hasCauseInstanceOf(TransientStorageException.class)
                .hasRootCauseMessage("timed out while slow");
    }

    @Test
    void aDelayOnAVirtualClockEndsExactlyWhenTheClockGetsThere() {
        VirtualClock clock = new VirtualClock();
        backend.failNext(RequestKind.RANGE_GET, 1, delay(Duration.ofMillis(50), clock));

        CompletableFuture<ByteBuffer> read = backend.readRangeAsync("a.bin", ByteRange.of(0, 10));

        clock.advanceTo(Duration.ofMillis(50).toNanos() - 1);
        assertThat(read).isNotDone();
        clock.advanceBy(1);
        assertThat(read).isCompleted();
    }

    @Test
    void aDelayedSynchronousCallBlocksUntilReleasedFromAnotherThread() throws Exception {
        CompletableFuture<Void> gate = new CompletableFuture<>();
        backend.delayNext(RequestKind.PUT, 1, gate);

        CompletableFuture<Void> put = CompletableFuture.runAsync(() -> backend.put("slow.bin", new byte[5]));
        assertThat(put).isNotDone();   // cannot finish before the gate opens, whatever the scheduling
        gate.complete(null);

        put.get(10, TimeUnit.SECONDS);
        assertThat(stub.objects).containsKey("slow.bin");
    }

    @Test
    void aDownBackendFailsEverythingAsTransientNamingItselfUntilItIsUp() {
        backend.down();
        assertThat(backend.isDown()).isTrue();

        assertThatThrownBy(() -> backend.readRange("a.bin", ByteRange.of(0, 1)))
                .isInstanceOf(TransientStorageException.class)
                .hasMessage("Backend stub:/test is down (FaultInjectingBackend.down()): cannot RANGE_GET a.bin [0, 1)");
        assertThatThrownBy(() -> backend.readAll("a.bin")).isInstanceOf(TransientStorageException.class);
        assertThatThrownBy(() -> backend.size("a.bin")).hasMessageContaining("is down");
        assertThatThrownBy(() -> backend.put("x", new byte[1])).hasMessageContaining("is down");
        assertThatThrownBy(() -> backend.list("")).hasMessageContaining("is down");
        assertThatThrownBy(() -> backend.delete("a.bin")).hasMessageContaining("is down");
        assertThat(backend.injectedFaults()).isEqualTo(6);
        assertThat(stub.calls).isZero();

        backend.up();
        assertThat(backend.isDown()).isFalse();
        assertThat(backend.readRange("a.bin", ByteRange.of(0, 1)).remaining()).isEqualTo(1);
    }

    @Test
    void metricsViewsShareRulesAndCountOnlyWhatGetsThrough() {
        backend.failNext(RequestKind.RANGE_GET, 1, transientError());
        QueryMetrics metrics = new QueryMetrics();

        try (FaultInjectingBackend view = backend.withMetrics(metrics)) {
            assertThatThrownBy(() -> view.readRange("a.bin", ByteRange.of(0, 10)))
                    .isInstanceOf(TransientStorageException.class);
            assertThat(view.readRange("a.bin", ByteRange.of(0, 10)).remaining()).isEqualTo(10);
            view.down();
        }

        assertThat(metrics.snapshot().requests(RequestKind.RANGE_GET)).isEqualTo(1);
        assertThat(backend.injectedFaults()).isEqualTo(1);
        assertThat(backend.isDown()).isTrue();
        assertThat(stub.closed).isFalse();
        backend.close();
        assertThat(stub.closed).isTrue();
    }

    @Test
    void rulesRejectNonsense() {
        assertThatThrownBy(() -> Rule.of(transientError()).times(0))
                .hasMessage("A fault rule must act at least once, got times = 0");
        assertThatThrownBy(() -> Rule.of(transientError()).skipping(-1))
                .hasMessage("A fault rule's skip must be >= 0, got -1");
        assertThatThrownBy(() -> backend.failCall(RequestKind.GET, 0, transientError()))
                .hasMessage("Calls are counted from 1, got nth = 0");
        assertThatThrownBy(() -> delay(Duration.ofMillis(-1), new VirtualClock()))
                .hasMessageContaining("must be >= 0");
        assertThat(Rule.of(notFound(), RequestKind.GET, RequestKind.HEAD).skipping(2))
                .hasToString("GET/HEAD on any key, every call from 3: not found (404)");
        assertThat(transientError().isDelay()).isFalse();
        assertThat(delayUntil(new CompletableFuture<>()).isDelay()).isTrue();
    }

    /** Just enough of a backend to decorate: a sorted map, counting calls; metrics views share the map. */
    private static final class StubBackend implements ObjectBackend {
        final RequestMetrics metrics;
        final Map<String, byte[]> objects;
        final boolean ownsObjects;
        int calls;
        boolean closed;

        StubBackend(RequestMetrics metrics, Map<String, byte[]> objects, boolean ownsObjects) {
            this.metrics = metrics;
            this.objects = objects;
            this.ownsObjects = ownsObjects;
        }

        @Override
        public URI uri() {
            return URI.create("stub:/test");
        }

        @Override
        public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
            calls++;
            metrics.onRequestStarted(RequestKind.RANGE_GET);
            byte[] data = objects.get(key);
            if (data == null) {
                return CompletableFuture.failedFuture(new ObjectNotFoundException("No object " + key));
            }
            metrics.onBytesReceived(RequestKind.RANGE_GET, range.length());
            return CompletableFuture.completedFuture(
                    ByteBuffer.wrap(data, (int) range.offset(), (int) range.length()).slice().asReadOnlyBuffer());
        }

        @Override
        public long size(String key) {
            calls++;
            byte[] data = objects.get(key);
            if (data == null) {
                throw new ObjectNotFoundException("No object " + key);
            }
            return data.length;
        }

        @Override
        public void put(String key, InputStream data, long length) {
            calls++;
            try {
                objects.put(key, data.readNBytes((int) length));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Stream<ObjectInfo> list(String prefix) {
            calls++;
            return List.copyOf(objects.entrySet()).stream().filter(e -> e.getKey().startsWith(prefix))
                    .map(e -> new ObjectInfo(e.getKey(), e.getValue().length));
        }

        @Override
        public void delete(String key) {
            calls++;
            objects.remove(key);
        }

        @Override
        public ObjectBackend withMetrics(RequestMetrics viewMetrics) {
            return new StubBackend(viewMetrics, objects, false);
        }

        @Override
        public void close() {
            // A metrics view leaves the backend open, as the SPI says.
            closed |= ownsObjects;
        }
    }
}
