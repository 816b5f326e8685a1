package io.layoutbench.examples.cli;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.s3.embedded.EmbeddedS3Server;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The object store a command works on, opened from the {@code --backend} option:
 * <ul>
 *   <li>{@code file}: a directory, {@code <data-dir>/objects};</li>
 *   <li>{@code mem}: the heap of this process (nothing survives the command);</li>
 *   <li>{@code s3-embedded}: an S3 server in this process (s3proxy), its buckets under {@code <data-dir>/s3};</li>
 *   <li>{@code s3://bucket/prefix}: a real bucket, through the S3 backend module ({@code --backend-property} passes
 *       its settings: region, endpoint, credentials ...).</li>
 * </ul>
 * Closing the store closes the backend, then the embedded server if one was started.
 */
final class Store implements AutoCloseable {

    /** The bucket the embedded S3 server holds the datasets in. */
    static final String EMBEDDED_BUCKET = "layoutbench";

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
     * @throws IllegalArgumentException if {@code spec} is not a known backend
     * @throws LayoutBenchException     if an S3 backend is asked for and the S3 modules are not on the class path
     */
    static Store open(String spec, Path dataDir, Map<String, String> properties) {
        requireNonNull(spec, "spec is null");
        String name = spec.strip();
        switch (name.toLowerCase(Locale.ROOT)) {
            case "file" -> {
                Path root = dataDir.resolve("objects").toAbsolutePath().normalize();
                // Benchmark data can be generated again, so puts skip fsync: ingest is several times faster.
                FileBackend files = new FileBackend(root, FileBackend.Options.defaults().withFsync(false),
                        RequestMetrics.NONE);
                return new Store(files, "file", true, null);
            }
            case "mem" -> {
                return new Store(new MemoryBackend(), "mem", false, null);
            }
            case "s3-embedded" -> {
                return openEmbeddedS3(dataDir.resolve("s3").toAbsolutePath().normalize(), properties);
            }
            default -> {
                if (name.regionMatches(true, 0, "s3://", 0, 5)) {
                    return openS3(name, properties);
                }
                throw new IllegalArgumentException("Unknown backend '" + spec
                        + "'; use file, mem, s3-embedded or s3://bucket/prefix");
            }
        }
    }

    /**
     * Checks that {@code spec} names a backend this command line knows, before anything is opened.
     *
     * @throws ParameterException if it does not
     */
    static void checkSpec(CommandLine cmd, String spec) {
        String name = spec.strip().toLowerCase(Locale.ROOT);
        if (!List.of("file", "mem", "s3-embedded").contains(name) && !name.startsWith("s3://")) {
            throw new ParameterException(cmd, "Unknown backend '" + spec
                    + "'; use file, mem, s3-embedded or s3://bucket/prefix");
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

    private static Store openS3(String uri, Map<String, String> properties) {
        requireS3Backend();
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("Invalid backend URI '" + uri + "': " + e.getMessage(), e);
        }
        if (parsed.getHost() == null || parsed.getHost().isEmpty()) {
            throw new IllegalArgumentException("Backend URI '" + uri + "' names no bucket; use s3://bucket/prefix");
        }
        return new Store(ObjectBackends.open(parsed, properties, RequestMetrics.NONE), uri, true, null);
    }

    /** Starts an S3 server in this process over {@code storageDir} and opens its bucket {@value #EMBEDDED_BUCKET}. */
    private static Store openEmbeddedS3(Path storageDir, Map<String, String> extraProperties) {
        requireS3Backend();
        EmbeddedS3Server server = EmbeddedS3Server.start(storageDir);
        try {
            server.createBucket(EMBEDDED_BUCKET);
            Map<String, String> properties = new LinkedHashMap<>(server.backendProperties());
            properties.putAll(extraProperties);
            ObjectBackend backend = ObjectBackends.open(URI.create("s3://" + EMBEDDED_BUCKET), properties,
                    RequestMetrics.NONE);
            return new Store(backend, "s3-embedded", true, server);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static void requireS3Backend() {
        if (!ObjectBackends.schemes().contains("s3")) {
            throw new LayoutBenchException("The S3 backend module (layoutbench-s3) is not on the class path; "
                    + "use --backend file or mem");
        }
    }
}
