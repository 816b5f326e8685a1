package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendProvider;
import io.layoutbench.api.metrics.RequestMetrics;

import java.net.URI;
import java.util.Map;

/**
 * Opens {@link FlightNodeBackend}s for URIs {@code flight://host:port}, the address of a {@link StorageNodeServer}.
 * Found by {@link java.util.ServiceLoader}. The properties are those of
 * {@link FlightNodeBackend.Options#fromProperties}; any other property is an error.
 *
 * <pre>{@code
 * ObjectBackend node = ObjectBackends.open(URI.create("flight://10.0.0.13:47003"),
 *         Map.of("callTimeout", "30s", "ioThreads", "32"), metrics);
 * }</pre>
 */
public final class FlightNodeBackendProvider implements ObjectBackendProvider {

    @Override
    public String scheme() {
        return StorageNodeServer.SCHEME;
    }

    @Override
    public ObjectBackend open(URI uri, Map<String, String> properties, RequestMetrics metrics) {
        requireNonNull(uri, "uri is null");
        requireNonNull(properties, "properties is null");
        return new FlightNodeBackend(uri, FlightNodeBackend.Options.fromProperties(properties), metrics);
    }
}
