package io.layoutbench.oneobject;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.layouts.contract.PaperReference;

/** The layout contract for the test-only one-object layout, found by its services line like any layout. */
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
}
