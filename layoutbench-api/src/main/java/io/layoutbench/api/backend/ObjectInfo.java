package io.layoutbench.api.backend;

import static java.util.Objects.requireNonNull;

/**
 * An object's key and size, as listed by {@link ObjectBackend#list(String)}.
 *
 * <pre>{@code
 * long total = backend.list("l2/shards/").mapToLong(ObjectInfo::size).sum();
 * }</pre>
 *
 * @param key  the object key, relative to the backend's root
 * @param size the object size in bytes
 */
public record ObjectInfo(String key, long size) {
    public ObjectInfo {
        requireNonNull(key, "key is null");
        if (size < 0) {
            throw new IllegalArgumentException("Object size must be >= 0, got " + size + " for " + key);
        }
    }
}
