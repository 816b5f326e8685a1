package io.layoutbench.backend.memory;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendProvider;
import io.layoutbench.api.metrics.RequestMetrics;

import java.net.URI;
import java.util.Map;
import java.util.TreeSet;

/**
 * Opens {@link MemoryBackend}s for URIs {@code mem:<name>}. Found by {@link java.util.ServiceLoader}.
 *
 * <p><b>Every open is a new, empty store</b>, even for a name opened before: there is no JVM-wide registry of
 * named stores, so nothing outlives the backend that holds it and tests cannot see each other's objects. To share
 * objects, share the backend (or views of it from {@link ObjectBackend#withMetrics}). The name only labels the
 * store in {@link ObjectBackend#uri()} and in error messages. No properties are accepted.
 *
 * <pre>{@code
 * try (ObjectBackend scratch = ObjectBackends.open("mem:scratch")) {
 *     scratch.put("x", new byte[] {1, 2, 3});
 * }
 * }</pre>
 */
public final class MemoryBackendProvider implements ObjectBackendProvider {

    @Override
    public String scheme() {
        return "mem";
    }

    @Override
    public ObjectBackend open(URI uri, Map<String, String> properties, RequestMetrics metrics) {
        requireNonNull(uri, "uri is null");
        requireNonNull(properties, "properties is null");
        if (!properties.isEmpty()) {
            throw new IllegalArgumentException("The memory backend takes no properties, got "
                    + new TreeSet<>(properties.keySet()) + " for " + uri);
        }
        return new MemoryBackend(uri, metrics);
    }
}
