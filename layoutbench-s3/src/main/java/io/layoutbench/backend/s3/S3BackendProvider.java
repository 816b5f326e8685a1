package io.layoutbench.backend.s3;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendProvider;
import io.layoutbench.api.metrics.RequestMetrics;

import java.net.URI;
import java.util.Map;

/**
 * Opens {@link S3Backend}s for URIs {@code s3://bucket} and {@code s3://bucket/prefix}. Found by
 * {@link java.util.ServiceLoader}. The properties are those of {@link S3Options#fromProperties}; any other property
 * is an error.
 *
 * <pre>{@code
 * ObjectBackend s3 = ObjectBackends.open(URI.create("s3://datasets/imagenet"),
 *         Map.of("endpoint", "http://127.0.0.1:9000", "pathStyle", "true", "region", "us-east-1"), metrics);
 * }</pre>
 */
public final class S3BackendProvider implements ObjectBackendProvider {

    @Override
    public String scheme() {
        return "s3";
    }

    @Override
    public ObjectBackend open(URI uri, Map<String, String> properties, RequestMetrics metrics) {
        requireNonNull(uri, "uri is null");
        requireNonNull(properties, "properties is null");
        S3Options options;
        try {
            options = S3Options.fromProperties(properties);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(e.getMessage() + " (opening " + S3Location.parse(uri).uri() + ")", e);
        }
        return new S3Backend(uri, options, metrics);
    }
}
