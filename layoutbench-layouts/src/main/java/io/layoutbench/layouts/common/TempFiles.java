package io.layoutbench.layouts.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Local temporary files for objects built before upload (tar shards, Parquet files), in {@code java.io.tmpdir}.
 *
 * <pre>{@code
 * Path shard = TempFiles.create("layoutbench-l2-", ".tar");
 * try { ... } finally { TempFiles.delete(shard); }
 * }</pre>
 */
public final class TempFiles {

    private TempFiles() {
    }

    /** A new empty temporary file. */
    public static Path create(String prefix, String suffix) {
        try {
            return Files.createTempFile(prefix, suffix);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary file in " + System.getProperty("java.io.tmpdir")
                    + " (set -Djava.io.tmpdir to a directory with free space)", e);
        }
    }

    /** Deletes {@code file} if it exists; failures are ignored (it is a temporary file). */
    public static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // Best effort: the OS cleans its temp directory.
        }
    }
}
