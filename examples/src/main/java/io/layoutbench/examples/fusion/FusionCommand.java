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
 * </pre>
 */
@Command(name = "fusion", mixinStandardHelpOptions = true,
        description = "Fusion's query pushdown: SQL on a FAC-coded Parquet object runs where its column chunks live.",
        subcommands = {FusionBenchCommand.class, CommandLine.HelpCommand.class})
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
