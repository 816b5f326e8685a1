package io.layoutbench.api.layout;

import io.layoutbench.api.dataset.MetadataSchema;

/**
 * A committed dataset opened from its layout. Thread-safe; holds the client-side metadata cache.
 *
 * <pre>{@code
 * try (Dataset dataset = StorageLayouts.get("l1").open(backend, "mini/l1")) {
 *     System.out.println(dataset.summary().sampleCount() + " samples, columns " + dataset.schema());
 * }
 * }</pre>
 */
public interface Dataset extends AutoCloseable {

    /** The metadata columns. */
    MetadataSchema schema();

    /** What the dataset holds, from its manifest. */
    DatasetSummary summary();

    /** Drops cached metadata. */
    @Override
    void close();
}
