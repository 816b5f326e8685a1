package io.layoutbench.examples.cli;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.backend.simulated.SimulatedNetworkBackend;
import io.layoutbench.loader.LoaderState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The dataset a {@code load} command reads, and through what: {@code --scale} and {@code --data-seed} (the synthetic
 * ImageNet) or {@code --dataset}, {@code --layout}, the store, {@code --profile} and {@code --mode}. {@code --seed}
 * is the loader's own, so the synthetic dataset's seed is {@code --data-seed} here.
 */
final class LoaderDataset {

    @Mixin
    StoreOptions store = new StoreOptions();

    @Option(names = "--scale", paramLabel = "SCALE", defaultValue = "mini",
            converter = DatasetOptions.ScaleNameConverter.class,
            description = "Synthetic ImageNet scale (tiny, mini, medium, full). Default: ${DEFAULT-VALUE}.")
    String scaleName;

    @Option(names = "--data-seed", paramLabel = "N", defaultValue = "" + DatasetOptions.DEFAULT_SEED,
            description = "Seed the synthetic dataset was generated with. Default: ${DEFAULT-VALUE}.")
    long dataSeed;

    @Option(names = "--dataset", paramLabel = "NAME",
            description = "A user's dataset, by the --name it was ingested with. Default: the synthetic dataset.")
    String datasetName;

    @Option(names = "--layout", paramLabel = "LAYOUT", defaultValue = "l2",
            description = "Layout to read: l1, l2, l3 or fac. Default: ${DEFAULT-VALUE}.")
    String layoutName;

    @Option(names = "--layout-option", paramLabel = "LAYOUT.KEY=VALUE",
            description = "A layout option the dataset was ingested with, if not the default; repeatable.")
    List<String> layoutOptions = new ArrayList<>();

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "optimized",
            converter = Converters.ModeConverter.class,
            description = "Retrieval mode: optimized or paper. Default: ${DEFAULT-VALUE}.")
    RetrievalMode mode;

    @Option(names = "--profile", paramLabel = "PROFILE", defaultValue = "t3.medium",
            converter = Converters.ProfileConverter.class,
            description = "Network preset to read through (none for no simulation). Default: ${DEFAULT-VALUE}.")
    NetworkProfile profile;

    /** An opened dataset and what it needs kept open. */
    record Opened(Store store, ObjectBackend client, Dataset dataset, StorageLayout layout, String prefix)
            implements AutoCloseable {
        @Override
        public void close() {
            try (Store s = store; ObjectBackend c = client; Dataset d = dataset) {
                // closed in reverse order
            }
        }
    }

    /** The query options every rank of a job reads with. */
    QueryOptions queryOptions(List<String> fields) {
        return QueryOptions.defaults().withMode(mode).withNetwork(profile).withFields(fields);
    }

    /**
     * Opens the dataset the options name.
     *
     * @throws ParameterException naming the ingest to run if it is not there
     */
    Opened open(CommandSpec spec) {
        DatasetOptions synthetic = new DatasetOptions();
        synthetic.mixee = spec;
        synthetic.scaleName = scaleName;
        synthetic.seed = dataSeed;
        StorageLayout layout = Layouts.resolve(spec.commandLine(), List.of(layoutName)).get(0);
        String prefix = QueryCommand.prefix(spec, synthetic, datasetName, layout, layoutOptions);
        return open(spec, layout, prefix, (client, store) -> QueryCommand.open(spec, synthetic, datasetName, layout,
                client, prefix, store));
    }

    /**
     * Opens the dataset a saved loader state was read from: its layout and prefix, in the store of the options.
     *
     * @throws ParameterException if no such dataset is there
     */
    Opened open(CommandSpec spec, LoaderState state) {
        StorageLayout layout = Layouts.resolve(spec.commandLine(), List.of(state.layout())).get(0);
        return open(spec, layout, state.prefix(), (client, store) -> {
            try {
                return layout.open(client, state.prefix());
            } catch (ObjectNotFoundException e) {
                throw new ParameterException(spec.commandLine(), "Invalid --resume: the state's " + state.layout()
                        + " dataset at " + state.prefix() + " is not in " + store.location());
            }
        });
    }

    private Opened open(CommandSpec spec, StorageLayout layout, String prefix,
            BiFunction<ObjectBackend, Store, Dataset> opener) {
        Store opened = store.open(spec.commandLine());
        try {
            if (!opened.persistent()) {
                throw new ParameterException(spec.commandLine(), "--backend mem holds no datasets between "
                        + "commands; load from a file, s3-embedded or s3:// backend");
            }
            ObjectBackend view = opened.backend().withMetrics(RequestMetrics.NONE);
            ObjectBackend client = profile.isUnlimited() ? view : SimulatedNetworkBackend.wrap(view, profile);
            return new Opened(opened, client, opener.apply(client, opened), layout, prefix);
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
    }
}
