package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.StorageException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One storage node as a process: it serves once its ready line is printed, stops cleanly on SIGTERM (its shutdown
 * hook closes the server), cannot start on a port another socket holds, and a pid with another start time is never
 * signalled.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NodeProcessTest {

    @Test
    void aNodeProcessServesItsDirectoryAndStopsCleanlyOnSigterm(@TempDir Path dir) throws Exception {
        NodeProcess node = NodeProcess.launch(new StorageNodeMain.Settings(dir.resolve("node"), "127.0.0.1",
                NodeProcess.freePort("127.0.0.1")), dir.resolve("node.log"));
        try {
            assertThat(node.awaitReady(Duration.ofSeconds(60))).isEqualTo(node.uri());
            assertThat(NodeProcess.isRunning(node.pid(), node.started())).isTrue();
            try (ObjectBackend client = ObjectBackends.open(node.uri().toString())) {
                client.put("a/b", "hello".getBytes(StandardCharsets.UTF_8));
                assertThat(StandardCharsets.UTF_8.decode(client.readAll("a/b")).toString()).isEqualTo("hello");
            }
            assertThat(Files.readString(dir.resolve("node/a/b"))).isEqualTo("hello");

            assertThat(node.stop(Duration.ofSeconds(30))).isEqualTo(NodeProcess.StopOutcome.STOPPED);
            assertThat(node.exitCode()).as("exit code after SIGTERM, the hook run").isEqualTo(143);
            assertThat(Files.readString(dir.resolve("node.log"))).contains(StorageNodeMain.READY + node.uri()
                    + " serving " + dir.resolve("node"));
            assertThat(NodeProcess.stop(node.pid(), node.started(), Duration.ofSeconds(1)))
                    .isEqualTo(NodeProcess.StopOutcome.GONE);
        } finally {
            node.kill();
        }
    }

    @Test
    void aNodeWhosePortIsTakenEndsWithExitCode1AndSaysWhy(@TempDir Path dir) throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            NodeProcess node = NodeProcess.launch(new StorageNodeMain.Settings(dir.resolve("node"), "127.0.0.1",
                    taken.getLocalPort()), dir.resolve("node.log"));
            try {
                assertThatThrownBy(() -> node.awaitReady(Duration.ofSeconds(60)))
                        .isInstanceOf(StorageException.class)
                        .hasMessageContaining("on port " + taken.getLocalPort() + " ended with exit code 1 before "
                                + "it was ready: ")
                        .hasMessageContaining("storage node: Cannot start a storage node on 127.0.0.1:"
                                + taken.getLocalPort());
                assertThat(node.exitCode()).isEqualTo(1);
            } finally {
                node.kill();
            }
        }
    }

    @Test
    void aPidWithAnotherStartTimeIsLeftAlone() {
        long self = ProcessHandle.current().pid();
        Instant started = ProcessHandle.current().info().startInstant().orElseThrow();

        assertThat(NodeProcess.stop(self, started.minusSeconds(3600), Duration.ofSeconds(1)))
                .isEqualTo(NodeProcess.StopOutcome.NOT_A_NODE);
        assertThat(NodeProcess.isRunning(self, started.minusSeconds(3600))).isFalse();
        assertThat(NodeProcess.isRunning(self, started)).as("this JVM, by pid and start time").isTrue();
    }
}
