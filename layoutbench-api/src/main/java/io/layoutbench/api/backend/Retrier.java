package io.layoutbench.api.backend;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries a backend's asynchronous requests under a {@link RetryPolicy}: counts every attempt as a request and every
 * retry as a retry in the caller's {@link RequestMetrics}, waits with exponential backoff and full jitter between
 * attempts, gives up after the policy's attempts or time limit, and counts the final failure.
 *
 * <p>What is worth retrying is the backend's to say, and it says it in the library's own terms: the {@code translate}
 * function it passes to {@link #run} turns its client's failure into a {@link StorageException}, and only those whose
 * {@link StorageException#isTransient()} is true (a {@link TransientStorageException}: throttling, 5xx, a reset, a
 * timeout) are tried again. The retrier knows nothing of any client or protocol.
 *
 * <p>It does not time attempts out itself: a backend that enforces {@link RetryPolicy#attemptTimeout()} fails the
 * attempt's future when it is over, with a failure it translates as transient.
 *
 * <pre>{@code
 * // A backend's timer thread; closing the backend shuts it down, and retries waiting on it fail.
 * Retrier retrier = new Retrier(RetryPolicy.defaults(),
 *         (task, delayNanos) -> timer.schedule(task, delayNanos, TimeUnit.NANOSECONDS));
 * String what = "GET http://host/data/shard-0.tar [0, 512)";
 * CompletableFuture<ByteBuffer> header = retrier.run(RequestKind.RANGE_GET, metrics, what,
 *         () -> client.get("shard-0.tar", 0, 512),
 *         failure -> failure instanceof IOException
 *                 ? new TransientStorageException(what + ": " + failure.getMessage(), failure, false)
 *                 : new StorageException(what + ": " + failure, failure));
 * }</pre>
 *
 * <p><b>Thread safety:</b> thread-safe. One retrier serves any number of concurrent {@link #run} calls; each call
 * keeps its own state. The delays run on the injected {@link Scheduler}; the clock and the jitter are injected too,
 * so tests drive all three.
 */
public final class Retrier {

    /** Runs a task after a delay: a backend's timer thread, or a fake clock in tests. */
    @FunctionalInterface
    public interface Scheduler {
        /**
         * Runs {@code task} after {@code delayNanos}. May throw {@link RejectedExecutionException} once the
         * backend is closed; the retry then fails, saying so.
         */
        void schedule(Runnable task, long delayNanos);
    }

    private static final Logger LOG = LoggerFactory.getLogger(Retrier.class);

    private final RetryPolicy policy;
    private final Scheduler scheduler;
    private final LongSupplier nanoClock;
    private final DoubleSupplier jitter;

    /** A retrier on the system clock ({@link System#nanoTime()}) with uniformly random jitter. */
    public Retrier(RetryPolicy policy, Scheduler scheduler) {
        this(policy, scheduler, System::nanoTime, () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * A retrier on an injected clock and jitter, for tests.
     *
     * @param nanoClock a monotonic clock in nanoseconds, for the policy's time limit
     * @param jitter    uniform in {@code [0, 1)}; the wait before a retry is {@code jitter × backoffCap}
     */
    public Retrier(RetryPolicy policy, Scheduler scheduler, LongSupplier nanoClock, DoubleSupplier jitter) {
        this.policy = requireNonNull(policy, "policy is null");
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        this.jitter = requireNonNull(jitter, "jitter is null");
    }

    /** The policy this retrier follows. */
    public RetryPolicy policy() {
        return policy;
    }

    /**
     * Runs {@code attempt} until it succeeds, fails permanently, or the policy gives up.
     *
     * @param kind      the request kind to count
     * @param metrics   where to count
     * @param what      the request, for messages: {@code GET s3://bucket/key [0, 100)}; free of credentials
     * @param attempt   starts one attempt; called once per attempt (after {@code onRequestStarted}). It may fail
     *                  its future or throw a {@link RuntimeException}: both are translated
     * @param translate turns an attempt's failure (with {@link CompletionException} and {@link ExecutionException}
     *                  wrappers removed) into a {@link StorageException}; transient ones are retried
     * @return the first successful result, or a failure: the permanent error as translated, or a
     *         {@link TransientStorageException} that says how many attempts were made and over how long. Completing
     *         the returned future starts no further attempt, and cancelling it cancels the attempt in flight.
     */
    public <T> CompletableFuture<T> run(RequestKind kind, RequestMetrics metrics, String what,
            Supplier<CompletableFuture<T>> attempt, Function<Throwable, StorageException> translate) {
        requireNonNull(kind, "kind is null");
        requireNonNull(metrics, "metrics is null");
        requireNonNull(what, "what is null");
        requireNonNull(attempt, "attempt is null");
        requireNonNull(translate, "translate is null");
        CompletableFuture<T> result = new CompletableFuture<>();
        new Run<>(kind, metrics, what, attempt, translate, result, nanoClock.getAsLong()).attempt(1);
        return result;
    }

    private final class Run<T> {
        private final RequestKind kind;
        private final RequestMetrics metrics;
        private final String what;
        private final Supplier<CompletableFuture<T>> attempt;
        private final Function<Throwable, StorageException> translate;
        private final CompletableFuture<T> result;
        private final long startNanos;

        Run(RequestKind kind, RequestMetrics metrics, String what, Supplier<CompletableFuture<T>> attempt,
                Function<Throwable, StorageException> translate, CompletableFuture<T> result, long startNanos) {
            this.kind = kind;
            this.metrics = metrics;
            this.what = what;
            this.attempt = attempt;
            this.translate = translate;
            this.result = result;
            this.startNanos = startNanos;
        }

        void attempt(int number) {
            if (result.isDone()) {
                return;   // cancelled by the caller
            }
            metrics.onRequestStarted(kind);
            CompletableFuture<T> future;
            try {
                future = attempt.get();
            } catch (RuntimeException e) {
                failed(number, e);
                return;
            }
            // The caller cancelled the request: the attempt in flight goes too (a backend closes its connection).
            result.whenComplete((value, failure) -> {
                if (result.isCancelled()) {
                    future.cancel(true);
                }
            });
            future.whenComplete((value, failure) -> {
                if (failure == null) {
                    result.complete(value);
                } else {
                    failed(number, failure);
                }
            });
        }

        private void failed(int number, Throwable failure) {
            if (result.isDone()) {
                return;   // cancelled by the caller: nothing to count, nothing to retry
            }
            StorageException error;
            try {
                error = translate.apply(unwrap(failure));
            } catch (RuntimeException e) {
                e.addSuppressed(failure);
                error = new StorageException(what + ": failed, and translating the failure failed: " + e, e);
            }
            if (!error.isTransient()) {
                metrics.onRequestFailed(kind);
                result.completeExceptionally(error);
                return;
            }
            long elapsed = nanoClock.getAsLong() - startNanos;
            long delay = (long) (jitter.getAsDouble() * policy.backoffCap(number).toNanos());
            if (number >= policy.maxAttempts() || elapsed + delay > policy.timeLimit().toNanos()) {
                metrics.onRequestFailed(kind);
                result.completeExceptionally(giveUp(error, number, elapsed));
                return;
            }
            metrics.onRetry(kind);
            LOG.debug("Retrying {} in {} ms (attempt {} of {} failed: {})", what,
                    TimeUnit.NANOSECONDS.toMillis(delay), number, policy.maxAttempts(), error.getMessage());
            try {
                scheduler.schedule(() -> attempt(number + 1), delay);
            } catch (RejectedExecutionException e) {
                result.completeExceptionally(new StorageException(what + ": cannot retry, the backend is closed",
                        error));
            }
        }

        private TransientStorageException giveUp(StorageException last, int attempts, long elapsedNanos) {
            boolean throttled = last instanceof TransientStorageException t && t.isThrottled();
            String message = last.getMessage() + " (gave up after " + attempts
                    + (attempts == 1 ? " attempt" : " attempts") + " in "
                    + TimeUnit.NANOSECONDS.toMillis(elapsedNanos) + " ms)";
            return new TransientStorageException(message, last, throttled);
        }
    }

    /** The cause of a {@link CompletionException} or {@link ExecutionException}, however deeply wrapped. */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
