package io.layoutbench.layouts.common;

import io.layoutbench.api.backend.StorageException;

/**
 * Another ingest committed a dataset at the same prefix while this one was writing, and began after it: committing
 * this one now would replace newer data with older, and the other commit may already have removed objects this one
 * wrote. Nothing is replaced; the writer deletes what it wrote when closed. Not transient: ingest again if this
 * data should win. The message names the prefix and both generations.
 *
 * <pre>{@code
 * try (DatasetWriter writer = layout.create(backend, prefix, schema, options)) {
 *     samples.forEach(writer::add);
 *     writer.commit();
 * } catch (ConcurrentIngestException e) {
 *     log.warn("{}: kept the newer dataset", e.getMessage());
 * }
 * }</pre>
 */
public class ConcurrentIngestException extends StorageException {
    private static final long serialVersionUID = 1L;

    public ConcurrentIngestException(String message) {
        super(message);
    }
}
