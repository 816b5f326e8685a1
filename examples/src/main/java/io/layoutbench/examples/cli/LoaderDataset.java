package io.layoutbench.examples.cli;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.loader.LoaderState;
import java.util.List;
import java.util.function.BiFunction;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The dataset a {@code load} command reads, and through what: {@code --scale} and {@code --data-seed} (the synthetic
 * ImageNet) or the copy's options ({@link DatasetCopy}), the store, and {@link ReadThrough}'s mode and network. {@code --seed}
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

    @Mixin
    DatasetCopy copy = new DatasetCopy();

    @Mixin
    ReadThrough read = new ReadThrough();

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
        return QueryOptions.defaults().withMode(read.mode).withNetwork(read.profile).withFields(fields);
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
        StorageLayout layout = copy.layout(spec.commandLine());
        String prefix = QueryCommand.prefix(spec, synthetic, copy.datasetName, layout, copy.layoutOptions);
        return open(spec, layout, prefix, (client, store) -> QueryCommand.open(spec, synthetic, copy.datasetName,
                layout, client, prefix, store));
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
        Store opened = store.open(spec.commandLine(), read.profile);
        try {
            if (!opened.persistent()) {
                throw new ParameterException(spec.commandLine(), "--backend mem holds no datasets between "
                        + "commands; load from a file, s3-embedded or s3:// backend");
            }
            ObjectBackend client = read.client(opened.backend());
            return new Opened(opened, client, opener.apply(client, opened), layout, prefix);
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
    }
}
