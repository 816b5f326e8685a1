package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendContractTest;
import io.layoutbench.backend.memory.MemoryBackend;

import java.util.ArrayList;
import java.util.List;

/**
 * The object-store contract over FAC: nine in-memory nodes under RS(9,6), with 256 KiB fixed blocks and 4 KiB
 * checksum units so that the suite's larger objects span many stripes and its ranges cross blocks and units.
 */
class FacBackendContractTest extends ObjectBackendContractTest {

    @Override
    protected ObjectBackend newBackend() {
        List<ObjectBackend> nodes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nodes.add(new MemoryBackend());
        }
        return FacBackend.create(nodes, FacOptions.builder().fixedBlockSize(256 << 10).checksumUnit(4 << 10).build(),
                true);
    }
}
