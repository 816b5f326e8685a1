package io.layoutbench.examples.cli;

import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.examples.bench.DatasetSource;
import io.layoutbench.examples.bench.DatasetStore;
import io.layoutbench.examples.bench.IngestRow;
import io.layoutbench.examples.report.TerminalReport;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code layoutbench ingest}: writes a dataset (the synthetic ImageNet, a user's image folder or CSV manifest) into
 * one or more layouts, measuring time, bytes, PUT requests and their cost.
 */
@Command(name = "ingest",
        mixinStandardHelpOptions = true,
        description = {
            "Write a dataset into layouts: the synthetic ImageNet (--scale, --seed), an image folder laid out as "
                    + "DIR/<label>/<file> (--from), or the files a CSV manifest lists (--manifest; columns path or "
                    + "filename, label, optional width, height, filesize_bytes). Width and height come from the "
                    + "image headers.",
            "A dataset already ingested with the same settings from the same source (the same folder or manifest "
                    + "and files of the same names, sizes and times; the same scale, seed and order) is kept unless "
                    + "--force; otherwise it is ingested again, saying why. Ingest is not run through "
                    + "the network simulation: its time is this machine's; its cost is PUT requests plus the "
                    + "profile's hourly rate for that time (transfer into S3 is free).",
            ""},
        footer = {"", "Examples:",
            "  layoutbench ingest --scale tiny --layouts l1,l2",
            "  layoutbench ingest --from ~/data/pets --name pets --layouts l2",
            "  layoutbench query --dataset pets --layout l2 --where \"label = 'cat'\" --out /tmp/cats"})
final class IngestCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    DatasetOptions dataset = new DatasetOptions();

    @Mixin
    StoreOptions store = new StoreOptions();

    @ArgGroup(exclusive = true)
    UserSource userSource;

    /** A user's dataset instead of the synthetic one. */
    static final class UserSource {
        @Option(names = "--from", paramLabel = "DIR", required = true,
                description = "An image folder DIR/<label>/<file> to ingest instead of the synthetic dataset.")
        Path folder;

        @Option(names = "--manifest", paramLabel = "FILE", required = true,
                description = "A CSV manifest of files to ingest instead of the synthetic dataset.")
        Path manifest;
    }

    @Option(names = "--name", paramLabel = "NAME",
            description = "Name of a user's dataset (for --from or --manifest; 'query --dataset NAME' finds it). "
                    + "Default: the folder's or manifest's name.")
    String name;

    @Option(names = "--layouts", paramLabel = "LAYOUT", split = ",",
            description = "Layouts to write, comma-separated. Default: every layout found.")
    List<String> layoutNames = new ArrayList<>();

    @Option(names = "--layout-option", paramLabel = "LAYOUT.KEY=VALUE",
            description = "A layout option overriding the paper's settings, e.g. l2.shard-size=32MB; repeatable.")
    List<String> layoutOptions = new ArrayList<>();

    @Option(names = "--profile", paramLabel = "PROFILE", defaultValue = "t3.medium",
            converter = Converters.ProfileConverter.class,
            description = "Instance whose hourly rate prices the ingest time. Default: ${DEFAULT-VALUE}.")
    NetworkProfile profile;

    @Option(names = "--force", description = "Ingest even if the dataset exists with the same settings and source, "
            + "or replace another name's dataset stored at the same prefix.")
    boolean force;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<StorageLayout> layouts = Layouts.resolve(spec.commandLine(), layoutNames);
        Map<String, Map<String, String>> overrides = Layouts.overrides(spec.commandLine(), layoutOptions);
        DatasetSource source = source();
        CostModel costModel = new CostModel(Prices.s3Standard(), profile);
        try (Store opened = store.open(spec.commandLine())) {
            if (!opened.persistent()) {
                throw new ParameterException(spec.commandLine(), "--backend mem keeps nothing after the command "
                        + "ends; ingest into file, s3-embedded or s3://bucket/prefix (bench can use mem)");
            }
            DatasetStore datasets = new DatasetStore(opened.backend(), opened.label());
            List<IngestRow> rows = new ArrayList<>();
            for (StorageLayout layout : layouts) {
                Map<String, String> options = Layouts.options(layout, userSource == null ? dataset.scale() : null,
                        overrides);
                try {
                    rows.add(datasets.ensure(source, layout, options, force, costModel, ConsoleProgress.factory(),
                            why -> {
                                out.println(why);
                                out.flush();
                            }));
                } catch (DatasetStore.NameTakenException e) {
                    throw new ParameterException(spec.commandLine(), e.getMessage() + "; choose another --name, or "
                            + "add --force to replace it");
                }
            }
            out.println("Dataset " + source.id() + " (" + source.description() + ") in " + opened.location());
            out.print(TerminalReport.ingestTable(rows));
            out.flush();
        }
        return 0;
    }

    private DatasetSource source() {
        if (userSource == null) {
            if (name != null) {
                throw new ParameterException(spec.commandLine(), "--name names a user's dataset; use it with "
                        + "--from or --manifest");
            }
            return dataset.source();
        }
        if (userSource.folder != null) {
            if (!Files.isDirectory(userSource.folder)) {
                throw new ParameterException(spec.commandLine(), "--from " + userSource.folder
                        + " is not a directory");
            }
            return DatasetSource.imageFolder(userSource.folder, name);
        }
        if (!Files.isRegularFile(userSource.manifest)) {
            throw new ParameterException(spec.commandLine(), "--manifest " + userSource.manifest
                    + " is not a file");
        }
        return DatasetSource.csvManifest(userSource.manifest, name);
    }
}
