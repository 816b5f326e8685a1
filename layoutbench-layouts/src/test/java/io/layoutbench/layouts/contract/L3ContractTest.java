package io.layoutbench.layouts.contract;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.backend.memory.MemoryBackend;

import java.util.List;
import java.util.Map;

/** The layout contract for l3, its model included. */
class L3ContractTest extends StorageLayoutContractTest {

    @Override
    protected StorageLayout layout() {
        return StorageLayouts.get("l3");
    }

    @Override
    protected ObjectBackend newBackend() {
        return new MemoryBackend();
    }

    /** Fields of 1 MiB or more are stored out of line, so the contract's 3 MiB field is. */
    @Override
    protected Map<String, String> writeOptions() {
        return Map.of("file-size", "4MB", "row-group-size", "1MB", "blob-threshold", "1MB");
    }

    @Override
    protected List<Map<String, String>> modelSettings() {
        return List.of(Map.of("file-size", "64MB", "row-group-size", "128MB", "page-size", "64KB"),
                Map.of("file-size", "64MB", "row-group-size", "16MB", "page-size", "4KB"),
                Map.of("file-size", "8MB", "row-group-size", "2MB", "page-size", "256KB"));
    }

    /** A page header holds its CRC32 as a varint of 1 to 5 bytes, which the model, without the bytes, takes as 5. */
    @Override
    protected long modelBytesPerPage() {
        return 8;
    }

    @Override
    protected ReferenceWorkload referenceWorkload() {
        return PaperReference.tiny();
    }
}
