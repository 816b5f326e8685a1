package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node processes started and restarted by {@link LocalCluster}: they are handed to the commit step once ready, and
 * killed when it fails; a restarted node keeps the log of its previous run; a node's host comes out of its URI as it
 * binds it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LocalClusterTest {

    private static final Duration READY = Duration.ofSeconds(60);

    @Test
    void aCommitThatFailsKillsTheNodesStarted(@TempDir Path dir) {
        List<NodeProcess> handed = new CopyOnWriteArrayList<>();
        try {
            assertThatThrownBy(() -> LocalCluster.start(dir, 2, "127.0.0.1", 0, READY, nodes -> {
                handed.addAll(nodes);
                assertThat(nodes).allMatch(NodeProcess::isAlive);
                throw new UncheckedIOException(new IOException("disk full"));
            })).isInstanceOf(UncheckedIOException.class).hasMessageContaining("disk full");

            assertThat(handed).hasSize(2).noneMatch(NodeProcess::isAlive);
        } finally {
            handed.forEach(NodeProcess::kill);
        }
    }

    @Test
    void aRestartedNodeKeepsThePreviousLogAndIsCommitted(@TempDir Path dir) throws IOException {
        List<NodeProcess> all = new CopyOnWriteArrayList<>();
        try {
            List<NodeProcess> started = LocalCluster.start(dir, 1, "127.0.0.1", 0, READY, nodes -> {
                all.addAll(nodes);
                new ClusterFile("RS(1,1)", LocalCluster.entries(nodes)).write(dir);
            });
            NodeProcess first = started.get(0);
            first.kill();
            Files.writeString(LocalCluster.log(dir, 0), "why node 0 ended\n", StandardOpenOption.APPEND);

            List<NodeProcess> restarted = LocalCluster.restart(dir, ClusterFile.read(dir), List.of(0), READY,
                    nodes -> {
                        all.addAll(nodes);
                        new ClusterFile("RS(1,1)", LocalCluster.entries(nodes)).write(dir);
                    });

            NodeProcess second = restarted.get(0);
            assertThat(second.isAlive()).isTrue();
            assertThat(second.uri()).isEqualTo(first.uri());
            assertThat(ClusterFile.read(dir).nodes()).containsExactly(LocalCluster.entry(second));
            assertThat(Files.readString(dir.resolve("node-0.log.1"))).contains(StorageNodeMain.READY + first.uri(),
                    "why node 0 ended");
            assertThat(Files.readString(LocalCluster.log(dir, 0))).contains(StorageNodeMain.READY + second.uri())
                    .doesNotContain("why node 0 ended");
        } finally {
            all.forEach(NodeProcess::kill);
        }
    }

    @Test
    void anIpv6HostComesOutOfItsUriWithoutBrackets(@TempDir Path dir) {
        assertThat(LocalCluster.host(URI.create("flight://[::1]:47000"))).isEqualTo("::1");
        assertThat(LocalCluster.host(URI.create("flight://127.0.0.1:47000"))).isEqualTo("127.0.0.1");
        assertThat(LocalCluster.host(URI.create("flight://node-3.local:47000"))).isEqualTo("node-3.local");

        // The URI of a node process on an IPv6 address puts it in brackets again (the process need not start).
        NodeProcess node = NodeProcess.launch(new StorageNodeMain.Settings(dir.resolve("node"), "::1", 47000),
                dir.resolve("node.log"));
        try {
            assertThat(node.uri()).isEqualTo(URI.create("flight://[::1]:47000"));
            assertThat(LocalCluster.host(node.uri())).isEqualTo("::1");
        } finally {
            node.kill();
        }
    }
}
