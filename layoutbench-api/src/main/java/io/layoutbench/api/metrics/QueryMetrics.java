package io.layoutbench.api.metrics;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The standard {@link RequestMetrics}: thread-safe counters for one query or one ingest, plus its wall time.
 * Create one per unit of work and inject it with {@code ObjectBackend.withMetrics}.
 *
 * <pre>{@code
 * QueryMetrics metrics = new QueryMetrics();
 * metrics.start();
 * ... run the query on backend.withMetrics(metrics) ...
 * metrics.stop();
 * MetricsSnapshot result = metrics.snapshot();
 * }</pre>
 */
public final class QueryMetrics implements RequestMetrics {

    private final LongSupplier nanoClock;
    private final LongAdder[] requests = adders();
    private final LongAdder[] retries = adders();
    private final LongAdder[] failures = adders();
    private final LongAdder hedgedRequests = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder firstByteNanos = new LongAdder();
    private final LongAdder firstByteCount = new LongAdder();
    private final AtomicLong maxFirstByteNanos = new AtomicLong();
    private volatile long startNanos = -1;
    private volatile long stopNanos = -1;

    /** Metrics timed with {@link System#nanoTime()}. */
    public QueryMetrics() {
        this(System::nanoTime);
    }

    /** Metrics timed with the given nanosecond clock (for simulated time). */
    public QueryMetrics(LongSupplier nanoClock) {
        this.nanoClock = java.util.Objects.requireNonNull(nanoClock, "nanoClock is null");
    }

    /** Marks the start of the measured work. */
    public void start() {
        startNanos = nanoClock.getAsLong();
        stopNanos = -1;
    }

    /** Marks the end of the measured work. */
    public void stop() {
        if (startNanos < 0) {
            throw new IllegalStateException("QueryMetrics.stop() called before start()");
        }
        stopNanos = nanoClock.getAsLong();
    }

    @Override
    public void onRequestStarted(RequestKind kind) {
        requests[kind.ordinal()].increment();
    }

    @Override
    public void onFirstByte(RequestKind kind, long nanosSinceStart) {
        firstByteNanos.add(nanosSinceStart);
        firstByteCount.increment();
        maxFirstByteNanos.accumulateAndGet(nanosSinceStart, Math::max);
    }

    @Override
    public void onBytesReceived(RequestKind kind, long bytes) {
        bytesReceived.add(bytes);
    }

    @Override
    public void onBytesSent(RequestKind kind, long bytes) {
        bytesSent.add(bytes);
    }

    @Override
    public void onRetry(RequestKind kind) {
        retries[kind.ordinal()].increment();
    }

    @Override
    public void onRequestFailed(RequestKind kind) {
        failures[kind.ordinal()].increment();
    }

    @Override
    public void onHedgedRequest(RequestKind kind) {
        hedgedRequests.increment();
    }

    /**
     * The counts so far. The wall time runs from {@link #start()} to {@link #stop()}, or to now while running, and
     * is zero before {@code start()}.
     */
    public MetricsSnapshot snapshot() {
        long start = startNanos;
        long stop = stopNanos;
        Duration wall = start < 0 ? Duration.ZERO
                : Duration.ofNanos((stop < 0 ? nanoClock.getAsLong() : stop) - start);
        return new MetricsSnapshot(sums(requests), sums(retries), sums(failures), bytesReceived.sum(),
                bytesSent.sum(), firstByteNanos.sum(), firstByteCount.sum(), maxFirstByteNanos.get(),
                hedgedRequests.sum(), wall);
    }

    private static LongAdder[] adders() {
        LongAdder[] adders = new LongAdder[RequestKind.values().length];
        for (int i = 0; i < adders.length; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }

    private static Map<RequestKind, Long> sums(LongAdder[] adders) {
        Map<RequestKind, Long> sums = new EnumMap<>(RequestKind.class);
        for (RequestKind kind : RequestKind.values()) {
            sums.put(kind, adders[kind.ordinal()].sum());
        }
        return sums;
    }
}
