package io.layoutbench.layouts.manifest;

import io.layoutbench.api.backend.StorageException;

/**
 * A dataset was written by a layoutbench that recorded no checksums in its manifest (or its manifest was cut to
 * look so), and is refused: its metadata cannot be verified, and unverified metadata can change a query's answer
 * silently. Re-ingesting it records the checksums. Not transient; the message names the dataset and the manifest.
 *
 * <pre>{@code
 * try (Dataset dataset = layout.open(backend, prefix)) { ... }
 * catch (UnverifiedDatasetException e) { reingest(prefix); }
 * }</pre>
 */
public class UnverifiedDatasetException extends StorageException {
    private static final long serialVersionUID = 1L;

    public UnverifiedDatasetException(String message) {
        super(message);
    }
}
