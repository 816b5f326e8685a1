package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.StorageException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Storage nodes as processes on this machine: node i serves {@code DIR/node-i}, logs to {@code DIR/node-i.log},
 * and listens on {@code basePort + i} or on a free port. All are started at once, then waited for.
 *
 * <pre>{@code
 * List<NodeProcess> nodes = LocalCluster.start(Path.of("cluster"), 9, "127.0.0.1", 0, Duration.ofSeconds(60));
 * new ClusterFile("RS(9,6)", LocalCluster.entries(nodes)).write(Path.of("cluster"));
 * }</pre>
 */
public final class LocalCluster {

    /** Attempts per node when its port was chosen here and another program bound it first. */
    private static final int PORT_ATTEMPTS = 3;

    private LocalCluster() {
    }

    /**
     * Starts {@code count} node processes and waits until every one serves; on any failure the ones started are
     * killed before the exception is thrown.
     *
     * @param basePort     node i's port is {@code basePort + i}; 0 to pick free ports
     * @param readyTimeout how long all nodes together may take to be ready
     * @throws StorageException naming the node that did not start, and why (its log's last lines)
     */
    public static List<NodeProcess> start(Path dir, int count, String host, int basePort, Duration readyTimeout) {
        requireNonNull(dir, "dir is null");
        requireNonNull(host, "host is null");
        if (count < 1) {
            throw new IllegalArgumentException("A cluster has at least one node, got " + count);
        }
        if (basePort < 0 || basePort + count - 1 > 65_535) {
            throw new IllegalArgumentException("Ports " + basePort + " to " + (basePort + count - 1)
                    + " are not all valid ports (1 to 65535)");
        }
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        Set<Integer> ports = new HashSet<>();
        List<NodeProcess> nodes = new CopyOnWriteArrayList<>();
        // Ctrl-C while waiting: no cluster file will name these processes, so they must not outlive this one.
        Thread orphans = new Thread(() -> nodes.forEach(NodeProcess::kill), "layoutbench-cluster-start-abort");
        Runtime.getRuntime().addShutdownHook(orphans);
        try {
            for (int i = 0; i < count; i++) {
                nodes.add(NodeProcess.launch(settings(dir, i, host, basePort == 0 ? freePort(host, ports)
                        : basePort + i), log(dir, i)));
            }
            for (int i = 0; i < count; i++) {
                for (int attempt = 1; ; attempt++) {
                    NodeProcess node = nodes.get(i);
                    try {
                        node.awaitReady(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                        break;
                    } catch (StorageException e) {
                        if (basePort != 0 || attempt == PORT_ATTEMPTS || node.exitCode() != 1) {
                            throw e;
                        }
                        // Exit code 1: it could not start, most likely its port was taken meanwhile. Another one.
                        nodes.set(i, NodeProcess.launch(settings(dir, i, host, freePort(host, ports)), log(dir, i)));
                    }
                }
            }
            return List.copyOf(nodes);
        } catch (RuntimeException e) {
            nodes.forEach(NodeProcess::kill);
            throw e;
        } finally {
            removeHook(orphans);
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down: the hook runs, as it should.
        }
    }

    /**
     * Starts again the nodes {@code indexes} of {@code cluster} (a cluster in {@code dir}), each on the directory,
     * host and port the cluster file records, so the blocks it held are where the store looks for them. All are
     * started at once, then waited for; on any failure the ones started are killed.
     *
     * @return the processes, in the order of {@code indexes}
     * @throws StorageException naming the node that did not start (its port taken, for one), and why
     */
    public static List<NodeProcess> restart(Path dir, ClusterFile cluster, List<Integer> indexes,
            Duration readyTimeout) {
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        List<NodeProcess> nodes = new ArrayList<>();
        try {
            for (int i : indexes) {
                ClusterFile.Node node = cluster.nodes().get(i);
                nodes.add(NodeProcess.launch(new StorageNodeMain.Settings(node.dir(), node.uri().getHost(),
                        node.uri().getPort()), log(dir, i)));
            }
            for (NodeProcess node : nodes) {
                node.awaitReady(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            }
            return nodes;
        } catch (RuntimeException e) {
            nodes.forEach(NodeProcess::kill);
            throw e;
        }
    }

    /** What node {@code index} of a cluster in {@code dir} serves. */
    public static StorageNodeMain.Settings settings(Path dir, int index, String host, int port) {
        return new StorageNodeMain.Settings(dir.toAbsolutePath().resolve("node-" + index), host, port);
    }

    /** Where node {@code index} of a cluster in {@code dir} writes its output. */
    public static Path log(Path dir, int index) {
        return dir.toAbsolutePath().resolve("node-" + index + ".log");
    }

    /** The cluster file's entries for {@code nodes}, in order. */
    public static List<ClusterFile.Node> entries(List<NodeProcess> nodes) {
        return nodes.stream().map(node -> new ClusterFile.Node(node.uri(), node.pid(), node.started(),
                node.settings().dir()))
                .toList();
    }

    private static int freePort(String host, Set<Integer> taken) {
        while (true) {
            int port = NodeProcess.freePort(host);
            if (taken.add(port)) {
                return port;
            }
        }
    }
}
