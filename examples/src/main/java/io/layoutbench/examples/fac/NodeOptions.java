package io.layoutbench.examples.fac;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.examples.cli.LayoutBenchCli;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;

import picocli.CommandLine.Option;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The nodes of a FAC store and how it encodes: options shared by put, get, fail and repair, and, made from a cluster
 * file ({@link #of}), the store of {@code fusion put} and {@code fusion query}.
 *
 * <pre>{@code
 * try (FacBackend store = NodeOptions.of(cluster.uris(), "RS(9,6)", Map.of("callTimeout", "30s")).store()) { ... }
 * }</pre>
 */
public final class NodeOptions {

    @Option(names = "--nodes", required = true, split = ",", paramLabel = "NODE",
            description = "The storage nodes, in order: directories or backend URIs (file:/..., s3://...), "
                    + "comma-separated or repeated. Node i of every object is the i-th; keep the order.")
    List<String> nodes;

    @Option(names = "--code", defaultValue = "RS(9,6)",
            description = "Erasure code of new objects, RS(n,k) (default: ${DEFAULT-VALUE}); needs at least n nodes.")
    String code;

    @Option(names = "--constructor", defaultValue = "fac-refined",
            description = "Stripe construction: fac (the paper's Algorithm 1), fac-refined, fac-refined-thorough "
                    + "(default: ${DEFAULT-VALUE}).")
    String constructor;

    @Option(names = "--overhead-budget", defaultValue = "0.05",
            description = "Most extra parity over the code's optimum FAC may cost before an object gets fixed "
                    + "blocks instead, as a fraction (default: ${DEFAULT-VALUE}).")
    double overheadBudget;

    /** Properties of the nodes' backends (a {@code flight://} node's {@code callTimeout}); none from the options. */
    private Map<String, String> backendProperties = Map.of();

    /**
     * The options of a store over {@code nodes} (directories or backend URIs, in order) coding new objects with
     * {@code code}, with the default stripe construction and overhead budget, each node's backend opened with
     * {@code backendProperties}.
     */
    public static NodeOptions of(List<String> nodes, String code, Map<String, String> backendProperties) {
        NodeOptions options = new NodeOptions();
        options.backendProperties = Map.copyOf(backendProperties);
        options.nodes = List.copyOf(nodes);
        options.code = code;
        options.constructor = "fac-refined";
        options.overheadBudget = 0.05;
        return options;
    }

    /**
     * The node backends, opened. A node that cannot be opened (a path that is a file, a bad URI) is an
     * {@link UnavailableNode} in its place, so that what can run without it does; {@link #unavailable} says which.
     */
    List<ObjectBackend> open() {
        List<ObjectBackend> opened = new ArrayList<>();
        for (String node : nodes) {
            try {
                opened.add(openNode(node, backendProperties));
            } catch (RuntimeException e) {
                opened.add(new UnavailableNode(uriOf(node), LayoutBenchCli.describe(e)));
            }
        }
        return opened;
    }

    /**
     * A FAC backend over the nodes, owning them.
     *
     * @throws ConfigurationException if {@code --code}, {@code --constructor} or {@code --overhead-budget} is
     *                                invalid, or there are fewer nodes than blocks in a stripe of {@code --code}
     */
    public FacBackend store() {
        FacOptions options;
        try {
            options = FacOptions.builder().code(CodeParameters.parse(code)).stripeConstructor(constructor)
                    .overheadBudget(overheadBudget).build();
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(e.getMessage(), e);
        }
        List<ObjectBackend> opened = open();
        try {
            return FacBackend.create(opened, options, true);
        } catch (RuntimeException e) {
            opened.forEach(ObjectBackend::close);
            throw e;
        }
    }

    /** "node 5 (file:/d5/) unavailable: ..." for each node of {@code opened} that could not be opened. */
    static List<String> unavailable(List<ObjectBackend> opened) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < opened.size(); i++) {
            if (opened.get(i) instanceof UnavailableNode node) {
                lines.add("node " + i + " (" + node.uri() + ") unavailable: " + node.reason());
            }
        }
        return lines;
    }

    static ObjectBackend openNode(String node) {
        return openNode(node, Map.of());
    }

    private static ObjectBackend openNode(String node, Map<String, String> properties) {
        String text = node.strip();
        if (isUri(text)) {
            return ObjectBackends.open(URI.create(text), properties,
                    io.layoutbench.api.metrics.RequestMetrics.NONE);
        }
        return new FileBackend(Path.of(text).toAbsolutePath());
    }

    private static boolean isUri(String text) {
        return text.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") && !text.matches("^[a-zA-Z]:\\\\.*");
    }

    /** How messages name a node that could not be opened. */
    private static URI uriOf(String node) {
        String text = node.strip();
        try {
            return isUri(text) ? URI.create(text) : Path.of(text).toAbsolutePath().toUri();
        } catch (RuntimeException e) {
            return URI.create("node:" + URLEncoder.encode(text, StandardCharsets.UTF_8));
        }
    }
}
