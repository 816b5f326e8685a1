package io.layoutbench.examples.cli;

import io.layoutbench.api.layout.StorageLayout;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Which ingested copy a command reads: {@code --dataset} (a user's dataset by name; else the synthetic one of the
 * command's scale and seed), {@code --layout} and the {@code --layout-option}s it was ingested with, which together
 * name its prefix ({@link QueryCommand#prefix}).
 */
final class DatasetCopy {

    @Option(names = "--dataset", paramLabel = "NAME",
            description = "A user's dataset, by the --name it was ingested with. Default: the synthetic dataset.")
    String datasetName;

    @Option(names = "--layout", paramLabel = "LAYOUT", defaultValue = "l2",
            description = "Layout of the copy to read: l1, l2, l3 or fac. Default: ${DEFAULT-VALUE}.")
    String layoutName;

    @Option(names = "--layout-option", paramLabel = "LAYOUT.KEY=VALUE",
            description = "A layout option the dataset was ingested with, if not the default (e.g. "
                    + "l2.shard-size=32MB); repeatable.")
    List<String> layoutOptions = new ArrayList<>();

    /** The layout {@code --layout} names. */
    StorageLayout layout(CommandLine cmd) {
        return Layouts.resolve(cmd, List.of(layoutName)).get(0);
    }
}
