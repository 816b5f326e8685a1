package io.layoutbench.examples.fac;

import io.layoutbench.examples.fac.study.Json;
import io.layoutbench.examples.fac.study.SyntheticOverheadStudy;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fac overhead}: the paper's synthetic storage-overhead study. */
@Command(name = "overhead", mixinStandardHelpOptions = true,
        description = {"The Fusion paper's synthetic study (Figure 16a): chunk sizes of 1-100 MB from Zipf 0, 0.5 and "
                + "0.99, 50 to 1,000 chunks, 100 trials each, RS(9,6) and RS(14,10); the storage overhead of the "
                + "paper's Algorithm 1 and of this library's refinements over the code's optimum, and on small "
                + "inputs over the exact optimum.",
            "Overhead = (parity - (n-k)/k x data) / ((n-k)/k x data) = k x sum of stripe block sizes / data - 1."})
final class OverheadCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the full results as JSON to FILE.")
    Path json;

    @Option(names = "--trials", description = "Trials per cell (default: the paper's 100).")
    Integer trials;

    @Option(names = "--quick", description = "A small study (one code, two exponents, two sizes) to try it out.")
    boolean quick;

    @Option(names = "--no-optimum", description = "Skip the exact-optimum comparison on small inputs.")
    boolean noOptimum;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        SyntheticOverheadStudy.Config config = quick ? SyntheticOverheadStudy.Config.quick()
                : SyntheticOverheadStudy.Config.paper();
        if (trials != null || noOptimum) {
            config = new SyntheticOverheadStudy.Config(config.codes(), config.exponents(), config.chunkCounts(),
                    trials != null ? trials : config.trials(), config.seed(),
                    noOptimum ? List.of() : config.optimumCounts(), config.optimumTrials(), config.optimumBudget());
        }
        SyntheticOverheadStudy.Report report = SyntheticOverheadStudy.run(config, line -> {
            out.println(line);
            out.flush();
        });
        out.println(report.toMarkdown());
        if (json != null) {
            Files.writeString(json, Json.write(report.toJson()));
            out.println("Wrote " + json);
        }
        return 0;
    }
}
