package io.layoutbench.examples.fac;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacManifest;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/** {@code fac fail}: loses a node, or damages one block, to try degraded reads and repair. */
@Command(name = "fail", mixinStandardHelpOptions = true,
        description = "Simulate a failure: delete everything node --node holds (a lost disk), or with --corrupt KEY "
                + "flip one byte of one of KEY's blocks on that node (silent corruption, caught by its CRC32C).")
final class FailCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    NodeOptions nodes = new NodeOptions();

    @Option(names = "--node", required = true, description = "The node to fail (0-based index into --nodes).")
    int node;

    @Option(names = "--corrupt", paramLabel = "KEY",
            description = "Instead of losing the node, flip a byte in the first block of object KEY it holds.")
    String corrupt;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (corrupt == null) {
            List<ObjectBackend> opened = nodes.open();
            NodeOptions.unavailable(opened).forEach(line -> out.println("Warning: " + line));
            try {
                ObjectBackend target = opened.get(node);
                long objects;
                long bytes;
                try (Stream<ObjectInfo> listed = target.list("")) {
                    List<ObjectInfo> all = listed.toList();
                    objects = all.size();
                    bytes = all.stream().mapToLong(ObjectInfo::size).sum();
                    target.deleteAll(all.stream().map(ObjectInfo::key).toList());
                }
                out.printf(Locale.ROOT, "Node %d (%s) lost: deleted its %d objects (%d bytes: blocks and manifest "
                        + "replicas)%n", node, target.uri(), objects, bytes);
            } finally {
                opened.forEach(ObjectBackend::close);
            }
            return 0;
        }
        try (FacBackend fac = nodes.store()) {
            NodeOptions.unavailable(fac.nodes()).forEach(line -> out.println("Warning: " + line));
            FacManifest manifest = fac.manifest(corrupt);
            for (FacManifest.Stripe stripe : manifest.stripes()) {
                for (FacManifest.Block block : stripe.blocks()) {
                    if (block.node() != node || block.length() == 0) {
                        continue;
                    }
                    String blockKey = "blocks/" + corrupt + ".fac/" + manifest.generation() + "-s" + stripe.index()
                            + "-b" + block.index();
                    ObjectBackend target = fac.nodes().get(node);
                    ByteBuffer stored = target.readAll(blockKey);
                    byte[] bytes = new byte[stored.remaining()];
                    stored.get(bytes);
                    int at = bytes.length / 2;
                    bytes[at] ^= 0x01;
                    target.put(blockKey, bytes);
                    out.printf(Locale.ROOT, "Flipped bit 0 of byte %d of %s on node %d (%s)%n", at, block, node,
                            target.uri());
                    return 0;
                }
            }
            out.printf(Locale.ROOT, "Node %d holds no block of %s%n", node, corrupt);
            return 1;
        }
    }
}
