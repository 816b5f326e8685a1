package io.layoutbench.backend.simulated;

import io.layoutbench.api.backend.FirstByteSignalContractTest;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.backend.memory.MemoryBackend;

/** The first-byte signal with profile {@code none}: heard with the wrapped store's answer, just before it completes. */
class SimulatedNoNetworkFirstByteContractTest extends FirstByteSignalContractTest {

    @Override
    protected ObjectBackend newBackend() {
        return SimulatedNetworkBackend.wrap(new MemoryBackend(), NetworkProfiles.NONE);
    }
}
