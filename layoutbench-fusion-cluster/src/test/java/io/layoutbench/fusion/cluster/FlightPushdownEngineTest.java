package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.fusion.pushdown.ChunkOperation;
import io.layoutbench.fusion.pushdown.NodeOperators;
import io.layoutbench.fusion.pushdown.PushdownEngineContract;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The {@link PushdownEngineContract} on nine storage-node servers over Arrow Flight, on loopback ports in this JVM
 * ({@link FlightNodeOperators}): every operator runs on the server holding its chunk, and a node down is a server
 * stopped, whose operators a stand-in runs on chunks it rebuilds. Every query is compared with DuckDB, with all nodes
 * up and with nodes 0, 4 and 8 stopped.
 */
class FlightPushdownEngineTest extends PushdownEngineContract {

    /** The nodes' objects, which outlive their servers as disks outlive their processes. */
    private final List<ObjectBackend> disks = new ArrayList<>();
    private final List<StorageNodeServer> servers = new ArrayList<>();
    private final List<ObjectBackend> clients = new ArrayList<>();
    private final int[] ports = new int[9];

    @Override
    protected List<? extends ObjectBackend> startNodes(Path dir) {
        for (int i = 0; i < 9; i++) {
            disks.add(new MemoryBackend());
            servers.add(StorageNodeServer.start(disks.get(i), StorageNodeServer.Options.defaults()));
            ports[i] = servers.get(i).port();
            clients.add(new FlightNodeBackend(servers.get(i).uri()));
        }
        return clients;
    }

    @Override
    protected NodeOperators operators(FacBackend store) {
        List<URI> nodes = servers.stream().map(StorageNodeServer::uri).toList();
        return FlightNodeOperators.open(nodes, "", store.options());
    }

    @Override
    protected void down(int node) {
        servers.get(node).close();
    }

    @Override
    protected void up(int node) {
        servers.set(node, Restarts.startOn(disks.get(node), ports[node]));
    }

    /** An operator for another version of the object, or of a column it lacks, fails naming what is wrong. */
    @Test
    void anOperatorOnAnotherVersionOrAnUnknownColumnFailsSayingWhich() {
        List<URI> nodes = servers.stream().map(StorageNodeServer::uri).toList();
        try (FlightNodeOperators operators = FlightNodeOperators.open(nodes, "", FacOptions.defaults())) {
            ChunkOperation stale = ChunkOperation.filter("q", "tpch/lineitem.parquet", "0-old", 0, "l_quantity",
                    "l_quantity < 2", false);
            assertThatThrownBy(() -> operators.run(0, stale).join()).hasCauseInstanceOf(StorageException.class)
                    .hasMessageContaining("generation 0-old").hasMessageContaining("replaced");
            assertThatThrownBy(() -> operators.run(0, ChunkOperation.filter("q", "no/such.parquet", "g", 0, "x",
                    "x < 2", false)).join()).hasCauseInstanceOf(ObjectNotFoundException.class);
        }
    }

    @Override
    protected void stopNodes() {
        clients.forEach(ObjectBackend::close);
        servers.forEach(StorageNodeServer::close);
        disks.forEach(ObjectBackend::close);
    }
}
