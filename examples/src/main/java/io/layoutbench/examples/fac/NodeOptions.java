package io.layoutbench.examples.fac;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;

import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The nodes of a FAC store and how it encodes: options shared by put, get, fail and repair. */
final class NodeOptions {

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

    /** The node backends, opened. */
    List<ObjectBackend> open() {
        List<ObjectBackend> opened = new ArrayList<>();
        try {
            for (String node : nodes) {
                opened.add(openNode(node));
            }
        } catch (RuntimeException e) {
            opened.forEach(ObjectBackend::close);
            throw e;
        }
        return opened;
    }

    /** A FAC backend over the nodes, owning them. */
    FacBackend store() {
        FacOptions options = FacOptions.builder().code(CodeParameters.parse(code)).stripeConstructor(constructor)
                .overheadBudget(overheadBudget).build();
        return FacBackend.create(open(), options, true);
    }

    static ObjectBackend openNode(String node) {
        String text = node.strip();
        if (text.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") && !text.matches("^[a-zA-Z]:\\\\.*")) {
            return ObjectBackends.open(URI.create(text), java.util.Map.of(),
                    io.layoutbench.api.metrics.RequestMetrics.NONE);
        }
        return new FileBackend(Path.of(text).toAbsolutePath());
    }
}
