package io.layoutbench.examples.cli;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.s3.embedded.EmbeddedS3Server;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The object store a command works on, opened from the {@code --backend} option through
 * {@link ObjectBackends#open(URI, Map, RequestMetrics)}, so the backends themselves come from their providers:
 * <ul>
 *   <li>{@code file}: {@code file:<data-dir>/objects}, without fsync (benchmark data can be generated again, and
 *       ingest is several times faster);</li>
 *   <li>{@code mem}: {@code mem:layoutbench}, the heap of this process (nothing survives the command);</li>
 *   <li>{@code s3-embedded}: an S3 server in this process (s3proxy) over {@code <data-dir>/s3}, opened as
 *       {@code s3://}{@value #EMBEDDED_BUCKET} with the server's backend properties;</li>
 *   <li>{@code s3://bucket/prefix}: a real bucket ({@code --backend-property} passes its settings: region,
 *       endpoint, credentials ...).</li>
 * </ul>
 * The {@code --backend-property} settings go to the S3 backend only, as documented. Closing the store closes the
 * backend, then the embedded server if one was started.
 */
final class Store implements AutoCloseable {

    /** The bucket the embedded S3 server holds the datasets in. */
    static final String EMBEDDED_BUCKET = "layoutbench";

    private static final String KNOWN = "file, mem, s3-embedded or s3://bucket/prefix";

    private final ObjectBackend backend;
    private final String label;
    private final boolean persistent;
    private final EmbeddedS3Server server;

    private Store(ObjectBackend backend, String label, boolean persistent, EmbeddedS3Server server) {
        this.backend = backend;
        this.label = label;
        this.persistent = persistent;
        this.server = server;
    }

    /**
     * Opens the store {@code spec} names.
     *
     * @throws IllegalArgumentException if {@code spec} is not a known backend, or its backend is not on the class
     *                                  path (the message lists the schemes found)
     */
    static Store open(String spec, Path dataDir, Map<String, String> properties) {
        requireNonNull(spec, "spec is null");
        String name = spec.strip();
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "file" -> new Store(open(dataDir.resolve("objects").toAbsolutePath().normalize().toUri(),
                    Map.of("fsync", "false")), "file", true, null);
            case "mem" -> new Store(open(URI.create("mem:layoutbench"), Map.of()), "mem", false, null);
            case "s3-embedded" -> openEmbeddedS3(dataDir.resolve("s3").toAbsolutePath().normalize(), properties);
            default -> {
                if (!name.regionMatches(true, 0, "s3://", 0, 5)) {
                    throw new IllegalArgumentException("Unknown backend '" + spec + "'; use " + KNOWN);
                }
                yield new Store(open(uri(name), properties), name, true, null);
            }
        };
    }

    /**
     * Checks that {@code spec} names a backend this command line knows, before anything is opened.
     *
     * @throws ParameterException if it does not
     */
    static void checkSpec(CommandLine cmd, String spec) {
        String name = spec.strip().toLowerCase(Locale.ROOT);
        if (!List.of("file", "mem", "s3-embedded").contains(name) && !name.startsWith("s3://")) {
            throw new ParameterException(cmd, "Unknown backend '" + spec + "'; use " + KNOWN);
        }
    }

    ObjectBackend backend() {
        return backend;
    }

    /** How reports name the store: {@code file}, {@code mem}, {@code s3-embedded}, the {@code s3://} URI. */
    String label() {
        return label;
    }

    /** Whether datasets written here outlive this command. */
    boolean persistent() {
        return persistent;
    }

    /** Where the data lives, for messages. */
    String location() {
        return backend.uri().toString();
    }

    @Override
    public void close() {
        try {
            backend.close();
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    private static ObjectBackend open(URI uri, Map<String, String> properties) {
        return ObjectBackends.open(uri, properties, RequestMetrics.NONE);
    }

    private static URI uri(String uri) {
        try {
            return new URI(uri);
        } catch (URISyntaxException e) {
            throw new ConfigurationException("Invalid backend URI '" + uri + "': " + e.getMessage(), e);
        }
    }

    /** Starts an S3 server in this process over {@code storageDir} and opens its bucket {@value #EMBEDDED_BUCKET}. */
    private static Store openEmbeddedS3(Path storageDir, Map<String, String> extraProperties) {
        EmbeddedS3Server server = EmbeddedS3Server.start(storageDir);
        try {
            server.createBucket(EMBEDDED_BUCKET);
            Map<String, String> properties = new LinkedHashMap<>(server.backendProperties());
            properties.putAll(extraProperties);
            return new Store(open(URI.create("s3://" + EMBEDDED_BUCKET), properties), "s3-embedded", true, server);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }
}
