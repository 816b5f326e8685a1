package io.layoutbench.api.backend;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a backend retries a request that failed transiently (its failure translated into a
 * {@link TransientStorageException}: throttling, a 5xx answer, a reset or closed connection, a timeout): up to
 * {@code maxAttempts} attempts in all, waiting between them a random time up to {@code baseDelay × 2^(retry - 1)},
 * capped at {@code maxDelay} ("full jitter"), and never starting an attempt that would begin after {@code timeLimit}
 * from the first. Each attempt may take at most {@code attemptTimeout}; the backend cancels one that takes longer,
 * and that counts as a transient failure. Permanent errors (not found, access denied, a range past the end) are never
 * retried. {@link Retrier} follows a policy.
 *
 * <pre>{@code
 * RetryPolicy quick = RetryPolicy.defaults().withMaxAttempts(3).withAttemptTimeout(Duration.ofSeconds(2));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param maxAttempts    attempts in all, the first included; at least 1
 * @param baseDelay      the first retry waits up to this long; positive
 * @param maxDelay       no wait is longer; at least {@code baseDelay}
 * @param timeLimit      no retry starts later than this after the first attempt started; positive
 * @param attemptTimeout one attempt (one request) may take this long; positive
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay, Duration timeLimit,
        Duration attemptTimeout) {

    /** Attempts when not configured. */
    public static final int DEFAULT_MAX_ATTEMPTS = 5;

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("A retry policy needs at least 1 attempt, got " + maxAttempts);
        }
        requirePositive(baseDelay, "baseDelay");
        requirePositive(maxDelay, "maxDelay");
        requirePositive(timeLimit, "timeLimit");
        requirePositive(attemptTimeout, "attemptTimeout");
        if (maxDelay.compareTo(baseDelay) < 0) {
            throw new IllegalArgumentException("Retry maxDelay " + maxDelay + " is shorter than baseDelay "
                    + baseDelay);
        }
    }

    /**
     * {@value #DEFAULT_MAX_ATTEMPTS} attempts, 50 ms base delay, 5 s cap, 2 min time limit, 30 s per attempt.
     */
    public static RetryPolicy defaults() {
        return new RetryPolicy(DEFAULT_MAX_ATTEMPTS, Duration.ofMillis(50), Duration.ofSeconds(5),
                Duration.ofMinutes(2), Duration.ofSeconds(30));
    }

    /** This policy with {@code maxAttempts} attempts. */
    public RetryPolicy withMaxAttempts(int maxAttempts) {
        return new RetryPolicy(maxAttempts, baseDelay, maxDelay, timeLimit, attemptTimeout);
    }

    /** This policy with these backoff delays. */
    public RetryPolicy withDelays(Duration baseDelay, Duration maxDelay) {
        return new RetryPolicy(maxAttempts, baseDelay, maxDelay, timeLimit, attemptTimeout);
    }

    /** This policy with this overall time limit. */
    public RetryPolicy withTimeLimit(Duration timeLimit) {
        return new RetryPolicy(maxAttempts, baseDelay, maxDelay, timeLimit, attemptTimeout);
    }

    /** This policy with this per-attempt timeout. */
    public RetryPolicy withAttemptTimeout(Duration attemptTimeout) {
        return new RetryPolicy(maxAttempts, baseDelay, maxDelay, timeLimit, attemptTimeout);
    }

    /**
     * The longest wait before retry number {@code retry} (1 for the first retry): {@code baseDelay × 2^(retry - 1)},
     * at most {@code maxDelay}. The actual wait is uniformly random below it.
     */
    public Duration backoffCap(int retry) {
        if (retry < 1) {
            throw new IllegalArgumentException("Retries are numbered from 1, got " + retry);
        }
        long base = baseDelay.toNanos();
        long max = maxDelay.toNanos();
        int shift = Math.min(retry - 1, 62);
        long cap = base > (max >> shift) ? max : base << shift;
        return Duration.ofNanos(Math.min(cap, max));
    }

    private static void requirePositive(Duration duration, String name) {
        requireNonNull(duration, name + " is null");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("Retry " + name + " must be positive, got " + duration);
        }
    }
}
