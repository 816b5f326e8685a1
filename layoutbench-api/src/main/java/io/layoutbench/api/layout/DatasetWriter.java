package io.layoutbench.api.layout;

import io.layoutbench.api.dataset.Sample;

/**
 * Writes the samples of one dataset into a layout. Not thread-safe: one thread adds samples, in order.
 *
 * <p>The dataset becomes visible only when {@link #commit()} writes its manifest, last. Closing a writer that was
 * not committed aborts it: objects written so far are deleted where possible, and in any case no manifest exists,
 * so no half-written dataset looks complete. Writing again under the same prefix replaces what an aborted or
 * crashed writer left.
 *
 * <pre>{@code
 * try (DatasetWriter writer = layout.create(backend, "mini/l1", MetadataSchema.imageNet(), Map.of())) {
 *     for (Sample s : samples) writer.add(s);
 *     writer.commit();
 * }
 * }</pre>
 */
public interface DatasetWriter extends AutoCloseable {

    /** Adds one sample; its metadata must match the dataset's schema. */
    void add(Sample sample);

    /** Flushes everything and writes the manifest; returns what was written. */
    DatasetSummary commit();

    /** Aborts the dataset if it was not committed. */
    @Override
    void close();
}
