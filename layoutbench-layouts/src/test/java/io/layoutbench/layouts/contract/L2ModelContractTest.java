package io.layoutbench.layouts.contract;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest.ReferenceWorkload;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.model.LayoutModelContractTest;
import io.layoutbench.backend.memory.MemoryBackend;

import java.util.List;
import java.util.Map;

/** The model contract for l2: its model plans the paper's queries at tiny as the written dataset does. */
class L2ModelContractTest extends LayoutModelContractTest {

    @Override
    protected StorageLayout layout() {
        return StorageLayouts.get("l2");
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
    protected List<Map<String, String>> settings() {
        return List.of(Map.of("shard-size", "64MB"), Map.of("shard-size", "4MB"));
    }
}
