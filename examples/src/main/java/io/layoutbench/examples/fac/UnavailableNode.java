package io.layoutbench.examples.fac;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.metrics.RequestMetrics;

import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * A node that could not be opened, standing in its place so that the FAC store still has N nodes in order: every
 * request fails with a {@link StorageException} saying why, as a node that is down would. Reads then rebuild around
 * it, and only what needs it (a put, repairing onto it) fails.
 */
final class UnavailableNode implements ObjectBackend {

    private final URI uri;
    private final String reason;

    UnavailableNode(URI uri, String reason) {
        this.uri = uri;
        this.reason = reason;
    }

    /** Why the node could not be opened. */
    String reason() {
        return reason;
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        return CompletableFuture.failedFuture(unavailable());
    }

    @Override
    public long size(String key) {
        throw unavailable();
    }

    @Override
    public void put(String key, InputStream data, long length) {
        throw unavailable();
    }

    @Override
    public Stream<ObjectInfo> list(String prefix) {
        throw unavailable();
    }

    @Override
    public void delete(String key) {
        throw unavailable();
    }

    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        return this;
    }

    @Override
    public void close() {
    }

    private StorageException unavailable() {
        return new StorageException("unavailable: " + reason);
    }

    @Override
    public String toString() {
        return "UnavailableNode[" + uri + ": " + reason + "]";
    }
}
