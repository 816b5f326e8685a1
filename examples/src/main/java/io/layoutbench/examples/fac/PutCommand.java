package io.layoutbench.examples.fac;

import io.layoutbench.fusion.coding.ChunkMap;
import io.layoutbench.fusion.coding.ObjectSource;
import io.layoutbench.fusion.coding.ParquetChunkMaps;
import io.layoutbench.fusion.coding.RegionKind;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacManifest;
import io.layoutbench.fusion.stripe.StripeConstructors;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code fac put FILE}: encodes a file across the nodes and says how. */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = "Store a file (Parquet: FAC, no column chunk split; anything else: fixed-size blocks) erasure "
                + "coded across the nodes, and print its chunk map, stripes and placement.")
final class PutCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    NodeOptions nodes = new NodeOptions();

    @Parameters(index = "0", paramLabel = "FILE", description = "The file to store.")
    Path file;

    @Option(names = "--key", description = "Object key (default: the file's name).")
    String key;

    @Option(names = "--stripes", defaultValue = "20",
            description = "Print at most this many stripes (default: ${DEFAULT-VALUE}).")
    int stripesShown;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        String objectKey = key != null ? key : file.getFileName().toString();
        try (ObjectSource source = ObjectSource.of(file); FacBackend fac = nodes.store()) {
            ChunkMap map = ParquetChunkMaps.read(source);
            out.printf(Locale.ROOT, "%s: %d bytes, %s%n", file, map.objectSize(), map.opaqueCause()
                    .map(cause -> "no chunk map (" + cause + ")")
                    .orElse(map.chunks().size() + " column chunks, " + map.regions().size() + " regions ("
                            + map.regions().stream().filter(r -> r.kind() != RegionKind.COLUMN_CHUNK).count()
                            + " not chunks: magic, page indexes, footer)"));
            long started = System.nanoTime();
            StripeConstructors.named(nodes.constructor).construct(map.regionSizes(),
                    fac.options().code().dataBlocks());
            double constructMicros = (System.nanoTime() - started) / 1e3;
            started = System.nanoTime();
            FacManifest manifest = fac.put(objectKey, source);
            double putMillis = (System.nanoTime() - started) / 1e6;
            out.printf(Locale.ROOT, "Stored %s as %s: %s, %d stripes, %d parity bytes (%.3f%% over the %s optimum of "
                    + "%d), stripe construction %.0f us, put %.0f ms%n", objectKey, manifest.code(),
                    io.layoutbench.fusion.coding.CodingPlan.describe(manifest.strategy(), manifest.constructor()),
                    manifest.stripes().size(), manifest.parityBytes(), 100 * manifest.extraOverhead(),
                    manifest.code(), (long) (manifest.objectSize() * manifest.code().optimalOverhead()),
                    constructMicros, putMillis);
            GetCommand.printStripes(out, manifest, stripesShown);
            if (map.hasChunks()) {
                long split = map.chunks().stream().filter(c -> manifest.nodesHolding(c.range()).size() > 1).count();
                out.printf(Locale.ROOT, "Column chunks on more than one node: %d of %d%n", split,
                        map.chunks().size());
            }
        }
        return 0;
    }
}
