package io.layoutbench.examples.fusion;

import io.layoutbench.fusion.cluster.ClusterFile;
import io.layoutbench.fusion.coding.CodingPlan;
import io.layoutbench.fusion.coding.ObjectSource;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacManifest;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusion put FILE --cluster DIR}: FAC-codes a Parquet file across the nodes of a running cluster, so that
 * {@code fusion query} can run SQL on it.
 *
 * <pre>
 * layoutbench fusion put lineitem.parquet --cluster cluster          (key: lineitem)
 * layoutbench fusion query "SELECT COUNT(*) FROM lineitem" --cluster cluster
 * </pre>
 */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = "Store a Parquet file FAC-coded (column chunks whole, erasure coded) across the nodes of a "
                + "cluster started with 'fusion cluster start'.")
final class FusionPutCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ClusterOption cluster = new ClusterOption();

    @Parameters(index = "0", paramLabel = "FILE", description = "The Parquet file to store.")
    Path file;

    @Option(names = "--key", description = "Object key, the name queries use after FROM (default: the file's name "
            + "without .parquet).")
    String key;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ClusterFile nodes = cluster.read();
        String objectKey = key != null ? key : file.getFileName().toString().replaceFirst("\\.parquet$", "");
        long started = System.nanoTime();
        try (ObjectSource source = ObjectSource.of(file); FacBackend store = cluster.store(nodes)) {
            FacManifest manifest = store.put(objectKey, source);
            out.printf(Locale.ROOT, "Stored %s (%d bytes) as %s across %d nodes of %s: %s, %d stripes, %.1f%% "
                    + "parity, in %.0f ms%n", objectKey, manifest.objectSize(), manifest.code(),
                    nodes.nodes().size(), cluster.dir, CodingPlan.describe(manifest.strategy(),
                            manifest.constructor()), manifest.stripes().size(),
                    100.0 * manifest.parityBytes() / Math.max(1, manifest.objectSize()),
                    (System.nanoTime() - started) / 1e6);
        }
        return 0;
    }
}
