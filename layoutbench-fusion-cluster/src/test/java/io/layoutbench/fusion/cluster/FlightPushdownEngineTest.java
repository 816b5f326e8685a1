package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.fusion.pushdown.ChunkOperation;
import io.layoutbench.fusion.pushdown.NodeOperators;
import io.layoutbench.fusion.pushdown.PushdownEngineContract;
import io.layoutbench.fusion.pushdown.PushdownMode;
import io.layoutbench.fusion.pushdown.PushdownResult;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The {@link PushdownEngineContract} on nine storage-node servers over Arrow Flight, on loopback ports in this JVM
 * ({@link FlightNodeOperators}): every operator runs on the server holding its chunk, and a node down is a server
 * stopped, whose operators a stand-in runs on chunks it rebuilds. Every query is compared with DuckDB, with all nodes
 * up and with nodes 0, 4 and 8 stopped.
 */
class FlightPushdownEngineTest extends PushdownEngineContract {

    private static final String KEY = "tpch/lineitem.parquet";

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

    /**
     * A node whose blocks return wrong bytes: its operators' chunk reads fail their CRC32C, and the node rebuilds the
     * chunks from other blocks of their stripes; the answer is the baseline's.
     */
    @Test
    void aCorruptBlockOnANodeIsCaughtByItsChecksumAndRebuilt() {
        String sql = "SELECT l_orderkey, l_comment, l_extendedprice FROM lineitem WHERE l_quantity < 3";
        List<List<Object>> expected = rows(engine(PushdownMode.BASELINE).execute(KEY, sql, PushdownMode.BASELINE));
        int node = 3;
        Map<String, byte[]> originals = new HashMap<>();
        try (Stream<ObjectInfo> blocks = disks.get(node).list("blocks/")) {
            blocks.forEach(block -> {
                ByteBuffer stored = disks.get(node).readAllAsync(block.key()).join();
                byte[] bytes = new byte[stored.remaining()];
                stored.get(bytes);
                originals.put(block.key(), bytes.clone());
                bytes[bytes.length / 2] ^= 0x5a;
                disks.get(node).put(block.key(), bytes);
            });
        }
        assertThat(originals).as("blocks on node %d", node).isNotEmpty();
        try {
            PushdownResult result = engine(PushdownMode.PAPER).execute(KEY, sql, PushdownMode.PAPER);

            assertThat(rows(result)).isEqualTo(expected);
            assertThat(result.report().degradedChunks()).as("chunks rebuilt after a checksum failure").isPositive();
        } finally {
            originals.forEach((key, bytes) -> disks.get(node).put(key, bytes));
        }
    }

    @Override
    protected void stopNodes() {
        clients.forEach(ObjectBackend::close);
        servers.forEach(StorageNodeServer::close);
        disks.forEach(ObjectBackend::close);
    }
}
