package io.layoutbench.fusion.store;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.SupportsFirstByteSignal;
import io.layoutbench.api.metrics.RequestMetrics;

import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The objects of another backend under {@code prefix/}, as a backend of their own: key {@code k} here is
 * {@code prefix/k} there. Used to stand N storage nodes up inside one bucket or directory. Does not own the other
 * backend: closing this view leaves it open. Signals first bytes ({@link SupportsFirstByteSignal}) where the other
 * backend does, so that a FAC store racing its node reads races them here too. Thread-safe as the other backend is.
 *
 * <pre>{@code
 * ObjectBackend node3 = PrefixedBackend.of(bucket, "imagenet/fac/nodes/node-03");
 * node3.put("a", bytes);   // stored in bucket as imagenet/fac/nodes/node-03/a
 * }</pre>
 */
public sealed class PrefixedBackend implements ObjectBackend {

    private final ObjectBackend inner;
    private final String prefix;
    private final boolean ownsInner;

    private PrefixedBackend(ObjectBackend inner, String prefix, boolean ownsInner) {
        this.inner = inner;
        this.prefix = prefix;
        this.ownsInner = ownsInner;
    }

    /** The view of {@code inner}, signalling first bytes if {@code inner} does. */
    private static PrefixedBackend view(ObjectBackend inner, String prefix, boolean ownsInner) {
        return inner instanceof SupportsFirstByteSignal signalling
                ? new Signalling(inner, signalling, prefix, ownsInner) : new PrefixedBackend(inner, prefix, ownsInner);
    }

    /**
     * The view of {@code inner} under {@code prefix} (a valid key, with no trailing {@code /}).
     *
     * @throws IllegalArgumentException if the prefix is not a valid key
     */
    public static PrefixedBackend of(ObjectBackend inner, String prefix) {
        requireNonNull(inner, "inner is null");
        ObjectKeys.check(prefix);
        return view(inner, prefix + "/", false);
    }

    /**
     * {@link #of}, closing {@code inner} when closed: for a node opened only to be seen under {@code prefix}.
     *
     * <pre>{@code
     * ObjectBackend node = PrefixedBackend.owning(ObjectBackends.open("flight://127.0.0.1:47001"), "baseline");
     * }</pre>
     */
    public static PrefixedBackend owning(ObjectBackend inner, String prefix) {
        requireNonNull(inner, "inner is null");
        ObjectKeys.check(prefix);
        return view(inner, prefix + "/", true);
    }

    final String full(String key) {
        return prefix + ObjectKeys.check(key);
    }

    @Override
    public URI uri() {
        String base = inner.uri().toString();
        try {
            return URI.create(base + (base.endsWith("/") ? "" : "/") + prefix);
        } catch (IllegalArgumentException e) {
            return inner.uri();
        }
    }

    /** Reads from the other backend; a range past the end fails naming this view's key, as the contract wants. */
    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        return renamingPastEnd(key, inner.readRangeAsync(full(key), range));
    }

    /** Streamed as the backend it prefixes streams it. */
    @Override
    public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
        return renamingPastEnd(key, inner.streamRangeAsync(full(key), range, pieces));
    }

    private static <T> CompletableFuture<T> renamingPastEnd(String key, CompletableFuture<T> read) {
        CompletableFuture<T> renamed = read.exceptionallyCompose(error -> {
            Throwable cause = Futures.unwrap(error);
            return CompletableFuture.failedFuture(cause instanceof RangeNotSatisfiableException past
                    ? new RangeNotSatisfiableException(key, past.range(), past.objectSize()) : cause);
        });
        // A raced copy is cancelled through this future: pass that on, so the read itself stops.
        renamed.whenComplete((bytes, error) -> {
            if (renamed.isCancelled()) {
                read.cancel(false);
            }
        });
        return renamed;
    }

    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        return inner.readAllAsync(full(key));
    }

    @Override
    public long size(String key) {
        return inner.size(full(key));
    }

    @Override
    public void put(String key, InputStream data, long length) {
        inner.put(full(key), data, length);
    }

    @Override
    public Stream<ObjectInfo> list(String listPrefix) {
        ObjectKeys.checkPrefix(listPrefix);
        return inner.list(prefix + listPrefix)
                .map(info -> new ObjectInfo(info.key().substring(prefix.length()), info.size()));
    }

    @Override
    public void delete(String key) {
        inner.delete(full(key));
    }

    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        return view(inner.withMetrics(metrics), prefix, true);
    }

    /** Closes nothing, except the metrics view of the other backend a {@link #withMetrics} view holds. */
    @Override
    public void close() {
        if (ownsInner) {
            inner.close();
        }
    }

    @Override
    public String toString() {
        return "PrefixedBackend[" + uri() + "]";
    }

    /** A view of a backend that signals first bytes, passing its signal on. */
    private static final class Signalling extends PrefixedBackend implements SupportsFirstByteSignal {
        private final SupportsFirstByteSignal signalling;

        Signalling(ObjectBackend inner, SupportsFirstByteSignal signalling, String prefix, boolean ownsInner) {
            super(inner, prefix, ownsInner);
            this.signalling = signalling;
        }

        @Override
        public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range, Runnable onFirstByte) {
            return renamingPastEnd(key, signalling.readRangeAsync(full(key), range, onFirstByte));
        }

        @Override
        public CompletableFuture<ByteBuffer> readAllAsync(String key, Runnable onFirstByte) {
            return signalling.readAllAsync(full(key), onFirstByte);
        }
    }
}
