package io.layoutbench.examples.cli;

import io.layoutbench.api.layout.QueryOptions;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --max-read-amplification}: optimized retrieval's read budget ({@link QueryOptions#maxReadAmplification}). */
final class ReadBudgetOption {

    @Option(names = "--max-read-amplification", paramLabel = "X",
            defaultValue = "" + QueryOptions.DEFAULT_MAX_READ_AMPLIFICATION,
            description = "Optimized retrieval reads at most X times the bytes its matches need, merging across the "
                    + "smallest gaps first: 1 merges only touching ranges, Infinity merges wherever the objective "
                    + "favours it. Default: ${DEFAULT-VALUE}.")
    double maxReadAmplification;

    /**
     * The budget.
     *
     * @throws ParameterException if it is below 1 or not a number
     */
    double value(CommandLine cmd) {
        if (!(maxReadAmplification >= 1)) {
            throw new ParameterException(cmd, "--max-read-amplification must be at least 1 (1: read only the bytes "
                    + "needed; Infinity: no limit), got " + maxReadAmplification);
        }
        return maxReadAmplification;
    }
}
