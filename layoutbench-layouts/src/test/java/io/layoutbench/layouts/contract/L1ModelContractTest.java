package io.layoutbench.layouts.contract;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest.ReferenceWorkload;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.model.LayoutModelContractTest;
import io.layoutbench.backend.memory.MemoryBackend;

/** The model contract for l1: its model plans the paper's queries at tiny as the written dataset does. */
class L1ModelContractTest extends LayoutModelContractTest {

    @Override
    protected StorageLayout layout() {
        return StorageLayouts.get("l1");
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
