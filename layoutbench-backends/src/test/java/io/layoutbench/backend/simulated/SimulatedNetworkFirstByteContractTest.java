package io.layoutbench.backend.simulated;

import io.layoutbench.api.backend.FirstByteSignalContractTest;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.network.HostBandwidth;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.backend.memory.MemoryBackend;

import java.time.Duration;

/**
 * The first-byte signal on a real clock, through the model, its timer thread and callback pool, on a network fast
 * enough for the suite to take a second.
 */
class SimulatedNetworkFirstByteContractTest extends FirstByteSignalContractTest {

    private static final NetworkProfile FAST = new NetworkProfile("fast", Duration.ofNanos(100_000), 0.5,
            2e9, HostBandwidth.sustained(8e9), Duration.ofNanos(50_000), 16, 0);

    @Override
    protected ObjectBackend newBackend() {
        return SimulatedNetworkBackend.wrap(new MemoryBackend(), FAST);
    }
}
