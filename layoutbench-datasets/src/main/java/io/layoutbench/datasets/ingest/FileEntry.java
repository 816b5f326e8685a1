package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * One file a source lists, with what the source declares about it; null where it declares nothing.
 *
 * @param file     where the bytes are
 * @param filename the metadata {@code filename}
 * @param label    the metadata {@code label}
 * @param filesize declared size in bytes, or null
 * @param width    declared width, or null
 * @param height   declared height, or null
 * @param origin   where the entry comes from, for error messages: a manifest line or the file itself
 */
record FileEntry(Path file, String filename, String label, Long filesize, Long width, Long height, String origin) {

    FileEntry {
        requireNonNull(file, "file is null");
        requireNonNull(filename, "filename is null");
        requireNonNull(label, "label is null");
        requireNonNull(origin, "origin is null");
    }
}
