package io.layoutbench.examples.cli;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.examples.bench.Progress;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code layoutbench generate}: writes the synthetic ImageNet's samples as an image folder
 * ({@code DIR/<label>/<file>.JPEG}), the shape {@code ingest --from} reads, optionally with a CSV manifest.
 */
@Command(name = "generate",
        mixinStandardHelpOptions = true,
        description = {
            "Write a synthetic ImageNet dataset as an image folder, DIR/<label>/<wnid>_<n>.JPEG (JPEG-like files of "
                    + "the generated sizes whose headers carry width and height), to try 'ingest --from DIR'.",
            ""},
        footer = {"", "Example:", "  layoutbench generate --scale tiny --out /tmp/imagenet-tiny --manifest",
            "  layoutbench ingest --from /tmp/imagenet-tiny --name my-tiny"})
final class GenerateCommand implements Callable<Integer> {

    /** File name of the manifest {@code --manifest} writes. */
    static final String MANIFEST_FILE = "manifest.csv";

    @Spec
    CommandSpec spec;

    @Mixin
    DatasetOptions dataset = new DatasetOptions();

    @Option(names = "--out", paramLabel = "DIR", required = true,
            description = "Directory to write the image folder into (created if missing).")
    Path out;

    @Option(names = "--manifest",
            description = "Also write DIR/" + MANIFEST_FILE + " (path,label,width,height,filesize_bytes), for "
                    + "'ingest --manifest'.")
    boolean manifest;

    @Override
    public Integer call() throws IOException {
        SyntheticImageNet synthetic = SyntheticImageNet.of(dataset.scale(), dataset.seed, dataset.shuffle);
        Path root = out.toAbsolutePath().normalize();
        Files.createDirectories(root);
        long started = System.nanoTime();
        long bytes = 0;
        long files = 0;
        try (Progress progress = ConsoleProgress.factory().start("Generate " + dataset.scale().scaleName(),
                synthetic.size(), "files");
                Stream<Sample> samples = synthetic.samples();
                BufferedWriter csv = manifest ? Files.newBufferedWriter(root.resolve(MANIFEST_FILE),
                        StandardCharsets.UTF_8) : null) {
            if (csv != null) {
                csv.write("path,label,width,height,filesize_bytes\n");
            }
            Iterator<Sample> iterator = samples.iterator();
            while (iterator.hasNext()) {
                Sample sample = iterator.next();
                MetadataRow row = sample.metadata();
                String label = row.getString(MetadataSchema.LABEL);
                String relative = label + "/" + sample.filename();
                Path file = root.resolve(relative);
                Files.createDirectories(file.getParent());
                write(file, sample);
                if (csv != null) {
                    csv.write(relative + "," + label + "," + row.getLong(MetadataSchema.WIDTH) + ","
                            + row.getLong(MetadataSchema.HEIGHT) + "," + sample.size() + "\n");
                }
                bytes += sample.size();
                files++;
                progress.step(1);
            }
        }
        spec.commandLine().getOut().printf(Locale.ROOT, "Wrote %d files (%.1f MB) of %s into %s%s in %.1f s%n",
                files, bytes / 1e6, synthetic, root, manifest ? " with " + MANIFEST_FILE : "",
                (System.nanoTime() - started) / 1e9);
        return 0;
    }

    private static void write(Path file, Sample sample) {
        try (OutputStream stream = Files.newOutputStream(file);
                WritableByteChannel channel = Channels.newChannel(stream)) {
            java.nio.ByteBuffer data = sample.data().duplicate();
            while (data.hasRemaining()) {
                channel.write(data);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
