package io.layoutbench.api.backend;

import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A decorator base that forwards every operation to {@link #delegate()}, including the default methods, so a
 * wrapped backend keeps its own fast paths (multipart upload of files, batch delete, one-request whole reads).
 * Subclasses override what they change and decide {@link #withMetrics}, which has no sensible forwarding default.
 *
 * <pre>{@code
 * final class LoggingBackend extends ForwardingObjectBackend {
 *     private final ObjectBackend delegate;
 *     LoggingBackend(ObjectBackend delegate) { this.delegate = delegate; }
 *     protected ObjectBackend delegate() { return delegate; }
 *     public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
 *         log.debug("GET {} {}", key, range);
 *         return super.readRangeAsync(key, range);
 *     }
 *     public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
 *         log.debug("GET {} {} (streamed)", key, range);   // forwarded too: without this it would not be logged
 *         return super.streamRangeAsync(key, range, pieces);
 *     }
 *     public ObjectBackend withMetrics(RequestMetrics m) { return new LoggingBackend(delegate.withMetrics(m)); }
 * }
 * }</pre>
 */
public abstract class ForwardingObjectBackend implements ObjectBackend {

    /** The backend operations are forwarded to. */
    protected abstract ObjectBackend delegate();

    @Override
    public URI uri() {
        return delegate().uri();
    }

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        return delegate().readRangeAsync(key, range);
    }

    /**
     * Forwarded: a subclass that changes {@link #readRangeAsync} (counting, recording, hedging reads) changes this
     * too, or its streamed reads bypass it.
     */
    @Override
    public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
        return delegate().streamRangeAsync(key, range, pieces);
    }

    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        return delegate().readAllAsync(key);
    }

    @Override
    public long size(String key) {
        return delegate().size(key);
    }

    @Override
    public boolean exists(String key) {
        return delegate().exists(key);
    }

    @Override
    public void put(String key, InputStream data, long length) {
        delegate().put(key, data, length);
    }

    @Override
    public void put(String key, byte[] data) {
        delegate().put(key, data);
    }

    @Override
    public void put(String key, Path file) {
        delegate().put(key, file);
    }

    @Override
    public Stream<ObjectInfo> list(String prefix) {
        return delegate().list(prefix);
    }

    @Override
    public void delete(String key) {
        delegate().delete(key);
    }

    @Override
    public void deleteAll(Collection<String> keys) {
        delegate().deleteAll(keys);
    }

    @Override
    public void close() {
        delegate().close();
    }
}
