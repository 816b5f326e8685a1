package io.layoutbench.examples.fac;

import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.RepairReport;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code fac repair}: rebuilds a lost node, or checks and fixes every object. */
@Command(name = "repair", mixinStandardHelpOptions = true,
        description = "With --node: rebuild every block and manifest replica node --node held onto it (now empty "
                + "or new), decoding each from its stripe. Without: read and check every block of every object and "
                + "rewrite the missing or damaged ones.")
final class RepairCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    NodeOptions nodes = new NodeOptions();

    @Option(names = "--node", description = "The node to rebuild (0-based index into --nodes).")
    Integer node;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (FacBackend fac = nodes.store()) {
            NodeOptions.unavailable(fac.nodes()).forEach(line -> out.println("Warning: " + line));
            long started = System.nanoTime();
            RepairReport report = node == null ? fac.repairAll()
                    : fac.repairNode(node, NodeOptions.openNode(nodes.nodes.get(node)));
            out.printf(Locale.ROOT, "%s in %.0f ms: %s%n", node == null ? "Checked every object"
                    : "Rebuilt node " + node, (System.nanoTime() - started) / 1e6, report);
            return report.complete() ? 0 : 1;
        }
    }
}
