package io.layoutbench.layouts.contract;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.backend.memory.MemoryBackend;

import java.util.Map;

/** The layout contract for l3. */
class L3ContractTest extends StorageLayoutContractTest {

    @Override
    protected StorageLayout layout() {
        return StorageLayouts.get("l3");
    }

    @Override
    protected ObjectBackend newBackend() {
        return new MemoryBackend();
    }

    @Override
    protected Map<String, String> writeOptions() {
        return Map.of("file-size", "4MB", "row-group-size", "1MB");
    }

    @Override
    protected ReferenceWorkload referenceWorkload() {
        return PaperReference.tiny();
    }
}
