package io.layoutbench.layouts.contract;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.backend.memory.MemoryBackend;

import java.util.List;
import java.util.Map;

/** The layout contract for l2, its model included. */
class L2ContractTest extends StorageLayoutContractTest {

    @Override
    protected StorageLayout layout() {
        return StorageLayouts.get("l2");
    }

    @Override
    protected ObjectBackend newBackend() {
        return new MemoryBackend();
    }

    @Override
    protected Map<String, String> writeOptions() {
        return Map.of("shard-size", "1MB");
    }

    @Override
    protected List<Map<String, String>> modelSettings() {
        return List.of(Map.of("shard-size", "64MB"), Map.of("shard-size", "4MB"));
    }

    @Override
    protected ReferenceWorkload referenceWorkload() {
        return PaperReference.tiny();
    }
}
