package io.layoutbench.api.metrics;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * What one query (or one ingest) cost in requests, bytes and time, read from {@link QueryMetrics#snapshot()}.
 *
 * <pre>{@code
 * MetricsSnapshot s = metrics.snapshot();
 * System.out.printf("%d requests, %d bytes, %s%n", s.totalRequests(), s.bytesReceived(), s.wallTime());
 * }</pre>
 *
 * @param requests         requests sent, by kind (retries included)
 * @param retries          retries, by kind
 * @param failures         requests that failed for good, by kind
 * @param bytesReceived    response body bytes consumed
 * @param bytesSent        request body bytes sent
 * @param firstByteNanos   sum over requests of the time to first byte
 * @param firstByteCount   number of requests whose first byte arrived
 * @param maxFirstByteNanos the longest time to first byte
 * @param hedgedRequests   of the requests, how many were duplicates of a slow read (hedges); each is in
 *                         {@code requests} too, and the bytes it received in {@code bytesReceived}
 * @param wallTime         wall-clock time between start and stop of the measured work
 */
public record MetricsSnapshot(
        Map<RequestKind, Long> requests,
        Map<RequestKind, Long> retries,
        Map<RequestKind, Long> failures,
        long bytesReceived,
        long bytesSent,
        long firstByteNanos,
        long firstByteCount,
        long maxFirstByteNanos,
        long hedgedRequests,
        Duration wallTime) {

    public MetricsSnapshot {
        requests = immutableCopy(requests, "requests");
        retries = immutableCopy(retries, "retries");
        failures = immutableCopy(failures, "failures");
        requireNonNull(wallTime, "wallTime is null");
    }

    /** Requests of {@code kind}. */
    public long requests(RequestKind kind) {
        return requests.getOrDefault(kind, 0L);
    }

    /** All requests sent. */
    public long totalRequests() {
        return requests.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Requests priced as GETs (GET, ranged GET, HEAD). */
    public long getClassRequests() {
        return requests.entrySet().stream().filter(e -> e.getKey().isGetClass())
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** Requests priced as PUTs (PUT, LIST, DELETE is free on S3 but counted here as a PUT-class request). */
    public long putClassRequests() {
        return totalRequests() - getClassRequests();
    }

    /** All retries. */
    public long totalRetries() {
        return retries.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Mean time to first byte, or zero when no response arrived. */
    public Duration meanFirstByte() {
        return firstByteCount == 0 ? Duration.ZERO : Duration.ofNanos(firstByteNanos / firstByteCount);
    }

    private static Map<RequestKind, Long> immutableCopy(Map<RequestKind, Long> counts, String name) {
        requireNonNull(counts, name + " is null");
        EnumMap<RequestKind, Long> copy = new EnumMap<>(RequestKind.class);
        counts.forEach((kind, count) -> {
            if (count != 0) {
                copy.put(kind, count);
            }
        });
        return Map.copyOf(copy);
    }
}
