package io.layoutbench.oneobject;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.LayoutModel;
import io.layoutbench.api.model.SupportsModelling;
import io.layoutbench.layouts.common.LayoutOptions;

import java.util.Map;
import java.util.Set;

/**
 * A test-only layout that proves a new layout is one package and one services line: the whole dataset in one
 * object ({@code dataset.bin}: every sample's bytes back to back, then the metadata block, its length and a
 * magic). A query loads the metadata block (two ranged reads of the object's end, cached) and reads the samples'
 * whole region in one GET when anything matches, like a scan. It passes the layout contract and models itself, so
 * the advisor ranks it.
 */
public final class OneObjectLayout implements StorageLayout, SupportsModelling {

    /** The layout's name. */
    public static final String NAME = "one-object";
    static final int FORMAT_VERSION = 1;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "the whole dataset in one object, read as a scan (a test layout)";
    }

    @Override
    public DatasetWriter create(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        LayoutOptions.of(NAME, options, Set.of());
        return new OneObjectWriter(backend, prefix, schema);
    }

    @Override
    public Dataset open(ObjectBackend backend, String prefix) {
        return new OneObjectDataset(backend, prefix);
    }

    @Override
    public LayoutModel model(DatasetMetadata data, Map<String, String> options) {
        LayoutOptions.of(NAME, options, Set.of());
        return new OneObjectModel(data);
    }
}
