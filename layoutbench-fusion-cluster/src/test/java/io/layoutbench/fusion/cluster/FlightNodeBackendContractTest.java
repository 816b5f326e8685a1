package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendContractTest;
import io.layoutbench.backend.memory.MemoryBackend;

import org.junit.jupiter.api.AfterEach;

/** The {@link ObjectBackend} contract, against a storage node over a memory backend, over Flight on loopback. */
class FlightNodeBackendContractTest extends ObjectBackendContractTest {

    private StorageNodeServer server;

    @Override
    protected ObjectBackend newBackend() {
        server = StorageNodeServer.start(new MemoryBackend(), StorageNodeServer.Options.defaults());
        return new FlightNodeBackend(server.uri());
    }

    @AfterEach
    void stopServer() {
        server.close();
        server.backend().close();
        assertThat(server.allocator().getAllocatedMemory()).isZero();
    }
}
