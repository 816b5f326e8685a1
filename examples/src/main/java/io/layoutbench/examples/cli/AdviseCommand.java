package io.layoutbench.examples.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code layoutbench advise}: recommends a layout for a workload. Not implemented yet. */
@Command(name = "advise",
        mixinStandardHelpOptions = true,
        description = {"Recommend a layout and settings for a dataset and query workload (not yet available).", ""})
final class AdviseCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println("advise: not yet available. Run 'layoutbench bench' and compare the "
                + "layouts' T, D and cost for your queries meanwhile.");
        return 0;
    }
}
