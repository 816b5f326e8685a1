package io.layoutbench.api.backend;

import io.layoutbench.api.internal.SlicedIo;
import io.layoutbench.api.metrics.RequestMetrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The few operations an object store has: put, ranged and whole reads, size, list by prefix, delete.
 *
 * <p>Keys are relative to the backend's root (a bucket prefix, a directory), use {@code /} as separator and are
 * checked with {@link ObjectKeys#check(String)}. Backends are opened from a URI with
 * {@link ObjectBackends#open(String)}.
 *
 * <p><b>Ranged reads are the hot path.</b> {@link #readRangeAsync} returns a read-only buffer holding exactly the
 * range, filled once from the store with no further copies; a range that ends past the object fails with
 * {@link RangeNotSatisfiableException} naming key, range and size. A zero-length range at or before the end is
 * legal and returns an empty buffer.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe; many readers may share one backend.
 * <b>Errors</b> are {@link StorageException}s: {@link ObjectNotFoundException}, {@link AccessDeniedException},
 * {@link TransientStorageException}; asynchronous methods complete exceptionally with them.
 * <b>Writes are atomic</b>: a reader sees the old object, or none, until {@code put} returns.
 *
 * <pre>{@code
 * try (ObjectBackend backend = ObjectBackends.open("file:/data/imagenet")) {
 *     backend.put("hello.txt", "hello".getBytes(StandardCharsets.UTF_8));
 *     ByteBuffer ell = backend.readRange("hello.txt", ByteRange.of(1, 3));   // "ell"
 * }
 * }</pre>
 */
public interface ObjectBackend extends AutoCloseable {

    /** The URI this backend was opened from, with no credentials in it. */
    URI uri();

    /**
     * Reads {@code range} of the object {@code key}.
     *
     * @return a future of a read-only buffer whose remaining bytes are exactly the range
     */
    CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range);

    /**
     * The object's size in bytes.
     *
     * @throws ObjectNotFoundException if there is no such object
     */
    long size(String key);

    /**
     * Stores {@code length} bytes read from {@code data} as the object {@code key}, replacing any object of that
     * name. The object appears whole or not at all. The stream is read to {@code length} bytes, not closed.
     *
     * @throws StorageException if the stream ends before {@code length} bytes, naming the key and both counts
     */
    void put(String key, InputStream data, long length);

    /**
     * The objects whose keys start with {@code prefix}, in ascending key order, paged lazily. Close the stream
     * (try-with-resources) when it is not read to the end. An empty prefix lists everything.
     */
    Stream<ObjectInfo> list(String prefix);

    /** Deletes the object {@code key}; deleting a missing object is not an error (as on S3). */
    void delete(String key);

    /**
     * A view of this backend that shares its connections and state but counts requests into {@code metrics}
     * instead of this backend's metrics (a view of a view counts into the newest only). Datasets count each query
     * into a view of their own: read a query's traffic from its {@code SampleStream.stats()}. Closing the view does
     * not close this backend.
     */
    ObjectBackend withMetrics(RequestMetrics metrics);

    /** Blocking {@link #readRangeAsync}: waits, and rethrows the {@link StorageException} it failed with. */
    default ByteBuffer readRange(String key, ByteRange range) {
        return await(readRangeAsync(key, range));
    }

    /**
     * Reads {@code range} of the object {@code key} with the requests {@link #readRangeAsync} sends, and its errors,
     * but hands its bytes to {@code pieces} in order as they arrive instead of gathering them into one buffer: a
     * reader that keeps only part of a large range (a few blobs of a 128 MB column chunk) holds a piece at a time,
     * not the range.
     *
     * <p>{@code pieces} is called one piece after another, never concurrently, on a thread of the backend's choosing:
     * keep it short, as the next piece waits for it. Each piece is a read-only buffer whose remaining bytes follow
     * the previous piece's, never empty, and valid only during the call (the backend may reuse it): copy what you
     * keep. It may move the piece's position. The future completes once the last piece has been handed over. It
     * fails with the backend's {@link StorageException}, or with what {@code pieces} threw, which ends the read. A
     * failure can come after some pieces were handed over (a connection broken mid-body): drop what was gathered.
     * A streamed read cannot start over once pieces are out: where {@code readRangeAsync} reads an object overwritten
     * meanwhile again, a streamed read fails saying so. Cancelling the future stops the read; a piece being handed
     * over may still arrive.
     *
     * <p>The default reads the range with {@link #readRangeAsync} and hands it over as one piece; backends that can
     * stream override it (the file, S3 and simulated-network backends do).
     *
     * <pre>{@code
     * CRC32 crc = new CRC32();
     * backend.streamRangeAsync("l3/part-00000.parquet", ByteRange.of(4, 128 << 20), crc::update).join();
     * }</pre>
     */
    default CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
        Objects.requireNonNull(pieces, "pieces is null");
        return inOnePiece(readRangeAsync(key, range), pieces);
    }

    /**
     * Hands what {@code read} brings to {@code pieces} as one piece (none if it is empty): how a backend or a
     * decorator that cannot stream a read (a raced read, whose winner is known only once it is read) answers
     * {@link #streamRangeAsync}.
     */
    static CompletableFuture<Void> inOnePiece(CompletableFuture<ByteBuffer> read, Consumer<ByteBuffer> pieces) {
        Objects.requireNonNull(pieces, "pieces is null");
        CompletableFuture<Void> handed = read.thenAccept(bytes -> {
            if (bytes.hasRemaining()) {
                pieces.accept(bytes);
            }
        });
        handed.whenComplete((ignored, failure) -> {
            if (handed.isCancelled()) {
                read.cancel(true);   // cancelling a dependent stage does not stop the read it waits for
            }
        });
        return handed;
    }

    /** Reads the whole object. The default asks for its size, then reads one range; backends may do better. */
    default CompletableFuture<ByteBuffer> readAllAsync(String key) {
        try {
            return readRangeAsync(key, ByteRange.of(0, size(key)));
        } catch (StorageException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Blocking {@link #readAllAsync}. */
    default ByteBuffer readAll(String key) {
        return await(readAllAsync(key));
    }

    /** Stores {@code data} as the object {@code key}. */
    default void put(String key, byte[] data) {
        put(key, new java.io.ByteArrayInputStream(data), data.length);
    }

    /**
     * Stores the file at {@code file} as the object {@code key}; large files are streamed, not loaded, at most
     * {@value SlicedIo#SLICE_BYTES} bytes per read of the file, however much the backend asks for at once.
     */
    default void put(String key, Path file) {
        // Sliced: a read of n bytes from a file's stream takes a temporary direct buffer of n bytes (see SlicedIo).
        try (InputStream in = SlicedIo.slicedReads(Files.newInputStream(file))) {
            put(key, in, Files.size(file));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + " to store it as " + key, e);
        }
    }

    /** Whether the object exists. */
    default boolean exists(String key) {
        try {
            size(key);
            return true;
        } catch (ObjectNotFoundException e) {
            return false;
        }
    }

    /** Deletes every key in {@code keys}; backends with batch delete do it in fewer requests. */
    default void deleteAll(Collection<String> keys) {
        keys.forEach(this::delete);
    }

    /** Releases connections and threads. Views from {@link #withMetrics} stop working once this is closed. */
    @Override
    void close();

    /**
     * Waits for {@code future} and rethrows the unchecked exception it failed with, unwrapped from
     * {@link CompletionException}.
     */
    static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("Interrupted while waiting for a storage operation", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new StorageException("Storage operation failed: " + cause, cause);
        }
    }
}
