package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.StorageException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Storage nodes as processes on this machine: node i serves {@code DIR/node-i}, logs to {@code DIR/node-i.log} (the
 * log of its previous run kept as {@code node-i.log.1}), and listens on {@code basePort + i} or on a free port. All
 * are started at once, then waited for, then handed to a {@code commit} step that records them (the cluster file).
 *
 * <p>Until {@code commit} returns, the processes belong to this JVM: a failure, or this JVM ending (Ctrl-C), kills
 * every one launched, so no node process outlives its starter without a cluster file naming it.
 *
 * <pre>{@code
 * Path dir = Path.of("cluster");
 * List<NodeProcess> nodes = LocalCluster.start(dir, 9, "127.0.0.1", 0, Duration.ofSeconds(60),
 *         started -> new ClusterFile("RS(9,6)", LocalCluster.entries(started)).write(dir));
 * }</pre>
 */
public final class LocalCluster {

    /** Attempts per node when its port was chosen here and another program bound it first. */
    private static final int PORT_ATTEMPTS = 3;

    private LocalCluster() {
    }

    /**
     * Starts {@code count} node processes, waits until every one serves, and passes them to {@code commit}; on any
     * failure, {@code commit}'s included, or if this JVM shuts down first, the ones started are killed (and the
     * exception thrown).
     *
     * @param basePort     node i's port is {@code basePort + i}; 0 to pick free ports
     * @param readyTimeout how long all nodes together may take to be ready
     * @param commit       records the processes (writes the cluster file); they are this JVM's until it returns
     * @return the processes, node 0 first
     * @throws StorageException naming the node that did not start, and why (its log's last lines)
     */
    public static List<NodeProcess> start(Path dir, int count, String host, int basePort, Duration readyTimeout,
            Consumer<List<NodeProcess>> commit) {
        requireNonNull(dir, "dir is null");
        requireNonNull(host, "host is null");
        if (count < 1) {
            throw new IllegalArgumentException("A cluster has at least one node, got " + count);
        }
        if (basePort < 0 || basePort + count - 1 > 65_535) {
            throw new IllegalArgumentException("Ports " + basePort + " to " + (basePort + count - 1)
                    + " are not all valid ports (1 to 65535)");
        }
        Set<Integer> ports = new HashSet<>();
        List<StorageNodeMain.Settings> settings = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            settings.add(settings(dir, i, host, basePort == 0 ? freePort(host, ports) : basePort + i));
            logs.add(log(dir, i));
        }
        UnaryOperator<StorageNodeMain.Settings> anotherPort = basePort != 0 ? null
                : taken -> new StorageNodeMain.Settings(taken.dir(), taken.host(), freePort(host, ports));
        return launchAndAwait(settings, logs, anotherPort, readyTimeout, commit);
    }

    /**
     * {@link #start(Path, int, String, int, Duration, Consumer)} with nothing to commit: the processes are the
     * caller's once this returns (tests that kill them when done).
     */
    public static List<NodeProcess> start(Path dir, int count, String host, int basePort, Duration readyTimeout) {
        return start(dir, count, host, basePort, readyTimeout, nodes -> { });
    }

    /**
     * Starts again the nodes {@code indexes} of {@code cluster} (a cluster in {@code dir}), each on the directory,
     * host and port the cluster file records, so the blocks it held are where the store looks for them; all are
     * started at once, waited for, then passed to {@code commit}. On any failure, {@code commit}'s included, or if
     * this JVM shuts down first, the ones started are killed.
     *
     * @param commit records the processes (writes the cluster file); they are this JVM's until it returns
     * @return the processes, in the order of {@code indexes}
     * @throws StorageException naming the node that did not start (its port taken, for one), and why
     */
    public static List<NodeProcess> restart(Path dir, ClusterFile cluster, List<Integer> indexes,
            Duration readyTimeout, Consumer<List<NodeProcess>> commit) {
        requireNonNull(dir, "dir is null");
        requireNonNull(cluster, "cluster is null");
        List<StorageNodeMain.Settings> settings = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (int i : indexes) {
            ClusterFile.Node node = cluster.nodes().get(i);
            settings.add(new StorageNodeMain.Settings(node.dir(), host(node.uri()), node.uri().getPort()));
            logs.add(log(dir, i));
        }
        return launchAndAwait(settings, logs, null, readyTimeout, commit);
    }

    /**
     * Launches a process for each of {@code settings} (logging to the matching {@code logs}), waits until all are
     * ready, and commits them; kills all it launched on failure, and from a shutdown hook until commit returned.
     *
     * @param anotherPort the settings to launch again with when a node's port was taken (exit code 1); null where
     *                    ports are fixed
     */
    private static List<NodeProcess> launchAndAwait(List<StorageNodeMain.Settings> settings, List<Path> logs,
            UnaryOperator<StorageNodeMain.Settings> anotherPort, Duration readyTimeout,
            Consumer<List<NodeProcess>> commit) {
        requireNonNull(readyTimeout, "readyTimeout is null");
        requireNonNull(commit, "commit is null");
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        Launches launches = new Launches();
        try {
            List<NodeProcess> nodes = new ArrayList<>();
            for (int i = 0; i < settings.size(); i++) {
                nodes.add(launches.launch(settings.get(i), logs.get(i)));
            }
            for (int i = 0; i < nodes.size(); i++) {
                for (int attempt = 1; ; attempt++) {
                    NodeProcess node = nodes.get(i);
                    try {
                        node.awaitReady(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                        break;
                    } catch (StorageException e) {
                        if (anotherPort == null || attempt == PORT_ATTEMPTS || node.exitCode() != 1) {
                            throw e;
                        }
                        // Exit code 1: it could not start, most likely its port was taken meanwhile. Another one.
                        nodes.set(i, launches.launch(anotherPort.apply(node.settings()), logs.get(i)));
                    }
                }
            }
            List<NodeProcess> ready = List.copyOf(nodes);
            commit.accept(ready);
            return ready;
        } catch (RuntimeException | Error e) {
            launches.killAll();
            throw e;
        } finally {
            launches.removeHook();
        }
    }

    /**
     * The processes one start or restart launched, killed by a shutdown hook (Ctrl-C while they start: no cluster
     * file names them yet). A process is launched and registered under one lock, and once the hook ran nothing more
     * is launched, so the hook never misses a process. Thread-safe.
     */
    private static final class Launches {
        private final Object lock = new Object();
        private final List<NodeProcess> launched = new ArrayList<>();
        private final Thread hook = new Thread(this::onShutdown, "layoutbench-cluster-start-abort");
        private boolean shuttingDown;

        Launches() {
            Runtime.getRuntime().addShutdownHook(hook);
        }

        /** {@link NodeProcess#launch}, the previous log kept as {@code LOG.1}, the process registered. */
        NodeProcess launch(StorageNodeMain.Settings settings, Path log) {
            synchronized (lock) {
                if (shuttingDown) {
                    throw new StorageException("Not starting a storage node process for " + settings.dir()
                            + ": this JVM is shutting down");
                }
                keepPreviousLog(log);
                NodeProcess process = NodeProcess.launch(settings, log);
                launched.add(process);
                return process;
            }
        }

        private void onShutdown() {
            synchronized (lock) {
                shuttingDown = true;
            }
            killAll();
        }

        void killAll() {
            List<NodeProcess> all;
            synchronized (lock) {
                all = List.copyOf(launched);
            }
            all.forEach(NodeProcess::kill);
        }

        void removeHook() {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down: the hook runs, as it should.
            }
        }
    }

    /** Renames {@code log} to {@code LOG.1} (replacing that), so a node started again keeps why it ended before. */
    private static void keepPreviousLog(Path log) {
        try {
            if (Files.exists(log)) {
                Files.move(log, log.resolveSibling(log.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot keep the previous log " + log + " of a storage node as "
                    + log.getFileName() + ".1: " + e.getMessage(), e);
        }
    }

    /** The host of a node's URI as a node binds it: an IPv6 literal without the URI's brackets. */
    public static String host(URI uri) {
        String host = uri.getHost();
        return host != null && host.length() > 1 && host.startsWith("[") && host.endsWith("]")
                ? host.substring(1, host.length() - 1) : host;
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
        return nodes.stream().map(LocalCluster::entry).toList();
    }

    /** The cluster file's entry for {@code node}. */
    public static ClusterFile.Node entry(NodeProcess node) {
        return new ClusterFile.Node(node.uri(), node.pid(), node.started(), node.settings().dir());
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
