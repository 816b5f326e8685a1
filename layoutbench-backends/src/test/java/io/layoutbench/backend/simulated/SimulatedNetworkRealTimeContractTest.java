package io.layoutbench.backend.simulated;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendContractTest;
import io.layoutbench.api.network.HostBandwidth;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.backend.memory.MemoryBackend;

import java.time.Duration;

/**
 * The decorator on a real clock, with a network fast enough for the suite to finish in seconds but slow enough
 * that every read goes through the model, the timer thread and the callback pool: the threading is what is tested.
 */
class SimulatedNetworkRealTimeContractTest extends ObjectBackendContractTest {

    /** Fast enough for a suite to take seconds, slow enough that every read goes through the model. */
    static final NetworkProfile FAST = new NetworkProfile("fast", Duration.ofNanos(100_000), 0.5,
            2e9, HostBandwidth.sustained(8e9), Duration.ofNanos(50_000), 16, 0);

    @Override
    protected ObjectBackend newBackend() {
        return SimulatedNetworkBackend.wrap(new MemoryBackend(), FAST);
    }
}
