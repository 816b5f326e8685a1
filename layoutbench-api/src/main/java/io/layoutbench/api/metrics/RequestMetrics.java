package io.layoutbench.api.metrics;

/**
 * Receives counts from where the bytes flow: a backend calls it when a request starts, when its first byte
 * arrives, as body bytes are consumed, and on retries and failures. Injected into backends with
 * {@code ObjectBackend.withMetrics}; never global.
 *
 * <p>Implementations must be thread-safe and cheap: they are called on I/O threads, once per buffer received.
 *
 * <pre>{@code
 * QueryMetrics metrics = new QueryMetrics();
 * try (ObjectBackend counted = backend.withMetrics(metrics)) {
 *     counted.readRange("a.jpg", ByteRange.of(0, 100));
 * }
 * System.out.println(metrics.snapshot().bytesReceived());
 * }</pre>
 */
public interface RequestMetrics {

    /** Metrics that count nothing. */
    RequestMetrics NONE = new RequestMetrics() {
        @Override
        public void onRequestStarted(RequestKind kind) {
        }

        @Override
        public void onFirstByte(RequestKind kind, long nanosSinceStart) {
        }

        @Override
        public void onBytesReceived(RequestKind kind, long bytes) {
        }
    };

    /**
     * Metrics reporting everything to {@code first}, then to {@code second}: a view counting a query into its own
     * metrics and into a task's total ({@code backend.withMetrics(RequestMetrics.both(query, task))}).
     */
    static RequestMetrics both(RequestMetrics first, RequestMetrics second) {
        java.util.Objects.requireNonNull(first, "first is null");
        java.util.Objects.requireNonNull(second, "second is null");
        return new RequestMetrics() {
            @Override
            public void onRequestStarted(RequestKind kind) {
                first.onRequestStarted(kind);
                second.onRequestStarted(kind);
            }

            @Override
            public void onFirstByte(RequestKind kind, long nanosSinceStart) {
                first.onFirstByte(kind, nanosSinceStart);
                second.onFirstByte(kind, nanosSinceStart);
            }

            @Override
            public void onBytesReceived(RequestKind kind, long bytes) {
                first.onBytesReceived(kind, bytes);
                second.onBytesReceived(kind, bytes);
            }

            @Override
            public void onBytesSent(RequestKind kind, long bytes) {
                first.onBytesSent(kind, bytes);
                second.onBytesSent(kind, bytes);
            }

            @Override
            public void onRetry(RequestKind kind) {
                first.onRetry(kind);
                second.onRetry(kind);
            }

            @Override
            public void onRequestFailed(RequestKind kind) {
                first.onRequestFailed(kind);
                second.onRequestFailed(kind);
            }

            @Override
            public void onHedgedRequest(RequestKind kind) {
                first.onHedgedRequest(kind);
                second.onHedgedRequest(kind);
            }
        };
    }

    /** A request was sent (a retry counts again, and is also reported through {@link #onRetry}). */
    void onRequestStarted(RequestKind kind);

    /** The first byte of a response arrived {@code nanosSinceStart} after the request was sent. */
    void onFirstByte(RequestKind kind, long nanosSinceStart);

    /** {@code bytes} body bytes were consumed from a response. */
    void onBytesReceived(RequestKind kind, long bytes);

    /** {@code bytes} body bytes were sent in a request (uploads). */
    default void onBytesSent(RequestKind kind, long bytes) {
    }

    /** A failed request is being retried. */
    default void onRetry(RequestKind kind) {
    }

    /** A request failed for good (after any retries). */
    default void onRequestFailed(RequestKind kind) {
    }

    /**
     * A duplicate of a slow request was sent (a hedged read, see {@link io.layoutbench.api.network.HedgeDelay}).
     * The duplicate is a request of its own, so the backend that sends it also reports it through
     * {@link #onRequestStarted} and counts the bytes it receives; this says only that it was a duplicate.
     *
     * <pre>{@code
     * metrics.onHedgedRequest(RequestKind.RANGE_GET);
     * metrics.snapshot().hedgedRequests();   // 1
     * }</pre>
     */
    default void onHedgedRequest(RequestKind kind) {
    }
}
