package io.layoutbench.api.backend;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.internal.ProviderRegistry;
import io.layoutbench.api.metrics.RequestMetrics;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Opens an {@link ObjectBackend} from a URI, through the {@link ObjectBackendProvider}s on the class path.
 *
 * <pre>{@code
 * try (ObjectBackend files = ObjectBackends.open("file:/tmp/layoutbench");
 *      ObjectBackend memory = ObjectBackends.open("mem:test")) {
 *     ...
 * }
 * ObjectBackends.open("ftp://host/x");   // IllegalArgumentException: ... schemes found: file, mem, s3
 * }</pre>
 */
public final class ObjectBackends {

    private ObjectBackends() {
    }

    /** Opens {@code uri} with no properties and no metrics. */
    public static ObjectBackend open(String uri) {
        return open(parse(uri), Map.of(), RequestMetrics.NONE);
    }

    /**
     * Opens the URI text {@code uri} with provider {@code properties}, counting requests into {@code metrics}.
     *
     * @throws io.layoutbench.api.ConfigurationException if {@code uri} is not a URI
     */
    public static ObjectBackend open(String uri, Map<String, String> properties, RequestMetrics metrics) {
        return open(parse(uri), properties, metrics);
    }

    /** Opens {@code uri} with provider {@code properties}, counting requests into {@code metrics}. */
    public static ObjectBackend open(URI uri, Map<String, String> properties, RequestMetrics metrics) {
        String scheme = uri.getScheme();
        if (scheme == null) {
            throw new ConfigurationException("Backend URI '" + uri + "' has no scheme; schemes found: "
                    + String.join(", ", schemes()));
        }
        return registry().get(scheme.toLowerCase(Locale.ROOT)).open(uri, Map.copyOf(properties), metrics);
    }

    /** The schemes of the providers on the class path, sorted. */
    public static Set<String> schemes() {
        return registry().names();
    }

    /** A registry over explicit providers, for tests and for callers that do their own discovery. */
    public static ProviderRegistry<ObjectBackendProvider> registryOf(Iterable<ObjectBackendProvider> providers) {
        return new ProviderRegistry<>("object backend", "scheme", providers, ObjectBackendProvider::scheme);
    }

    private static ProviderRegistry<ObjectBackendProvider> registry() {
        return Holder.REGISTRY;
    }

    private static URI parse(String uri) {
        try {
            return new URI(uri);
        } catch (URISyntaxException e) {
            throw new ConfigurationException("Invalid backend URI '" + uri + "': " + e.getMessage(), e);
        }
    }

    // Loaded on first use, once: the class path does not change while the JVM runs.
    private static final class Holder {
        static final ProviderRegistry<ObjectBackendProvider> REGISTRY =
                registryOf(ProviderRegistry.discover(ObjectBackendProvider.class));
    }
}
