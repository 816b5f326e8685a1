package io.layoutbench.examples.userdata;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.metrics.RequestMetrics;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Counts the reads that reach a backend and the bytes they return, through it and through all its
 * {@link #withMetrics} views alike: what a store really transferred, whatever metrics a dataset gives its queries
 * (a dataset runs each query on a metrics view of the backend it was opened on, which counts into that query's
 * metrics only). Thread-safe.
 *
 * <pre>{@code
 * TransferCounter counted = new TransferCounter(backend);
 * long before = counted.bytes();
 * ... read through counted or counted.withMetrics(m) ...
 * long moved = counted.bytes() - before;
 * }</pre>
 */
final class TransferCounter extends ForwardingObjectBackend {

    private final ObjectBackend delegate;
    private final LongAdder reads;
    private final LongAdder bytes;

    TransferCounter(ObjectBackend delegate) {
        this(delegate, new LongAdder(), new LongAdder());
    }

    private TransferCounter(ObjectBackend delegate, LongAdder reads, LongAdder bytes) {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.reads = reads;
        this.bytes = bytes;
    }

    @Override
    protected ObjectBackend delegate() {
        return delegate;
    }

    /** Reads so far, ranged or whole. */
    long reads() {
        return reads.sum();
    }

    /** Bytes the reads so far returned. */
    long bytes() {
        return bytes.sum();
    }

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        reads.increment();
        return super.readRangeAsync(key, range).thenApply(this::counted);
    }

    @Override
    public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
        reads.increment();
        return super.streamRangeAsync(key, range, piece -> {
            bytes.add(piece.remaining());
            pieces.accept(piece);
        });
    }

    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        reads.increment();
        return super.readAllAsync(key).thenApply(this::counted);
    }

    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        return new TransferCounter(delegate.withMetrics(metrics), reads, bytes);
    }

    /** Closes nothing: the backend belongs to the caller. */
    @Override
    public void close() {
    }

    private ByteBuffer counted(ByteBuffer data) {
        bytes.add(data.remaining());
        return data;
    }
}
