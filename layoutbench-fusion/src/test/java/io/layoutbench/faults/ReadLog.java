package io.layoutbench.faults;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.metrics.RequestMetrics;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A backend that writes down every read (key and range) that goes through it or through its metrics views, so the
 * fault suite can tell whether a query read the bytes it damaged: a right answer that read them was caught by
 * nothing, which is fine only when the layout does not trust those bytes (a tar header, a column chunk paper mode
 * fetches for its cost) or FAC rebuilt them from parity. Thread-safe.
 */
final class ReadLog extends ForwardingObjectBackend {

    private final ObjectBackend delegate;
    private final Map<String, List<ByteRange>> reads;

    ReadLog(ObjectBackend delegate) {
        this(delegate, new ConcurrentHashMap<>());
    }

    private ReadLog(ObjectBackend delegate, Map<String, List<ByteRange>> reads) {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.reads = reads;
    }

    @Override
    protected ObjectBackend delegate() {
        return delegate;
    }

    /** Forgets the reads so far. */
    void clear() {
        reads.clear();
    }

    /** The ranges of {@code key} read so far; a whole read is {@code [0, Long.MAX_VALUE)}. */
    List<ByteRange> reads(String key) {
        List<ByteRange> ranges = reads.get(key);
        if (ranges == null) {
            return List.of();
        }
        synchronized (ranges) {
            return List.copyOf(ranges);
        }
    }

    /** Every key read so far. */
    List<String> keysRead() {
        return List.copyOf(reads.keySet());
    }

    private void record(String key, ByteRange range) {
        List<ByteRange> ranges = reads.computeIfAbsent(key, k -> new ArrayList<>());
        synchronized (ranges) {
            ranges.add(range);
        }
    }

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        record(key, range);
        return delegate.readRangeAsync(key, range);
    }

    @Override
    public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
        record(key, range);
        return delegate.streamRangeAsync(key, range, pieces);
    }

    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        record(key, ByteRange.of(0, Long.MAX_VALUE));
        return delegate.readAllAsync(key);
    }

    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        return new ReadLog(delegate.withMetrics(metrics), reads);
    }

    @Override
    public void close() {
        // The backend belongs to the suite.
    }
}
