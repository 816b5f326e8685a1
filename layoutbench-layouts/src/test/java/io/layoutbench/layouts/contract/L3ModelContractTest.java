package io.layoutbench.layouts.contract;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest.ReferenceWorkload;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.model.LayoutModelContractTest;
import io.layoutbench.backend.memory.MemoryBackend;

import java.util.List;
import java.util.Map;

/** The model contract for l3: its model plans the paper's queries at tiny as the written dataset does. */
class L3ModelContractTest extends LayoutModelContractTest {

    @Override
    protected StorageLayout layout() {
        return StorageLayouts.get("l3");
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
        return List.of(Map.of("file-size", "64MB", "row-group-size", "128MB", "page-size", "64KB"),
                Map.of("file-size", "64MB", "row-group-size", "16MB", "page-size", "4KB"),
                Map.of("file-size", "8MB", "row-group-size", "2MB", "page-size", "256KB"));
    }

    /** A page header holds its CRC32 as a varint of 1 to 5 bytes, which the model, without the bytes, takes as 5. */
    @Override
    protected long bytesPerPage() {
        return 8;
    }
}
