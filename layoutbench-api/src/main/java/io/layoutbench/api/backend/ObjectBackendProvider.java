package io.layoutbench.api.backend;

import io.layoutbench.api.metrics.RequestMetrics;

import java.net.URI;
import java.util.Map;

/**
 * Opens backends for one URI scheme. Implementations are found with {@link java.util.ServiceLoader}: list the
 * class in {@code META-INF/services/io.layoutbench.api.backend.ObjectBackendProvider}; it needs a public no-arg
 * constructor.
 *
 * <pre>{@code
 * public final class MemoryBackendProvider implements ObjectBackendProvider {
 *     public String scheme() { return "mem"; }
 *     public ObjectBackend open(URI uri, Map<String, String> properties, RequestMetrics metrics) {
 *         return new MemoryBackend(uri, metrics);
 *     }
 * }
 * }</pre>
 */
public interface ObjectBackendProvider {

    /** The URI scheme this provider opens, lower case: {@code mem}, {@code file}, {@code s3}. */
    String scheme();

    /**
     * Opens a backend.
     *
     * @param uri        the location, with this provider's scheme
     * @param properties provider-specific settings (region, endpoint, credentials ...); unknown keys are an error
     * @param metrics    where the backend counts its requests
     * @throws IllegalArgumentException if the URI or a property is invalid, naming it and saying why
     */
    ObjectBackend open(URI uri, Map<String, String> properties, RequestMetrics metrics);
}
