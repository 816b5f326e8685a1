package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Passes reads through and writes down each one as a {@link PlannedRequest}, so the metadata reads a cold client
 * makes can be replayed into a {@link io.layoutbench.api.layout.RetrievalPlan} for cost prediction. Thread-safe.
 *
 * <pre>{@code
 * RecordingBackend recorder = new RecordingBackend(backend);
 * ParquetObject.open(recorder, key).readMetadataColumns();
 * List<PlannedRequest> coldReads = recorder.recorded();
 * }</pre>
 */
public final class RecordingBackend extends ForwardingObjectBackend {

    private final ObjectBackend delegate;
    private final List<PlannedRequest> recorded = new ArrayList<>();

    public RecordingBackend(ObjectBackend delegate) {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    /** The reads so far, in the order they were sent. */
    public synchronized List<PlannedRequest> recorded() {
        return List.copyOf(recorded);
    }

    private synchronized void record(RequestKind kind, String key, ByteRange range) {
        recorded.add(new PlannedRequest(kind, key, range));
    }

    @Override
    protected ObjectBackend delegate() {
        return delegate;
    }

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        record(RequestKind.RANGE_GET, key, range);
        return delegate.readRangeAsync(key, range);
    }

    @Override
    public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
        record(RequestKind.RANGE_GET, key, range);
        return delegate.streamRangeAsync(key, range, pieces);
    }

    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        return delegate.readAllAsync(key).thenApply(data -> {
            record(RequestKind.GET, key, ByteRange.of(0, data.remaining()));
            return data;
        });
    }

    @Override
    public long size(String key) {
        record(RequestKind.HEAD, key, ByteRange.of(0, 0));
        return delegate.size(key);
    }

    @Override
    public boolean exists(String key) {
        record(RequestKind.HEAD, key, ByteRange.of(0, 0));
        return delegate.exists(key);
    }

    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        throw new UnsupportedOperationException("A RecordingBackend records one load; wrap the metered view instead");
    }

    @Override
    public void close() {
        // The delegate belongs to the caller.
    }
}
