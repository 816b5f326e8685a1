package io.layoutbench.examples.fusion;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.examples.cli.LayoutBenchCli;
import io.layoutbench.fusion.cluster.ClusterFile;
import io.layoutbench.fusion.cluster.LocalCluster;
import io.layoutbench.fusion.cluster.NodeProcess;
import io.layoutbench.fusion.codec.CodeParameters;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code fusion cluster start|stop|status}: storage nodes as processes on this machine, recorded in the cluster file
 * {@code DIR/cluster.properties} that {@code fusion put} and {@code fusion query} read.
 *
 * <pre>
 * layoutbench fusion cluster start --nodes 9 --dir cluster      (free loopback ports; --base-port 47000 for fixed)
 * layoutbench fusion cluster status --dir cluster
 * layoutbench fusion cluster stop --dir cluster
 * </pre>
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = "Start, list and stop storage node processes on this machine (a local Fusion cluster).",
        subcommands = {FusionClusterCommand.Start.class, FusionClusterCommand.Stop.class,
            FusionClusterCommand.Status.class, CommandLine.HelpCommand.class})
final class FusionClusterCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Without a subcommand: the usage, and exit code 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return LayoutBenchCli.EXIT_USAGE;
    }

    /** {@code cluster start}: N node processes, waited for, then the cluster file; the processes keep running. */
    @Command(name = "start", mixinStandardHelpOptions = true,
            description = {"Start storage node processes (node i serves DIR/node-i and logs to DIR/node-i.log), wait "
                    + "until each is ready, write DIR/cluster.properties and return; the nodes keep running until "
                    + "'fusion cluster stop'.",
                "Node processes run this command's java and class path (or jar) with "
                        + "--add-opens=java.base/java.nio=ALL-UNNAMED -Xmx256m."})
    static final class Start implements Callable<Integer> {

        private static final int DEFAULT_NODES = 9;

        @Spec
        CommandSpec spec;

        @Option(names = "--nodes", description = "How many nodes (default: 9). Where a cluster file exists, its nodes "
                + "whose process is gone are started again as it records them instead; --nodes, --code, --host and "
                + "--base-port that differ from it are refused.")
        Integer nodes;

        @Option(names = "--dir", required = true, description = "The cluster's directory (created if missing).")
        Path dir;

        @Option(names = "--host", defaultValue = "127.0.0.1",
                description = "The address nodes bind and are reached at (default: ${DEFAULT-VALUE}).")
        String host;

        @Option(names = "--base-port", defaultValue = "0",
                description = "Node i listens on BASE-PORT + i (default: free ports chosen at start).")
        int basePort;

        @Option(names = "--code", defaultValue = "RS(9,6)",
                description = "Erasure code of objects put into the cluster, RS(n,k) (default: ${DEFAULT-VALUE}); "
                        + "needs at least n nodes.")
        String code;

        @Option(names = "--timeout", defaultValue = "60", paramLabel = "SECONDS",
                description = "How long all nodes together may take to be ready (default: ${DEFAULT-VALUE}).")
        int timeoutSeconds;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            if (timeoutSeconds < 1) {
                throw new ParameterException(spec.commandLine(), "--timeout must be at least 1 second, got "
                        + timeoutSeconds);
            }
            // A cluster there already: its file, not the defaults, says how many nodes and which code.
            if (Files.exists(ClusterFile.in(dir))) {
                return restartDownNodes(out, ClusterFile.read(dir));
            }
            int blocks = blocks(code);
            int count = nodes == null ? DEFAULT_NODES : nodes;
            if (count < blocks) {
                throw new ParameterException(spec.commandLine(), "--nodes " + count + " is fewer than the " + blocks
                        + " blocks of a " + code + " stripe");
            }
            if (basePort < 0 || basePort + count - 1 > 65_535) {
                throw new ParameterException(spec.commandLine(), "--base-port " + basePort + " leaves ports "
                        + basePort + " to " + (basePort + count - 1) + " for " + count + " nodes: use 1 to "
                        + (65_536 - count) + ", or no --base-port for free ports");
            }
            long started = System.nanoTime();
            List<NodeProcess> processes = LocalCluster.start(dir, count, host, basePort,
                    Duration.ofSeconds(timeoutSeconds),
                    ready -> new ClusterFile(code, LocalCluster.entries(ready)).write(dir));
            for (int i = 0; i < processes.size(); i++) {
                out.printf(Locale.ROOT, "node %d  %s  pid %d  %s%n", i, processes.get(i).uri(),
                        processes.get(i).pid(), processes.get(i).settings().dir());
            }
            out.printf(Locale.ROOT, "%d storage nodes ready in %.1f s; cluster file %s%n", processes.size(),
                    (System.nanoTime() - started) / 1e9, ClusterFile.in(dir));
            return 0;
        }

        private int blocks(String code) {
            try {
                return CodeParameters.parse(code).totalBlocks();
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--code: " + e.getMessage(), e);
            }
        }

        /**
         * A cluster file is there already: its nodes that are down are started again on their directories, hosts and
         * ports (blocks stay where the store expects them); with every node up, there is nothing to do but say so.
         * Options that would shape a new cluster are refused where they differ from the file, rather than ignored.
         */
        private int restartDownNodes(PrintWriter out, ClusterFile old) {
            refuseDifferent(old);
            List<NodeState> states = old.nodes().stream().map(NodeState::of).toList();
            List<Integer> down = IntStream.range(0, states.size()).filter(i -> !states.get(i).up()).boxed().toList();
            if (down.isEmpty()) {
                throw new ConfigurationException("A cluster is already running in " + dir + " (all "
                        + old.nodes().size() + " nodes up); 'fusion cluster stop --dir " + dir + "' stops it");
            }
            List<String> unrestartable = down.stream().filter(i -> states.get(i) != NodeState.GONE)
                    .map(i -> "node " + i + " (" + old.nodes().get(i).uri() + ") " + states.get(i).description())
                    .toList();
            if (!unrestartable.isEmpty()) {
                throw new ConfigurationException("Cannot restart the cluster in " + dir + ": " + String.join("; ",
                        unrestartable) + " ('fusion cluster stop --dir " + dir + "' ends its processes)");
            }
            long started = System.nanoTime();
            List<ClusterFile.Node> entries = new ArrayList<>(old.nodes());
            List<NodeProcess> restarted = LocalCluster.restart(dir, old, down, Duration.ofSeconds(timeoutSeconds),
                    ready -> {
                        for (int j = 0; j < down.size(); j++) {
                            entries.set(down.get(j), LocalCluster.entry(ready.get(j)));
                        }
                        new ClusterFile(old.code(), entries).write(dir);
                    });
            for (int j = 0; j < down.size(); j++) {
                NodeProcess process = restarted.get(j);
                out.printf(Locale.ROOT, "node %d  %s  pid %d  %s  (restarted)%n", down.get(j), process.uri(),
                        process.pid(), process.settings().dir());
            }
            out.printf(Locale.ROOT, "%d of %d storage nodes restarted in %.1f s; cluster file %s%n", down.size(),
                    entries.size(), (System.nanoTime() - started) / 1e9, ClusterFile.in(dir));
            return 0;
        }

        /** Options given that differ from the cluster file: one line naming the first, and exit code 2. */
        private void refuseDifferent(ClusterFile old) {
            String differs = null;
            if (nodes != null && nodes != old.nodes().size()) {
                differs = "--nodes " + nodes + " (it has " + old.nodes().size() + " nodes)";
            } else if (given("--code") && !sameCode(code, old.code())) {
                differs = "--code " + code + " (its code is " + old.code() + ")";
            } else if (given("--host") && old.nodes().stream()
                    .anyMatch(node -> !LocalCluster.host(node.uri()).equalsIgnoreCase(host))) {
                differs = "--host " + host + " (its nodes are at " + old.nodes().get(0).uri().getHost() + ")";
            } else if (given("--base-port") && IntStream.range(0, old.nodes().size())
                    .anyMatch(i -> old.nodes().get(i).uri().getPort() != basePort + i)) {
                differs = "--base-port " + basePort + " (its node 0 is on port " + old.nodes().get(0).uri().getPort()
                        + ")";
            }
            if (differs != null) {
                throw new ParameterException(spec.commandLine(), differs + " differs from the cluster in " + dir
                        + ": 'start' restarts its nodes that are down as its cluster file says; drop the option, or "
                        + "stop the cluster and use another --dir for a new one");
            }
        }

        private boolean given(String option) {
            return spec.commandLine().getParseResult().hasMatchedOption(option);
        }

        private boolean sameCode(String given, String recorded) {
            blocks(given);   // a malformed --code is a command-line error of its own
            try {
                return CodeParameters.parse(given).equals(CodeParameters.parse(recorded));
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
    }

    /** {@code cluster stop}: SIGTERM to every node, a bounded wait, then SIGKILL. */
    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "Stop the cluster's node processes: SIGTERM (each drains its calls), then SIGKILL after "
                    + "--grace. The cluster file and the nodes' directories stay: 'start' again serves them.")
    static final class Stop implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--dir", required = true, description = "The cluster's directory.")
        Path dir;

        @Option(names = "--grace", defaultValue = "10", paramLabel = "SECONDS",
                description = "How long a node may take to stop before it is killed (default: ${DEFAULT-VALUE}).")
        int graceSeconds;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            if (graceSeconds < 0) {
                throw new ParameterException(spec.commandLine(), "--grace must be 0 or more seconds, got "
                        + graceSeconds);
            }
            ClusterFile cluster = ClusterOption.read(dir);
            for (int i = 0; i < cluster.nodes().size(); i++) {
                ClusterFile.Node node = cluster.nodes().get(i);
                NodeProcess.StopOutcome outcome = NodeProcess.stop(node.pid(), node.started(),
                        Duration.ofSeconds(graceSeconds));
                out.printf(Locale.ROOT, "node %d  %s  pid %d  %s%n", i, node.uri(), node.pid(), switch (outcome) {
                    case GONE -> "was not running";
                    case STOPPED -> "stopped";
                    case KILLED -> "killed (still running " + graceSeconds + " s after SIGTERM)";
                    case NOT_A_NODE -> "left alone: that pid is no storage node now (the node ended before)";
                });
            }
            return 0;
        }
    }

    /** {@code cluster status}: each node up or down. */
    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "List the cluster's nodes, up or down (exit code 0 when all are up, 1 otherwise).")
    static final class Status implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--dir", required = true, description = "The cluster's directory.")
        Path dir;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            ClusterFile cluster = ClusterOption.read(dir);
            int up = 0;
            for (int i = 0; i < cluster.nodes().size(); i++) {
                ClusterFile.Node node = cluster.nodes().get(i);
                NodeState state = NodeState.of(node);
                up += state.up() ? 1 : 0;
                out.printf(Locale.ROOT, "node %d  %s  pid %d  %s%n", i, node.uri(), node.pid(),
                        state.up() ? "up" : "down: " + state.description());
            }
            out.printf(Locale.ROOT, "%d of %d nodes up (code of new objects %s)%n", up, cluster.nodes().size(),
                    cluster.code());
            return up == cluster.nodes().size() ? 0 : LayoutBenchCli.EXIT_FAILURE;
        }
    }

    /**
     * A node of the cluster file as {@code status} shows it and {@code start} decides on it: up means its process
     * runs and accepts connections; only a node whose process is gone, its port free, is started again.
     */
    enum NodeState {
        UP("up"),
        REFUSING("process running but refusing connections"),
        PORT_TAKEN("its process is gone, another program holds the port"),
        GONE("process gone");

        private final String description;

        NodeState(String description) {
            this.description = description;
        }

        static NodeState of(ClusterFile.Node node) {
            boolean running = NodeProcess.isRunning(node.pid(), node.started());
            boolean accepts = NodeProcess.accepts(LocalCluster.host(node.uri()), node.uri().getPort(),
                    ClusterOption.PROBE_TIMEOUT);
            return running && accepts ? UP : running ? REFUSING : accepts ? PORT_TAKEN : GONE;
        }

        boolean up() {
            return this == UP;
        }

        String description() {
            return description;
        }
    }
}
