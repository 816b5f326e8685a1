package io.layoutbench.backend.file;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendProvider;
import io.layoutbench.api.metrics.RequestMetrics;

import java.net.URI;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Opens {@link FileBackend}s for URIs {@code file:/abs/path} or {@code file:///abs/path}; the directory is created
 * if missing. Found by {@link java.util.ServiceLoader}.
 *
 * <p>Properties: {@code ioThreads} (positive integer, default {@value FileBackend.Options#DEFAULT_IO_THREADS}),
 * the most reads running at once; {@code fsync} ({@code true} or {@code false}, default {@code true}), whether
 * puts force data to disk before renaming it into place. Any other property is an error.
 *
 * <pre>{@code
 * ObjectBackend local = ObjectBackends.open(URI.create("file:///data/layoutbench"),
 *         Map.of("ioThreads", "8"), metrics);
 * }</pre>
 */
public final class FileBackendProvider implements ObjectBackendProvider {

    private static final Set<String> PROPERTIES = Set.of("ioThreads", "fsync");

    @Override
    public String scheme() {
        return "file";
    }

    @Override
    public ObjectBackend open(URI uri, Map<String, String> properties, RequestMetrics metrics) {
        requireNonNull(uri, "uri is null");
        requireNonNull(properties, "properties is null");
        return new FileBackend(rootOf(uri), options(uri, properties), metrics);
    }

    private static Path rootOf(URI uri) {
        if (!"file".equalsIgnoreCase(uri.getScheme()) || uri.isOpaque() || uri.getPath() == null
                || uri.getPath().isEmpty()) {
            throw new IllegalArgumentException("A file backend URI must name an absolute directory, like"
                    + " file:/data/x or file:///data/x; got '" + uri + "'");
        }
        if (uri.getRawAuthority() != null) {
            throw new IllegalArgumentException("A file backend URI must not name a host: got '" + uri
                    + "'; use file:///path for a local directory");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("A file backend URI takes settings as properties, not as a query or"
                    + " fragment: got '" + uri + "'");
        }
        try {
            return Path.of(uri);
        } catch (IllegalArgumentException | FileSystemNotFoundException e) {
            throw new IllegalArgumentException("Invalid file backend URI '" + uri + "': " + e.getMessage(), e);
        }
    }

    private static FileBackend.Options options(URI uri, Map<String, String> properties) {
        Set<String> unknown = new TreeSet<>(properties.keySet());
        unknown.removeAll(PROPERTIES);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Unknown file backend properties " + unknown + " for " + uri
                    + "; supported: " + new TreeSet<>(PROPERTIES));
        }
        FileBackend.Options options = FileBackend.Options.defaults();
        String threads = properties.get("ioThreads");
        if (threads != null) {
            try {
                options = options.withIoThreads(Integer.parseInt(threads.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("File backend property ioThreads must be a positive integer,"
                        + " got '" + threads + "' for " + uri, e);
            }
        }
        String fsync = properties.get("fsync");
        if (fsync != null) {
            String value = fsync.trim().toLowerCase(Locale.ROOT);
            if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException("File backend property fsync must be true or false, got '"
                        + fsync + "' for " + uri);
            }
            options = options.withFsync(Boolean.parseBoolean(value));
        }
        return options;
    }
}
