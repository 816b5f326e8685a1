package io.layoutbench.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.commons.io.file.PathUtils;

/**
 * Where an example keeps its data: the directory named on its command line, created if missing and kept; or, with
 * none named, a new temporary directory that {@link #close()} deletes with everything in it, so that running an
 * example again and again does not fill the disk with copies of its dataset.
 *
 * <pre>{@code
 * try (ExampleDirectory directory = ExampleDirectory.of(args, "layoutbench-quickstart");
 *         ObjectBackend backend = ObjectBackends.open("file:" + directory.path())) {
 *     ...
 * }
 * }</pre>
 */
public final class ExampleDirectory implements AutoCloseable {

    private final Path path;
    private final boolean temporary;

    private ExampleDirectory(Path path, boolean temporary) {
        this.path = path;
        this.temporary = temporary;
    }

    /** The directory {@code args[0]} if given (kept), else a new temporary one named {@code prefix...} (deleted). */
    public static ExampleDirectory of(String[] args, String prefix) {
        String where = args.length > 0 ? args[0] : "a temporary directory " + prefix + "... in "
                + System.getProperty("java.io.tmpdir");
        try {
            if (args.length > 0) {
                return new ExampleDirectory(Files.createDirectories(Path.of(args[0])).toAbsolutePath(), false);
            }
            return temporary(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the example's directory, " + where + ": " + e, e);
        }
    }

    /** A new temporary directory named {@code prefix...}, deleted with its contents by {@link #close()}. */
    public static ExampleDirectory temporary(String prefix) throws IOException {
        return new ExampleDirectory(Files.createTempDirectory(prefix).toAbsolutePath(), true);
    }

    /** The directory's absolute path. */
    public Path path() {
        return path;
    }

    /** Whether {@link #close()} deletes the directory. */
    public boolean temporary() {
        return temporary;
    }

    /** Deletes the directory and its contents if it is a temporary one. */
    @Override
    public void close() {
        if (temporary) {
            try {
                PathUtils.deleteDirectory(path);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot delete the example's temporary directory " + path + ": "
                        + e.getMessage(), e);
            }
        }
    }

    @Override
    public String toString() {
        return path + (temporary ? " (temporary: deleted at the end; name a directory to keep the data)" : "");
    }
}
