package io.layoutbench.examples.fusion;

import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code layoutbench fusion}: Fusion's query pushdown over FAC-coded Parquet.
 *
 * <pre>
 * layoutbench fusion bench                         (TPC-H lineitem SF 1, 20 runs per query, docs/FUSION.md's tables)
 * layoutbench fusion bench --scale-factor 0.1 --runs 5
 * layoutbench fusion cluster start --nodes 9 --dir cluster      (nine storage node processes on loopback)
 * layoutbench fusion put lineitem.parquet --cluster cluster
 * layoutbench fusion query "SELECT COUNT(*) FROM lineitem WHERE l_quantity < 2" --cluster cluster
 * layoutbench fusion cluster stop --dir cluster
 * layoutbench fusion node --dir /data/node-3 --port 47003        (one node in the foreground)
 * </pre>
 */
@Command(name = "fusion", mixinStandardHelpOptions = true,
        description = "Fusion's query pushdown: SQL on a FAC-coded Parquet object runs where its column chunks live.",
        subcommands = {FusionBenchCommand.class, FusionNodeCommand.class, FusionClusterCommand.class,
            FusionPutCommand.class, FusionQueryCommand.class, CommandLine.HelpCommand.class})
public final class FusionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Without a subcommand: the usage, and exit code 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
