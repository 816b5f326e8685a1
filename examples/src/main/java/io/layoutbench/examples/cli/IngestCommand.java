package io.layoutbench.examples.cli;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.examples.bench.DatasetSource;
import io.layoutbench.examples.bench.DatasetStore;
import io.layoutbench.examples.bench.IngestRow;
import io.layoutbench.datasets.ingest.ManifestOptions;
import io.layoutbench.examples.report.TerminalReport;
import io.layoutbench.layouts.l2.InPlaceIndex;
import io.layoutbench.layouts.l2.L2Layout;
import io.layoutbench.layouts.webdataset.SampleGrouping;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code layoutbench ingest}: writes a dataset (the synthetic ImageNet, a user's media folder or manifest) into one or
 * more layouts, measuring time, bytes, PUT requests and their cost; or indexes tar shards in place as an l2 dataset.
 */
@Command(name = "ingest",
        mixinStandardHelpOptions = true,
        description = {
            "Write a dataset into layouts: the synthetic ImageNet (--scale, --seed), a folder of any media laid "
                    + "out as DIR/<label>/<file> (--from; media_type, format, width, height, duration_seconds, "
                    + "sample_rate and channels come from the file headers), or the files a manifest lists "
                    + "(--manifest: CSV, JSON Lines or Parquet with any columns, declared with --schema or "
                    + "inferred). Or index existing tar shards in place as an l2 dataset (--webdataset): nothing is "
                    + "copied.",
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
                description = "A folder DIR/<label>/<file> of any media (image, audio, video, text) to ingest "
                        + "instead of the synthetic dataset; headers give media_type, format, width, height, "
                        + "duration_seconds, sample_rate, channels.")
        Path folder;

        @Option(names = "--manifest", paramLabel = "FILE", required = true,
                description = "A manifest of files (CSV, JSON Lines or Parquet, any columns and a path column) to "
                        + "ingest instead of the synthetic dataset.")
        Path manifest;

        @Option(names = "--webdataset", paramLabel = "PREFIX", required = true,
                description = "Tar shards (WebDataset or plain) under PREFIX of --backend (or a directory inside a "
                        + "file: backend's root), indexed in place as an l2 dataset: nothing is copied.")
        String webdataset;
    }

    @Option(names = "--schema", paramLabel = "SPEC",
            description = "For --manifest: the columns, declared as name:type,... (types string, bigint, double, "
                    + "boolean), or 'imagenet' for the paper's image manifest (path,label[,width,height]). Default: "
                    + "inferred from the manifest. For --from: 'imagenet' ingests an image folder with the paper's "
                    + "schema.")
    String schema;

    @Option(names = "--path-column", paramLabel = "NAME",
            description = "For --manifest: the column holding each sample's file. Default: path.")
    String pathColumn;

    @Option(names = "--payload-columns", paramLabel = "FIELD=COLUMN,...",
            description = "For --manifest: several path columns, each a payload field (e.g. wav=audio,txt=text).")
    String payloadColumns;

    @Option(names = "--json-field", paramLabel = "FIELD",
            description = "For --webdataset: the JSON member whose top-level values become columns (e.g. json).")
    String jsonField;

    @Option(names = "--ignore-undeclared-columns",
            description = "For --manifest with --schema: leave out manifest columns the schema does not declare "
                    + "(default: refuse them).")
    boolean ignoreUndeclared;

    @Option(names = "--plain-tar", description = "For --webdataset: each member is a sample of its own (field "
            + "'data'), not grouped by WebDataset key.")
    boolean plainTar;

    @Option(names = "--name", paramLabel = "NAME",
            description = "Name of a user's dataset (for --from, --manifest or --webdataset; 'query --dataset NAME' "
                    + "finds it). Default: the folder's, manifest's or shard prefix's name.")
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
        if (userSource != null && userSource.webdataset != null) {
            return indexInPlace(out);
        }
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
            if (schema != null && !"imagenet".equalsIgnoreCase(schema)) {
                throw new ParameterException(spec.commandLine(), "--from takes --schema imagenet or no --schema: a "
                        + "media folder's columns come from its files' headers (declare columns with --manifest)");
            }
            refuseManifestOptions("--from");
            if (!Files.isDirectory(userSource.folder)) {
                throw new ParameterException(spec.commandLine(), "--from " + userSource.folder
                        + " is not a directory");
            }
            return "imagenet".equalsIgnoreCase(schema) ? DatasetSource.imageFolder(userSource.folder, name)
                    : DatasetSource.mediaFolder(userSource.folder, name);
        }
        if (!Files.isRegularFile(userSource.manifest)) {
            throw new ParameterException(spec.commandLine(), "--manifest " + userSource.manifest
                    + " is not a file");
        }
        if ("imagenet".equalsIgnoreCase(schema)) {
            refuseManifestOptions("--manifest with --schema imagenet (columns path or filename, label, width, "
                    + "height, filesize_bytes)");
            return DatasetSource.csvManifest(userSource.manifest, name);
        }
        try {
            ManifestOptions options = ManifestOptions.defaults();
            if (schema != null) {
                options = options.withSchema(schema);
            }
            if (pathColumn != null) {
                options = options.withPathColumn(pathColumn);
            }
            if (payloadColumns != null) {
                options = options.withPayloadColumns(payloadColumns);
            }
            if (ignoreUndeclared) {
                options = options.withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE);
            }
            List<String> readWith = new ArrayList<>();
            if (schema != null) {
                readWith.add("schema " + schema);
            }
            if (pathColumn != null) {
                readWith.add("path column " + pathColumn);
            }
            if (payloadColumns != null) {
                readWith.add("payload columns " + payloadColumns);
            }
            if (ignoreUndeclared) {
                readWith.add("undeclared columns ignored");
            }
            return DatasetSource.manifest(userSource.manifest, name, options, String.join(", ", readWith));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** Refuses the options of a generic manifest where {@code source} does not take them. */
    private void refuseManifestOptions(String source) {
        if (pathColumn != null || payloadColumns != null || ignoreUndeclared) {
            throw new ParameterException(spec.commandLine(), source + " takes no --path-column, --payload-columns "
                    + "or --ignore-undeclared-columns");
        }
    }

    /** {@code --webdataset}: an l2 dataset over the shards where they are. */
    private int indexInPlace(PrintWriter out) {
        if (!layoutNames.isEmpty() && !layoutNames.equals(List.of("l2"))) {
            throw new ParameterException(spec.commandLine(), "--webdataset indexes shards in place as an l2 "
                    + "dataset; other layouts would rewrite them (ingest their files with --from instead)");
        }
        try (Store opened = store.open(spec.commandLine())) {
            ObjectBackend backend = opened.backend();
            String shardPrefix = shardPrefix(backend.uri(), userSource.webdataset);
            List<String> shards;
            try (Stream<ObjectInfo> listing = backend.list(shardPrefix)) {
                shards = listing.map(ObjectInfo::key).filter(k -> k.endsWith(".tar")).sorted().toList();
            }
            if (shards.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "No .tar shards under '" + shardPrefix + "' in "
                        + opened.location());
            }
            String datasetName = name != null ? name.strip()
                    : shardPrefix.replaceAll("/+$", "").replaceAll(".*/", "");
            String id = DatasetSource.sanitize(datasetName.isEmpty() ? "webdataset" : datasetName);
            // Where query and describe look for it: the l2 prefix of the name, with the layout's settings.
            String prefix = QueryCommand.prefix(spec, dataset, id, StorageLayouts.get(L2Layout.NAME), layoutOptions);
            InPlaceIndex.Options options = InPlaceIndex.Options.defaults()
                    .withGrouping(plainTar ? SampleGrouping.PLAIN_TAR : SampleGrouping.WEBDATASET);
            if (jsonField != null) {
                options = options.withJsonField(jsonField);
            }
            long started = System.nanoTime();
            DatasetSummary summary = InPlaceIndex.index(backend, prefix, shards, options);
            double seconds = (System.nanoTime() - started) / 1e9;
            out.printf(Locale.ROOT, "Indexed %d shards under '%s' in place as l2 dataset '%s' at %s in %s: %d "
                    + "samples, %.3f MB of payload, in %.1f s%n", shards.size(), shardPrefix, id, prefix,
                    opened.location(), summary.sampleCount(), summary.payloadBytes() / 1e6, seconds);
            out.flush();
        }
        return 0;
    }

    /** The key prefix of {@code --webdataset}: as given, or a local directory inside a file backend's root. */
    private String shardPrefix(URI backend, String given) {
        Path local = Path.of(given);
        if (!Files.isDirectory(local)) {
            return given.endsWith("/") || given.isEmpty() ? given : given + "/";
        }
        if (!"file".equals(backend.getScheme())) {
            throw new ParameterException(spec.commandLine(), "--webdataset " + given + " is a local directory, "
                    + "but the store is " + backend + ": give a key prefix of that store, or use --backend file "
                    + "with the shards under <data-dir>/objects/");
        }
        Path root = Path.of(backend).toAbsolutePath().normalize();
        Path dir = local.toAbsolutePath().normalize();
        if (!dir.startsWith(root) || dir.equals(root)) {
            throw new ParameterException(spec.commandLine(), "--webdataset " + dir + " is not inside the file "
                    + "store's objects directory " + root + ": move or link the shards' directory under it, or "
                    + "pass the --data-dir whose objects/ directory holds them");
        }
        return root.relativize(dir).toString().replace('\\', '/') + "/";
    }
}
