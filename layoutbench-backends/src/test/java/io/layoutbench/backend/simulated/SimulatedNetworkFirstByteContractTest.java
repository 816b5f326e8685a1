package io.layoutbench.backend.simulated;

import io.layoutbench.api.backend.FirstByteSignalContractTest;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.backend.memory.MemoryBackend;

/**
 * The first-byte signal on a real clock, through the model, its timer thread and callback pool, on a network fast
 * enough for the suite to take a second.
 */
class SimulatedNetworkFirstByteContractTest extends FirstByteSignalContractTest {

    @Override
    protected ObjectBackend newBackend() {
        return SimulatedNetworkBackend.wrap(new MemoryBackend(), SimulatedNetworkRealTimeContractTest.FAST);
    }
}
