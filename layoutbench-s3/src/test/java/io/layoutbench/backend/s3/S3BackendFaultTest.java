package io.layoutbench.backend.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RetryPolicy;
import io.layoutbench.api.backend.TransientStorageException;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.testing.TestBytes;
import io.layoutbench.backend.s3.FaultInjectingProxy.Request;
import io.layoutbench.backend.s3.FaultInjectingProxy.ResetAfterBodyBytes;
import io.layoutbench.backend.s3.FaultInjectingProxy.ResetBeforeResponse;
import io.layoutbench.backend.s3.FaultInjectingProxy.Stall;
import io.layoutbench.backend.s3.FaultInjectingProxy.StallAfterBodyBytes;
import io.layoutbench.backend.s3.FaultInjectingProxy.Status;

import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Faults injected over real HTTP: a {@link FaultInjectingProxy} between the backend and s3proxy answers chosen
 * requests with 503 SlowDown or 500, resets connections before the response or in the middle of its body, or
 * stalls until the backend's attempt timeout fires. Reads must still return the right bytes, retries must happen
 * and be counted, a permanent error must surface at once with a clear message, and nothing may hang.
 *
 * <p>The CRT client retries 500, 503 and broken connections once inside a request, invisibly (see
 * {@link S3Backend}); so a fault makes the backend retry only when it hits both of those HTTP requests, and the
 * tests inject faults in pairs. No sleeps: a stall ends when the backend's short attempt timeout fires.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class S3BackendFaultTest {

    private static final Duration ATTEMPT_TIMEOUT = Duration.ofMillis(600);
    private static final RetryPolicy POLICY = new RetryPolicy(4, Duration.ofMillis(5), Duration.ofMillis(40),
            Duration.ofSeconds(20), ATTEMPT_TIMEOUT);
    private static final int SIZE = 300_000;

    private static FaultInjectingProxy proxy;

    private URI uri;
    private ObjectBackend direct;
    private S3Backend viaProxy;
    private QueryMetrics metrics;
    private ObjectBackend counted;

    @BeforeAll
    static void startProxy() {
        proxy = FaultInjectingProxy.start(SharedS3Server.get().endpoint());
    }

    @AfterAll
    static void stopProxy() {
        proxy.close();
    }

    @BeforeEach
    void openBackends() {
        uri = SharedS3Server.freshUri("faults");
        direct = new S3Backend(uri, SharedS3Server.options(), RequestMetrics.NONE);
        direct.put("data.bin", TestBytes.of("data.bin", SIZE));
        viaProxy = new S3Backend(uri, SharedS3Server.options(proxy.endpoint()).withRetryPolicy(POLICY),
                RequestMetrics.NONE);
        metrics = new QueryMetrics();
        counted = viaProxy.withMetrics(metrics);
        proxy.clearFaults();
        proxy.clearRequests();
    }

    @AfterEach
    void closeBackends() {
        proxy.clearFaults();
        viaProxy.close();
        direct.close();
    }

    private static Predicate<Request> objectGets() {
        return Request::isObjectGet;
    }

    private long wireRequests(String method) {
        return proxy.requests().stream().filter(r -> r.method().equals(method)).count();
    }

    private void assertReadsRight(ByteRange range) {
        ByteBuffer got = counted.readRange("data.bin", range);
        assertThat(got.remaining()).isEqualTo((int) range.length());
        TestBytes.verify("data.bin", range.offset(), got);
    }

    // ---- without faults, the counts are exact ----------------------------------------------------------------

    @Test
    void withoutFaultsEveryRangeIsOneRequestAndTheMetricsMatchTheWire() {
        S3Backend big = new S3Backend(uri, SharedS3Server.options(proxy.endpoint()), RequestMetrics.NONE);
        int large = 20 << 20;
        try (big) {
            direct.put("large.bin", TestBytes.stream("large.bin", large), large);
            ObjectBackend view = big.withMetrics(metrics);
            long bytes = 0;
            for (int i = 0; i < 20; i++) {
                ByteRange range = ByteRange.of(i * 7919L, 100_000);
                TestBytes.verify("large.bin", range.offset(), view.readRange("large.bin", range));
                bytes += range.length();
            }
            // 12 MiB is more than one 8 MiB part: two GETs.
            ByteRange twoParts = ByteRange.of(1_000_000, 12 << 20);
            TestBytes.verify("large.bin", twoParts.offset(), view.readRange("large.bin", twoParts));
            bytes += twoParts.length();

            MetricsSnapshot snapshot = metrics.snapshot();
            assertThat(snapshot.requests(RequestKind.RANGE_GET)).isEqualTo(22);
            assertThat(wireRequests("GET")).isEqualTo(22);
            assertThat(snapshot.bytesReceived()).isEqualTo(bytes);
            assertThat(snapshot.totalRetries()).isZero();
            assertThat(snapshot.firstByteCount()).isEqualTo(22);
            assertThat(proxy.requests()).allSatisfy(r -> assertThat(r.range()).startsWith("bytes="));
        }
    }

    // ---- transient faults are retried, and counted ------------------------------------------------------------

    @Test
    void slowDownIsRetriedAndCountedAsAThrottledRetry() {
        proxy.inject(objectGets(), new Status(503, "SlowDown"), new Status(503, "SlowDown"));

        assertReadsRight(ByteRange.of(1000, 50_000));

        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.requests(RequestKind.RANGE_GET)).isEqualTo(2);
        assertThat(snapshot.retries().get(RequestKind.RANGE_GET)).isEqualTo(1);
        assertThat(snapshot.bytesReceived()).isEqualTo(50_000);
        assertThat(snapshot.failures()).isEmpty();
        // Both 503s reached the wire (the first attempt's two HTTP requests), then the retry.
        assertThat(wireRequests("GET")).isEqualTo(3);
    }

    @Test
    void internalErrorsAreRetried() {
        proxy.inject(objectGets(), new Status(500, "InternalError"), new Status(500, "InternalError"),
                new Status(500, "InternalError"), new Status(500, "InternalError"));

        assertReadsRight(ByteRange.of(0, SIZE));

        assertThat(metrics.snapshot().retries().get(RequestKind.RANGE_GET)).isEqualTo(2);
        assertThat(wireRequests("GET")).isEqualTo(5);
    }

    @Test
    void aConnectionResetInTheMiddleOfTheBodyIsRetried() {
        proxy.inject(objectGets(), new ResetAfterBodyBytes(20_000), new ResetAfterBodyBytes(20_000));

        assertReadsRight(ByteRange.of(10, 200_000));

        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.retries().get(RequestKind.RANGE_GET)).isEqualTo(1);
        // Bytes of a broken response that reached the backend were received, so they count.
        assertThat(snapshot.bytesReceived()).isBetween(200_000L, 240_000L);
        assertThat(wireRequests("GET")).isEqualTo(3);
    }

    @Test
    void aConnectionResetBeforeTheResponseIsRetried() {
        proxy.inject(objectGets(), new ResetBeforeResponse(), new ResetBeforeResponse());

        assertReadsRight(ByteRange.of(5, 5));

        assertThat(metrics.snapshot().retries().get(RequestKind.RANGE_GET)).isEqualTo(1);
    }

    @Test
    void aStalledResponseTimesOutAndIsRetried() {
        proxy.inject(objectGets(), new Stall());

        long start = System.nanoTime();
        assertReadsRight(ByteRange.of(100, 1000));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(tookMillis).isGreaterThanOrEqualTo(ATTEMPT_TIMEOUT.toMillis()).isLessThan(10_000);
        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.requests(RequestKind.RANGE_GET)).isEqualTo(2);
        assertThat(snapshot.retries().get(RequestKind.RANGE_GET)).isEqualTo(1);
        // The timed-out request was cancelled: the CRT did not retry it behind our back.
        assertThat(wireRequests("GET")).isEqualTo(2);
    }

    @Test
    void aBodyThatStallsHalfwayTimesOutAndIsRetriedWithoutMixingBytes() {
        proxy.inject(objectGets(), new StallAfterBodyBytes(30_000));

        assertReadsRight(ByteRange.of(0, 100_000));

        assertThat(metrics.snapshot().retries().get(RequestKind.RANGE_GET)).isEqualTo(1);
    }

    @Test
    void wholeReadsSizesAndListingsAreRetriedToo() {
        int faultsBefore = proxy.faultsApplied();
        proxy.inject(r -> r.method().equals("HEAD"), new Status(503, "SlowDown"), new Status(503, "SlowDown"));
        proxy.inject(r -> r.target().contains("list-type"), new Status(500, "InternalError"),
                new Status(500, "InternalError"));
        proxy.inject(objectGets(), new ResetAfterBodyBytes(1000), new ResetAfterBodyBytes(1000));

        assertThat(counted.size("data.bin")).isEqualTo(SIZE);
        List<ObjectInfo> listed;
        try (Stream<ObjectInfo> stream = counted.list("")) {
            listed = stream.collect(Collectors.toList());
        }
        ByteBuffer all = counted.readAll("data.bin");

        assertThat(listed).containsExactly(new ObjectInfo("data.bin", SIZE));
        TestBytes.verify("data.bin", 0, all);
        assertThat(all.remaining()).isEqualTo(SIZE);
        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.retries()).containsEntry(RequestKind.HEAD, 1L).containsEntry(RequestKind.LIST, 1L)
                .containsEntry(RequestKind.GET, 1L);
        assertThat(proxy.faultsApplied() - faultsBefore).isEqualTo(6);
    }

    // ---- giving up --------------------------------------------------------------------------------------------

    @Test
    void persistentThrottlingGivesUpAfterTheAttemptsWithAClearMessage() {
        proxy.injectAlways(objectGets(), new Status(503, "SlowDown"));

        assertThatThrownBy(() -> counted.readRange("data.bin", ByteRange.of(1024, 1024)))
                .isInstanceOf(TransientStorageException.class)
                .satisfies(e -> assertThat(((TransientStorageException) e).isThrottled()).isTrue())
                .hasMessageContaining("GET s3://" + SharedS3Server.BUCKET + "/" + viaProxy.prefix() + "data.bin")
                .hasMessageContaining("[1024, 2048)")
                .hasMessageContaining("throttl")
                .hasMessageContaining("gave up after 4 attempts");

        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.requests(RequestKind.RANGE_GET)).isEqualTo(4);
        assertThat(snapshot.retries().get(RequestKind.RANGE_GET)).isEqualTo(3);
        assertThat(snapshot.failures().get(RequestKind.RANGE_GET)).isEqualTo(1);
        assertThat(wireRequests("GET")).isEqualTo(8);
    }

    @Test
    void aPermanentErrorIsNotRetriedAndSaysWhatFailed() {
        proxy.inject(objectGets(), new Status(403, "AccessDenied"));

        assertThatThrownBy(() -> counted.readRange("data.bin", ByteRange.of(0, 10)))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("GET s3://" + SharedS3Server.BUCKET + "/" + viaProxy.prefix() + "data.bin [0, 10)")
                .hasMessageContaining("403 AccessDenied");

        assertThat(wireRequests("GET")).isEqualTo(1);
        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.totalRetries()).isZero();
        assertThat(snapshot.failures().get(RequestKind.RANGE_GET)).isEqualTo(1);
    }

    @Test
    void aMissingObjectIsNotRetried() {
        assertThatThrownBy(() -> counted.readRange("missing.bin", ByteRange.of(0, 10)))
                .isInstanceOf(ObjectNotFoundException.class)
                .hasMessageContaining("missing.bin")
                .hasMessageContaining("404");

        assertThat(wireRequests("GET")).isEqualTo(1);
        assertThat(metrics.snapshot().totalRetries()).isZero();
    }

    @Test
    void retriesStopAtTheTimeLimitAndNothingHangs() {
        RetryPolicy bounded = new RetryPolicy(50, Duration.ofMillis(5), Duration.ofMillis(20),
                Duration.ofMillis(900), Duration.ofMillis(250));
        proxy.injectAlways(objectGets(), new Stall());
        try (S3Backend stalled = new S3Backend(uri, SharedS3Server.options(proxy.endpoint()).withRetryPolicy(bounded),
                RequestMetrics.NONE)) {
            QueryMetrics counts = new QueryMetrics();
            long start = System.nanoTime();

            assertThatThrownBy(() -> stalled.withMetrics(counts).readRange("data.bin", ByteRange.of(0, 10)))
                    .isInstanceOf(TransientStorageException.class)
                    .hasMessageContaining("no complete response within 250 ms")
                    .hasMessageContaining("gave up after");

            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(tookMillis).isLessThan(5_000);
            long attempts = counts.snapshot().requests(RequestKind.RANGE_GET);
            assertThat(attempts).isBetween(2L, 5L);
            assertThat(wireRequests("GET")).isEqualTo(attempts);
        }
        proxy.clearFaults();
    }

    /**
     * A hedged read's loser: its GET is held unanswered, and the read is cancelled. Its connection closes at once,
     * long before its 30 s attempt timeout, and it is not retried.
     */
    @Test
    void aCancelledReadClosesItsConnectionAtOnceAndIsNotRetried() {
        try (S3Backend patient = new S3Backend(uri, SharedS3Server.options(proxy.endpoint())
                .withRetryPolicy(POLICY.withAttemptTimeout(Duration.ofSeconds(30))), RequestMetrics.NONE)) {
            proxy.inject(objectGets(), new Stall());
            CompletableFuture<ByteBuffer> loser = patient.withMetrics(metrics).readRangeAsync("data.bin",
                    ByteRange.of(0, 100_000));
            awaitUntil(() -> wireRequests("GET") == 1, "the GET to reach the proxy");
            int open = proxy.openSockets();

            loser.cancel(false);

            awaitUntil(() -> proxy.openSockets() < open, "the cancelled read's connection to close");
            assertReadsRight(ByteRange.of(0, 100_000));
            MetricsSnapshot snapshot = metrics.snapshot();
            assertThat(snapshot.requests(RequestKind.RANGE_GET)).isEqualTo(2);
            assertThat(snapshot.totalRetries()).isZero();
            assertThat(snapshot.failures()).isEmpty();
            assertThat(wireRequests("GET")).isEqualTo(2);
        }
    }

    /** Waits, without sleeping, for {@code condition}: at most 10 s, a third of the attempt timeout it beats. */
    private static void awaitUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Waited 10 s for " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Test
    void closingTheBackendDuringAStalledReadDoesNotHang() {
        S3Backend patient = new S3Backend(uri, SharedS3Server.options(proxy.endpoint())
                .withRetryPolicy(POLICY.withAttemptTimeout(Duration.ofSeconds(30))), RequestMetrics.NONE);
        proxy.inject(objectGets(), new Stall());
        CompletableFuture<ByteBuffer> read = patient.readRangeAsync("data.bin", ByteRange.of(0, 10));

        long start = System.nanoTime();
        patient.close();

        assertThat(read).failsWithin(Duration.ofSeconds(5));
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
    }
}
