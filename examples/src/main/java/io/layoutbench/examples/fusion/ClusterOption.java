package io.layoutbench.examples.fusion;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.examples.fac.NodeOptions;
import io.layoutbench.fusion.cluster.ClusterFile;
import io.layoutbench.fusion.cluster.FlightNodeBackend;
import io.layoutbench.fusion.cluster.FlightNodeOperators;
import io.layoutbench.fusion.cluster.LocalCluster;
import io.layoutbench.fusion.cluster.NodeProcess;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;

import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code --cluster DIR}: the cluster {@code fusion cluster start} started there, and a FAC store over its nodes. */
final class ClusterOption {

    /** How long a node may take to accept a TCP connection before it is called down. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    @Option(names = "--cluster", required = true, paramLabel = "DIR",
            description = "The cluster's directory, as given to 'fusion cluster start --dir'.")
    Path dir;

    @Option(names = "--call-timeout", defaultValue = "30", paramLabel = "SECONDS",
            description = "Deadline of each call to a node, a whole block's transfer included (default: "
                    + "${DEFAULT-VALUE}; a node that is down refuses at once, this bounds a node that hangs).")
    int callTimeoutSeconds;

    /**
     * The cluster file.
     *
     * @throws ConfigurationException if there is none, saying how to start a cluster there
     */
    ClusterFile read() {
        return read(dir);
    }

    static ClusterFile read(Path dir) {
        try {
            return ClusterFile.read(dir);
        } catch (ConfigurationException e) {
            throw new ConfigurationException(e.getMessage() + (e.getCause() == null ? " (start one with "
                    + "'layoutbench fusion cluster start --nodes 9 --dir " + dir + "')" : ""), e);
        }
    }

    /**
     * A FAC store over the cluster's nodes, each a {@code flight://} backend with {@code --call-timeout}, coding new
     * objects as the file says.
     */
    FacBackend store(ClusterFile cluster) {
        if (callTimeoutSeconds < 1) {
            throw new ConfigurationException("--call-timeout must be at least 1 second, got " + callTimeoutSeconds);
        }
        return NodeOptions.of(cluster.uris(), cluster.code(), Map.of("callTimeout", callTimeoutSeconds + "s"))
                .store();
    }

    /**
     * The cluster's nodes as the operators of pushdown ({@code prefix} the key prefix of the store's blocks, "" for
     * none), each call bounded by {@code --call-timeout}.
     */
    FlightNodeOperators operators(ClusterFile cluster, String prefix, FacOptions options) {
        return operators(cluster, prefix, options, callTimeoutSeconds);
    }

    static FlightNodeOperators operators(ClusterFile cluster, String prefix, FacOptions options, int timeoutSeconds) {
        return FlightNodeOperators.open(cluster.uris().stream().map(URI::create).toList(), prefix, options,
                FlightNodeBackend.Options.defaults().withCallTimeout(Duration.ofSeconds(timeoutSeconds)));
    }

    /** "node 1 (flight://127.0.0.1:41001), node 4 (...)": the nodes that refuse connections now, or an empty list. */
    static List<String> down(ClusterFile cluster) {
        List<String> down = new ArrayList<>();
        for (int i = 0; i < cluster.nodes().size(); i++) {
            ClusterFile.Node node = cluster.nodes().get(i);
            if (!NodeProcess.accepts(LocalCluster.host(node.uri()), node.uri().getPort(), PROBE_TIMEOUT)) {
                down.add("node " + i + " (" + node.uri() + ")");
            }
        }
        return down;
    }
}
