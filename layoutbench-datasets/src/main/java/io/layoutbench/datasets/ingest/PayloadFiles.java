package io.layoutbench.datasets.ingest;

import io.layoutbench.api.dataset.Blob;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * How a {@link ManifestSource} reaches the files its manifest lists: sizing one reads its attributes only, opening
 * one makes a lazily read {@link Blob}, so the source itself never reads a payload byte. One seam, so that tests can
 * see which files are opened.
 */
interface PayloadFiles {

    /** Local files: {@link Files#readAttributes} and {@link Blob#ofFile}. */
    PayloadFiles LOCAL = new PayloadFiles() {
        @Override
        public long size(Path file) throws IOException {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            if (!attributes.isRegularFile()) {
                throw new NotARegularFileException(file);
            }
            return attributes.size();
        }

        @Override
        public Blob open(Path file) throws IOException {
            size(file);
            try {
                return Blob.ofFile(file);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
    };

    /** A listed path that is a directory or a device, not a file. */
    final class NotARegularFileException extends IOException {
        private static final long serialVersionUID = 1L;

        NotARegularFileException(Path file) {
            super(file + " is not a regular file");
        }
    }

    /**
     * The file's size in bytes, from its attributes.
     *
     * @throws IOException if it does not exist, is not a regular file or cannot be read
     */
    long size(Path file) throws IOException;

    /**
     * A blob over the file, read when asked.
     *
     * @throws IOException if it does not exist, is not a regular file or cannot be opened
     */
    Blob open(Path file) throws IOException;
}
