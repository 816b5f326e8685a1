package io.layoutbench.backend.memory;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * An {@link ObjectBackend} that keeps objects as byte arrays in the heap: for tests, examples and as the store
 * under simulated networks. Each instance is its own empty store; share the instance (or its
 * {@link #withMetrics} views) to share objects.
 *
 * <p>Ranged reads complete at once and return a read-only slice of the stored array, with no copy; {@code put}
 * copies its input, so later changes to the caller's array do not show. Keys are listed in ascending
 * {@link String} order, in pages of 1,000 like S3. Requests are counted into the {@link RequestMetrics} given at
 * construction: {@code RANGE_GET} per ranged read, {@code GET} per whole read, {@code HEAD} per size, {@code PUT}
 * with the bytes sent, {@code LIST} per page, {@code DELETE}.
 *
 * <p>Thread-safe: objects live in a {@link ConcurrentSkipListMap}; a {@code put} replaces the whole array at once,
 * so readers see the old object or the new one. Objects are limited to {@value #MAX_OBJECT_SIZE} bytes.
 *
 * <pre>{@code
 * try (ObjectBackend memory = new MemoryBackend()) {
 *     memory.put("a/b.txt", "hello".getBytes(StandardCharsets.UTF_8));
 *     ByteBuffer ell = memory.readRange("a/b.txt", ByteRange.of(1, 3));   // "ell"
 * }
 * }</pre>
 */
public final class MemoryBackend implements ObjectBackend {

    /** The largest object a byte array can hold. */
    public static final int MAX_OBJECT_SIZE = Integer.MAX_VALUE - 8;

    static final int LIST_PAGE_SIZE = 1000;

    private final Store store;
    private final RequestMetrics metrics;
    private final boolean view;

    /** An empty store with a fresh URI {@code mem:<random id>} that counts nothing. */
    public MemoryBackend() {
        this(URI.create("mem:" + UUID.randomUUID()), RequestMetrics.NONE);
    }

    /**
     * An empty store known by {@code uri} that counts its requests into {@code metrics}.
     *
     * @throws IllegalArgumentException if the URI's scheme is not {@code mem}
     */
    public MemoryBackend(URI uri, RequestMetrics metrics) {
        this(new Store(checkUri(uri)), metrics, false);
    }

    private MemoryBackend(Store store, RequestMetrics metrics, boolean view) {
        this.store = store;
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.view = view;
    }

    @Override
    public URI uri() {
        return store.uri;
    }

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        ObjectKeys.check(key);
        requireNonNull(range, "range is null");
        try {
            byte[] object = startRequest(RequestKind.RANGE_GET, key);
            if (!range.fitsIn(object.length)) {
                metrics.onRequestFailed(RequestKind.RANGE_GET);
                throw new RangeNotSatisfiableException(key, range, object.length);
            }
            // fitsIn guarantees offset and length fit in an int.
            return CompletableFuture.completedFuture(
                    respond(RequestKind.RANGE_GET, object, (int) range.offset(), (int) range.length()));
        } catch (StorageException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** One {@code GET} of the whole object. */
    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        ObjectKeys.check(key);
        try {
            byte[] object = startRequest(RequestKind.GET, key);
            return CompletableFuture.completedFuture(respond(RequestKind.GET, object, 0, object.length));
        } catch (StorageException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public long size(String key) {
        ObjectKeys.check(key);
        byte[] object = startRequest(RequestKind.HEAD, key);
        metrics.onFirstByte(RequestKind.HEAD, 0);
        return object.length;
    }

    @Override
    public void put(String key, InputStream data, long length) {
        ObjectKeys.check(key);
        requireNonNull(data, "data is null");
        if (length < 0 || length > MAX_OBJECT_SIZE) {
            throw new IllegalArgumentException("Cannot store " + key + " in " + uri() + ": length " + length
                    + " is not between 0 and " + MAX_OBJECT_SIZE + " bytes");
        }
        checkOpen();
        metrics.onRequestStarted(RequestKind.PUT);
        byte[] object;
        try {
            // readNBytes grows its buffer as data arrives, so a wrong length does not allocate it up front.
            object = data.readNBytes((int) length);
        } catch (IOException e) {
            metrics.onRequestFailed(RequestKind.PUT);
            throw new StorageException("Cannot store " + key + " in " + uri() + ": reading the source failed: "
                    + e.getMessage(), e);
        }
        metrics.onBytesSent(RequestKind.PUT, object.length);
        if (object.length < length) {
            metrics.onRequestFailed(RequestKind.PUT);
            throw new StorageException("Cannot store " + key + " in " + uri() + ": the stream ended after "
                    + object.length + " of the " + length + " bytes promised");
        }
        store.objects.put(key, object);
    }

    @Override
    public Stream<ObjectInfo> list(String prefix) {
        ObjectKeys.checkPrefix(prefix);
        checkOpen();
        Iterator<ObjectInfo> pages = new PagedListing(prefix);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(pages,
                Spliterator.ORDERED | Spliterator.DISTINCT | Spliterator.NONNULL), false);
    }

    @Override
    public void delete(String key) {
        ObjectKeys.check(key);
        checkOpen();
        metrics.onRequestStarted(RequestKind.DELETE);
        store.objects.remove(key);
    }

    /** A view over the same objects that counts into {@code metrics}; closing it leaves this store open. */
    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        return new MemoryBackend(store, metrics, true);
    }

    /** Drops the objects (unless this is a {@link #withMetrics} view); the store and its views then fail. */
    @Override
    public void close() {
        if (!view && store.closed.compareAndSet(false, true)) {
            store.objects.clear();
        }
    }

    @Override
    public String toString() {
        return "MemoryBackend[" + store.uri + "]";
    }

    private byte[] startRequest(RequestKind kind, String key) {
        checkOpen();
        metrics.onRequestStarted(kind);
        byte[] object = store.objects.get(key);
        if (object == null) {
            metrics.onRequestFailed(kind);
            throw new ObjectNotFoundException("No object " + key + " in " + uri());
        }
        return object;
    }

    private ByteBuffer respond(RequestKind kind, byte[] object, int offset, int length) {
        metrics.onFirstByte(kind, 0);
        metrics.onBytesReceived(kind, length);
        return ByteBuffer.wrap(object, offset, length).slice().asReadOnlyBuffer();
    }

    private void checkOpen() {
        if (store.closed.get()) {
            throw new IllegalStateException("The memory backend " + store.uri + " is closed");
        }
    }

    private static URI checkUri(URI uri) {
        requireNonNull(uri, "uri is null");
        if (!"mem".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("A memory backend URI must have the scheme 'mem', got '" + uri + "'");
        }
        return uri;
    }

    /** The objects and open state that a backend shares with its views. */
    private static final class Store {
        final URI uri;
        final ConcurrentSkipListMap<String, byte[]> objects = new ConcurrentSkipListMap<>();
        final AtomicBoolean closed = new AtomicBoolean();

        Store(URI uri) {
            this.uri = uri;
        }
    }

    /**
     * Lists like an S3 paginator: each page of up to {@value #LIST_PAGE_SIZE} keys is fetched when the previous
     * one is used up and continues after the last key seen, so concurrent puts and deletes do not break it.
     */
    private final class PagedListing implements Iterator<ObjectInfo> {
        private final String prefix;
        private Iterator<ObjectInfo> page;
        private String lastKey;
        private boolean lastPage;

        PagedListing(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public boolean hasNext() {
            while (page == null || !page.hasNext()) {
                if (lastPage) {
                    return false;
                }
                page = fetchPage();
            }
            return true;
        }

        @Override
        public ObjectInfo next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return page.next();
        }

        private Iterator<ObjectInfo> fetchPage() {
            checkOpen();
            metrics.onRequestStarted(RequestKind.LIST);
            ConcurrentNavigableMap<String, byte[]> rest = lastKey == null
                    ? store.objects.tailMap(prefix, true)
                    : store.objects.tailMap(lastKey, false);
            List<ObjectInfo> infos = new ArrayList<>();
            lastPage = true;
            for (Map.Entry<String, byte[]> entry : rest.entrySet()) {
                if (!entry.getKey().startsWith(prefix)) {
                    break;
                }
                if (infos.size() == LIST_PAGE_SIZE) {
                    lastPage = false;   // a matching key follows this page: S3 would say IsTruncated
                    break;
                }
                infos.add(new ObjectInfo(entry.getKey(), entry.getValue().length));
            }
            if (!infos.isEmpty()) {
                lastKey = infos.get(infos.size() - 1).key();
            }
            metrics.onFirstByte(RequestKind.LIST, 0);
            return infos.iterator();
        }
    }
}
