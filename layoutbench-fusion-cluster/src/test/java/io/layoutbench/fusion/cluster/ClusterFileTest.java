package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.ConfigurationException;

import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster file written and read back, and what a missing or malformed one says; the node main's arguments. */
class ClusterFileTest {

    @Test
    void aClusterFileReadsBackAsWritten(@TempDir Path dir) throws Exception {
        ClusterFile file = new ClusterFile("RS(9,6)", List.of(
                new ClusterFile.Node(URI.create("flight://127.0.0.1:41000"), 123,
                        Instant.parse("2026-12-02T08:00:00.01Z"), dir.resolve("node-0")),
                new ClusterFile.Node(URI.create("flight://127.0.0.1:41001"), 124, Instant.EPOCH,
                        dir.resolve("dir with \\ and =:"))));

        file.write(dir);

        assertThat(ClusterFile.read(dir)).isEqualTo(file);
        assertThat(Files.readString(ClusterFile.in(dir))).contains("node.1.uri=flight://127.0.0.1:41001\n",
                "code=RS(9,6)\n");
        assertThat(file.uris()).containsExactly("flight://127.0.0.1:41000", "flight://127.0.0.1:41001");
    }

    @Test
    void aWriteThatFailsLeavesNoTemporaryFile(@TempDir Path dir) throws Exception {
        // A non-empty directory where the file goes: the temporary file is written, the rename onto it fails.
        Files.createDirectories(ClusterFile.in(dir));
        Files.writeString(ClusterFile.in(dir).resolve("x"), "x");
        ClusterFile file = new ClusterFile("RS(3,2)", List.of(new ClusterFile.Node(
                URI.create("flight://127.0.0.1:41000"), 123, Instant.EPOCH, dir.resolve("node-0"))));

        assertThatThrownBy(() -> file.write(dir)).isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("Cannot write the cluster file " + ClusterFile.in(dir));

        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(ClusterFile.in(dir));
        }
    }

    @Test
    void aMissingOrMalformedFileIsAConfigurationErrorNamingIt(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> ClusterFile.read(dir)).isInstanceOf(ConfigurationException.class)
                .hasMessage("No cluster in " + dir + ": its cluster file " + dir.resolve("cluster.properties")
                        + " does not exist");

        Files.writeString(ClusterFile.in(dir), "code=RS(9,6)\nnodes=2\nnode.0.uri=flight://127.0.0.1:1\n"
                + "node.0.pid=1\nnode.0.started=1970-01-01T00:00:00Z\nnode.0.dir=/d\n");
        assertThatThrownBy(() -> ClusterFile.read(dir)).isInstanceOf(ConfigurationException.class)
                .hasMessage("Malformed cluster file " + ClusterFile.in(dir) + ": no entry node.1.uri");

        Files.writeString(ClusterFile.in(dir), "code=RS(9,6)\nnodes=1\nnode.0.uri=http://127.0.0.1:1\n"
                + "node.0.pid=1\nnode.0.started=1970-01-01T00:00:00Z\nnode.0.dir=/d\n");
        assertThatThrownBy(() -> ClusterFile.read(dir)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("flight://host:port, got http://127.0.0.1:1");

        Files.writeString(ClusterFile.in(dir), "code=RS(9,6)\nnodes=1\nnode.0.uri=flight://127.0.0.1:1\n"
                + "node.0.pid=1\nnode.0.started=yesterday\nnode.0.dir=/d\n");
        assertThatThrownBy(() -> ClusterFile.read(dir)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("a start time is an ISO-8601 instant, got 'yesterday'");
    }

    @Test
    void theNodeMainTakesDirPortAndHost() {
        assertThat(StorageNodeMain.Settings.parse("--dir", "/d", "--port", "47001"))
                .isEqualTo(new StorageNodeMain.Settings(Path.of("/d"), "127.0.0.1", 47001));
        assertThat(StorageNodeMain.Settings.parse("--host", "10.0.0.3", "--port", "0", "--dir", "d").host())
                .isEqualTo("10.0.0.3");
        assertThatThrownBy(() -> StorageNodeMain.Settings.parse("--dir", "/d"))
                .hasMessageContaining("needs --dir DIR and --port P");
        assertThatThrownBy(() -> StorageNodeMain.Settings.parse("--dir", "/d", "--port", "x"))
                .hasMessage("--port must be a number, got 'x'");
        assertThatThrownBy(() -> StorageNodeMain.Settings.parse("--dir", "/d", "--port", "70000"))
                .hasMessageContaining("0 (any) to 65535, got 70000");
        assertThatThrownBy(() -> StorageNodeMain.Settings.parse("--dri", "/d"))
                .hasMessageContaining("Unknown option --dri");
    }
}
