package io.layoutbench.api.model;

/**
 * A {@link io.layoutbench.api.layout.Dataset} that hands out every sample's metadata and size from its metadata
 * alone, without reading a sample: what the layout advisor needs to rank layouts for a dataset already ingested.
 *
 * <pre>{@code
 * try (Dataset dataset = StorageLayouts.get("l2").open(backend, "pets/l2")) {
 *     if (dataset instanceof SupportsMetadataScan scan) {
 *         DatasetMetadata pets = scan.scanMetadata("pets");
 *     }
 * }
 * }</pre>
 */
public interface SupportsMetadataScan {

    /**
     * The dataset's metadata and sample sizes in storage order, named {@code name}; reads only metadata (a metadata
     * table, or the metadata columns of every row group).
     *
     * @throws io.layoutbench.api.LayoutBenchException naming the object if the metadata cannot be read
     */
    DatasetMetadata scanMetadata(String name);
}
