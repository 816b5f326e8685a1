package io.layoutbench.api.layout;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.Map;

/**
 * A way of laying a dataset out in an object store ({@code l1}: one object per sample, {@code l2}: tar shards,
 * {@code l3}: Parquet with a blob column, {@code fac}: erasure-coded Parquet). A layout writes a dataset of
 * samples under a prefix of a backend, and opens it again for queries. Any metadata schema whose columns have the
 * predicate language's types works with every layout.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader} (list them in
 * {@code META-INF/services/io.layoutbench.api.layout.StorageLayout}), need a public no-arg constructor, are
 * stateless and thread-safe. Look one up with {@link StorageLayouts#get(String)}. A layout that can predict its
 * plans before it is written also implements {@link io.layoutbench.api.model.SupportsModelling}; the layout
 * advisor ranks those.
 *
 * <pre>{@code
 * StorageLayout l2 = StorageLayouts.get("l2");
 * try (DatasetWriter writer = l2.create(backend, "imagenet-mini/l2", MetadataSchema.imageNet(),
 *         Map.of("shard-size", "64MB"))) {
 *     samples.forEach(writer::add);
 *     writer.commit();
 * }
 * }</pre>
 */
public interface StorageLayout {

    /** The layout's stable name, lower case: {@code l1}, {@code l2}, {@code l3}, {@code fac}. */
    String name();

    /** One line on what the layout stores where, for help text. */
    String description();

    /**
     * Starts writing a new dataset of {@code schema} under {@code prefix}. Nothing is visible to {@link #open}
     * until {@link DatasetWriter#commit()} writes the manifest, last.
     *
     * @param schema  the metadata columns every sample added must have
     * @param options layout settings (shard size, row-group size ...); unknown keys are an error naming the known
     *                ones
     */
    DatasetWriter create(ObjectBackend backend, String prefix, MetadataSchema schema, Map<String, String> options);

    /**
     * Opens the committed dataset under {@code prefix}; its schema is the one it was written with
     * ({@link Dataset#schema()}).
     *
     * @throws io.layoutbench.api.backend.ObjectNotFoundException if no committed dataset is there
     */
    Dataset open(ObjectBackend backend, String prefix);
}
