package io.layoutbench.oneobject;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest.ReferenceWorkload;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.model.LayoutModelContractTest;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.layouts.contract.PaperReference;

/** The model contract for the test-only one-object layout: its model is exact, metadata included. */
class OneObjectModelContractTest extends LayoutModelContractTest {

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

    @Override
    protected double metadataTolerance() {
        return 0;
    }
}
