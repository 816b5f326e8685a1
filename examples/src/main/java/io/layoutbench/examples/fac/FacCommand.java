package io.layoutbench.examples.fac;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code layoutbench fac}: Fusion's file-format-aware erasure coding. {@code put}, {@code get}, {@code fail} and
 * {@code repair} work on a set of node directories (or backend URIs); {@code overhead} runs the paper's synthetic
 * storage-overhead study and {@code study} its real-file study on Parquet files.
 *
 * <pre>
 * layoutbench fac put lineitem.parquet --nodes /tmp/fac/node-{0..8}      (shell brace expansion, or a comma list)
 * layoutbench fac fail --nodes ... --node 3
 * layoutbench fac get --nodes ... --key lineitem.parquet --verify lineitem.parquet
 * layoutbench fac repair --nodes ... --node 3
 * layoutbench fac overhead --json overhead.json
 * </pre>
 */
@Command(name = "fac",
        mixinStandardHelpOptions = true,
        description = {
            "Fusion's file-format-aware erasure coding (FAC): store Parquet objects erasure coded across N nodes with "
                    + "no column chunk split between nodes, read them back with nodes down, repair lost nodes, and "
                    + "reproduce the paper's storage-overhead studies.",
            ""},
        subcommands = {
            PutCommand.class,
            GetCommand.class,
            FailCommand.class,
            RepairCommand.class,
            OverheadCommand.class,
            StudyCommand.class,
            CommandLine.HelpCommand.class})
public final class FacCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Runs {@code fac} on its own: {@code java -cp ... io.layoutbench.examples.fac.FacCommand put ...}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new FacCommand()).execute(args));
    }

    /** Without a subcommand: the usage, and exit code 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
