package io.layoutbench.backend.simulated;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendContractTest;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.backend.memory.MemoryBackend;

/** The decorator with profile {@code none} keeps every promise of the backend it wraps. */
class SimulatedNetworkBackendContractTest extends ObjectBackendContractTest {

    @Override
    protected ObjectBackend newBackend() {
        return SimulatedNetworkBackend.wrap(new MemoryBackend(), NetworkProfiles.NONE);
    }
}
