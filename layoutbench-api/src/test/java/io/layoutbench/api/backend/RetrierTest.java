package io.layoutbench.api.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

/** The retry helper on a fake clock and scheduler: which failures are retried, how long it waits, what it counts. */
class RetrierTest {

    private static final RetryPolicy POLICY = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(1),
            Duration.ofSeconds(10), Duration.ofSeconds(5));
    private static final Function<Throwable, StorageException> AS_IS = t -> (StorageException) t;

    /** Time moves only when a delayed task runs; tasks run in order, one at a time. */
    private final class FakeTime implements Retrier.Scheduler {
        long now;
        final List<Long> delays = new ArrayList<>();
        final Deque<Runnable> queue = new ArrayDeque<>();

        @Override
        public void schedule(Runnable task, long delayNanos) {
            delays.add(delayNanos);
            queue.add(() -> {
                now += delayNanos;
                task.run();
            });
        }

        void runAll() {
            while (!queue.isEmpty()) {
                queue.poll().run();
            }
        }
    }

    private final FakeTime time = new FakeTime();
    private final QueryMetrics metrics = new QueryMetrics();

    private Retrier retrier(RetryPolicy policy, double jitter) {
        return new Retrier(policy, time, () -> time.now, () -> jitter);
    }

    /** Attempts that fail with the given exceptions, then succeed with "ok". */
    private static java.util.function.Supplier<CompletableFuture<String>> failing(AtomicInteger calls,
            RuntimeException... failures) {
        return () -> {
            int call = calls.getAndIncrement();
            return call < failures.length ? CompletableFuture.failedFuture(failures[call])
                    : CompletableFuture.completedFuture("ok");
        };
    }

    private static TransientStorageException slowDown() {
        return new TransientStorageException("503 SlowDown", null, true);
    }

    @Test
    void backoffCapsDoubleFromTheBaseUpToTheMaximum() {
        assertThat(POLICY.backoffCap(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(POLICY.backoffCap(2)).isEqualTo(Duration.ofMillis(200));
        assertThat(POLICY.backoffCap(4)).isEqualTo(Duration.ofMillis(800));
        assertThat(POLICY.backoffCap(5)).isEqualTo(Duration.ofSeconds(1));
        assertThat(POLICY.backoffCap(1000)).isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> POLICY.backoffCap(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void transientFailuresAreRetriedWithJitteredExponentialDelaysAndCounted() {
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> result = retrier(POLICY, 0.5).run(RequestKind.RANGE_GET, metrics, "GET x",
                failing(calls, slowDown(), slowDown(), slowDown()), AS_IS);
        time.runAll();

        assertThat(result.join()).isEqualTo("ok");
        assertThat(calls.get()).isEqualTo(4);
        assertThat(time.delays).containsExactly(50_000_000L, 100_000_000L, 200_000_000L);
        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.requests(RequestKind.RANGE_GET)).isEqualTo(4);
        assertThat(snapshot.retries()).containsEntry(RequestKind.RANGE_GET, 3L);
        assertThat(snapshot.failures()).isEmpty();
    }

    @Test
    void cancellingTheRequestCancelsTheAttemptInFlightAndStartsNoRetry() {
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> inFlight = new CompletableFuture<>();
        CompletableFuture<String> result = retrier(POLICY, 0.5).run(RequestKind.RANGE_GET, metrics, "GET x", () -> {
            calls.incrementAndGet();
            return inFlight;
        }, failure -> new TransientStorageException("GET x: " + failure, failure, false));

        result.cancel(false);
        time.runAll();

        assertThat(inFlight).isCancelled();
        assertThat(calls.get()).isEqualTo(1);
        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.requests(RequestKind.RANGE_GET)).isEqualTo(1);
        assertThat(snapshot.retries()).isEmpty();
        assertThat(snapshot.failures()).isEmpty();
    }

    @Test
    void permanentFailuresAreNotRetried() {
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> result = retrier(POLICY, 0.5).run(RequestKind.HEAD, metrics, "HEAD x",
                failing(calls, new AccessDeniedException("403", null)), AS_IS);
        time.runAll();

        assertThatThrownBy(result::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(AccessDeniedException.class);
        assertThat(calls.get()).isEqualTo(1);
        assertThat(metrics.snapshot().totalRetries()).isZero();
        assertThat(metrics.snapshot().failures()).containsEntry(RequestKind.HEAD, 1L);
    }

    @Test
    void givesUpAfterMaxAttemptsKeepingTheThrottledFlagAndSayingSo() {
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> result = retrier(POLICY, 0.0).run(RequestKind.RANGE_GET, metrics, "GET x",
                failing(calls, slowDown(), slowDown(), slowDown(), slowDown(), slowDown(), slowDown()), AS_IS);
        time.runAll();

        assertThatThrownBy(result::join).cause()
                .isInstanceOf(TransientStorageException.class)
                .hasMessage("503 SlowDown (gave up after 5 attempts in 0 ms)")
                .satisfies(e -> assertThat(((TransientStorageException) e).isThrottled()).isTrue());
        assertThat(calls.get()).isEqualTo(5);
        assertThat(metrics.snapshot().retries()).containsEntry(RequestKind.RANGE_GET, 4L);
        assertThat(metrics.snapshot().failures()).containsEntry(RequestKind.RANGE_GET, 1L);
    }

    @Test
    void noRetryStartsPastTheTimeLimit() {
        RetryPolicy limited = POLICY.withMaxAttempts(100).withTimeLimit(Duration.ofMillis(1000));
        AtomicInteger calls = new AtomicInteger();
        RuntimeException[] failures = new RuntimeException[100];
        java.util.Arrays.fill(failures, slowDown());
        CompletableFuture<String> result = retrier(limited, 0.99).run(RequestKind.GET, metrics, "GET x",
                failing(calls, failures), AS_IS);
        time.runAll();

        assertThatThrownBy(result::join).cause().isInstanceOf(TransientStorageException.class)
                .hasMessageContaining("gave up after");
        // Waits of about 99, 198, 396 ms fit in one second; the next (about 990 ms) would not.
        assertThat(calls.get()).isEqualTo(4);
        assertThat(time.now).isLessThanOrEqualTo(1_000_000_000L);
    }

    @Test
    void attemptsThatThrowInsteadOfFailingTheirFutureAreTranslatedToo() {
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> result = retrier(POLICY, 0.1).run(RequestKind.LIST, metrics, "LIST x", () -> {
            if (calls.getAndIncrement() == 0) {
                throw new IllegalStateException("boom");
            }
            return CompletableFuture.completedFuture("ok");
        }, t -> new TransientStorageException("LIST x: " + t.getMessage(), t, false));
        time.runAll();

        assertThat(result.join()).isEqualTo("ok");
        assertThat(metrics.snapshot().retries()).containsEntry(RequestKind.LIST, 1L);
    }

    @Test
    void cancellingTheResultStartsNoFurtherAttempt() {
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> result = retrier(POLICY, 0.5).run(RequestKind.GET, metrics, "GET x",
                failing(calls, slowDown(), slowDown()), AS_IS);
        result.cancel(false);
        time.runAll();

        assertThat(calls.get()).isEqualTo(1);
        assertThat(metrics.snapshot().requests(RequestKind.GET)).isEqualTo(1);
    }

    @Test
    void aRetryTheSchedulerRejectsFailsSayingTheBackendIsClosed() {
        Retrier closed = new Retrier(POLICY, (task, delayNanos) -> {
            throw new RejectedExecutionException("shut down");
        }, () -> 0L, () -> 0.5);
        CompletableFuture<String> result = closed.run(RequestKind.GET, metrics, "GET x",
                failing(new AtomicInteger(), slowDown()), AS_IS);

        assertThatThrownBy(result::join).cause().isInstanceOf(StorageException.class)
                .hasMessage("GET x: cannot retry, the backend is closed")
                .hasCauseInstanceOf(TransientStorageException.class);
    }

    @Test
    void aTranslationThatThrowsIsAPermanentFailureNamingBoth() {
        CompletableFuture<String> result = retrier(POLICY, 0.5).run(RequestKind.PUT, metrics, "PUT x",
                failing(new AtomicInteger(), new IllegalStateException("boom")), t -> {
                    throw new IllegalArgumentException("no translation");
                });
        time.runAll();

        assertThatThrownBy(result::join).cause().isInstanceOf(StorageException.class)
                .hasMessageStartingWith("PUT x: failed, and translating the failure failed")
                .satisfies(e -> assertThat(((StorageException) e).isTransient()).isFalse());
        assertThat(metrics.snapshot().failures()).containsEntry(RequestKind.PUT, 1L);
    }

    @Test
    void completionExceptionsAreUnwrappedBeforeTranslation() {
        StorageException inner = new StorageException("inner");
        assertThat(Retrier.unwrap(new CompletionException(new CompletionException(inner)))).isSameAs(inner);
    }

    @Test
    void policiesRejectNonsense() {
        assertThatThrownBy(() -> POLICY.withMaxAttempts(0)).hasMessageContaining("at least 1 attempt");
        assertThatThrownBy(() -> POLICY.withDelays(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("shorter than baseDelay");
        assertThatThrownBy(() -> POLICY.withAttemptTimeout(Duration.ZERO)).hasMessageContaining("attemptTimeout");
    }
}
