package io.layoutbench.oneobject;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.layouts.contract.PaperReference;

/** The layout contract for the test-only one-object layout (found by its services line), its model included. */
class OneObjectContractTest extends StorageLayoutContractTest {

    @Override
    protected StorageLayout layout() {
        return StorageLayouts.get(OneObjectLayout.NAME);
    }

    @Override
    protected ObjectBackend newBackend() {
        return new MemoryBackend();
    }

    @Override
    protected ReferenceWorkload referenceWorkload() {
        return PaperReference.tiny();
    }

    /** Its model encodes the metadata block as the writer does: exact, metadata included. */
    @Override
    protected double modelMetadataTolerance() {
        return 0;
    }

    /** The worked example stores samples of one payload field. */
    @Override
    protected boolean storesSeveralFields() {
        return false;
    }
}
