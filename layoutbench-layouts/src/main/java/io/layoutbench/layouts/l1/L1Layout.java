package io.layoutbench.layouts.l1;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.layouts.common.LayoutOptions;

import java.util.Map;
import java.util.Set;

/**
 * Layout L1: one object per sample, at {@code <prefix>/<generation>/samples/<filename>}, plus a metadata table in
 * Parquet ({@code filename, human_label, filesize_bytes, width, height, crc32c}) that the client loads once and
 * caches. A query reads the table, evaluates the predicate locally, then sends one GET per matching sample (in both
 * modes: there is nothing to merge).
 *
 * <pre>{@code
 * StorageLayout l1 = StorageLayouts.get("l1");
 * try (DatasetWriter writer = l1.create(backend, "mini/l1", Map.of())) { ... writer.commit(); }
 * }</pre>
 */
public final class L1Layout implements StorageLayout {

    /** The layout's name. */
    public static final String NAME = "l1";
    static final int FORMAT_VERSION = 1;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "one object per sample plus a Parquet metadata table (the paper's L1)";
    }

    @Override
    public DatasetWriter create(ObjectBackend backend, String prefix, Map<String, String> options) {
        return create(backend, prefix, MetadataSchema.imageNet(), options);
    }

    /** A writer for a dataset with metadata {@code schema}. */
    public DatasetWriter create(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        LayoutOptions.of(NAME, options, Set.of());
        return new L1Writer(backend, prefix, schema);
    }

    @Override
    public Dataset open(ObjectBackend backend, String prefix) {
        return new L1Dataset(backend, prefix);
    }
}
