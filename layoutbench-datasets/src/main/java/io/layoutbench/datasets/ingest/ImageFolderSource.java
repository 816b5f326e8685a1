package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNames;
import io.layoutbench.datasets.SampleSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Samples from an image folder laid out as {@code root/<label>/<file>}, as ImageNet's train set and torchvision's
 * {@code ImageFolder} have it. Each top-level directory is a label; every regular file under it, at any depth, is a
 * sample of that label. Width and height come from the image headers, never by decoding (see
 * {@link io.layoutbench.datasets.image.ImageHeaders}); {@code filesize_bytes} is the file's length.
 *
 * <p>Order is deterministic: labels sorted by name, then files by their path relative to the label directory.
 * {@code filename} is the path relative to {@code root} with {@code /} separators
 * ({@code n01440764/n01440764_10026.JPEG}), or the file name alone with
 * {@link IngestOptions.FilenameStyle#FILE_NAME} (with characters a {@link SampleNames sample name} may not hold,
 * a backslash or a control character, mapped by {@link SampleNames#fromPath}); two files of one name (possible
 * with {@code FILE_NAME}) fail, naming both. Hidden entries (names starting with {@code .}) and files directly
 * in {@code root} are ignored; symbolic links are followed. Files of unknown format fail or are skipped as the
 * {@link IngestOptions} say.
 *
 * <p>Streams list one label directory at a time and read one file at a time. Each pass lists the directories again,
 * so files added between passes show up. Thread-safe: every stream is independent.
 *
 * <pre>{@code
 * ImageFolderSource train = ImageFolderSource.open(Path.of("/data/imagenet/train"), IngestOptions.defaults());
 * try (Stream<MetadataRow> rows = train.metadata()) {
 *     long wide = rows.filter(r -> r.getLong("width") > 1.5 * r.getLong("height")).count();
 * }
 * }</pre>
 */
public final class ImageFolderSource implements SampleSource {

    private final LabelFolder folder;
    private final IngestOptions options;

    private ImageFolderSource(LabelFolder folder, IngestOptions options) {
        this.folder = folder;
        this.options = options;
    }

    /**
     * Opens the folder and lists its label directories.
     *
     * @throws IngestException if {@code root} is not a readable directory
     */
    public static ImageFolderSource open(Path root, IngestOptions options) {
        requireNonNull(root, "root is null");
        requireNonNull(options, "options is null");
        return new ImageFolderSource(LabelFolder.open(root, "Image folder"), options);
    }

    /** {@link #open(Path, IngestOptions)} with {@link IngestOptions#defaults()}. */
    public static ImageFolderSource open(Path root) {
        return open(root, IngestOptions.defaults());
    }

    public Path root() {
        return folder.root();
    }

    /** The label directories found when the folder was opened, sorted. */
    public List<String> labels() {
        return folder.labels();
    }

    @Override
    public MetadataSchema schema() {
        return MetadataSchema.imageNet();
    }

    @Override
    public Stream<MetadataRow> metadata() {
        return stream(entry -> ImageSamples.metadata(entry, options));
    }

    @Override
    public Stream<Sample> samples() {
        return stream(entry -> ImageSamples.sample(entry, options));
    }

    @Override
    public String toString() {
        return "ImageFolderSource[" + folder.root() + ", " + folder.labels().size() + " labels]";
    }

    /**
     * The files the folder holds, in order, as {@link #samples()} reads them (for a check of whether they changed),
     * listed again on each call.
     */
    public Stream<Path> files() {
        return FileSamples.files(() -> folder.listing(options));
    }

    private <T> Stream<T> stream(Function<FileEntry, Optional<T>> convert) {
        return FileSamples.stream(() -> folder.listing(options), convert,
                entry -> ImageSamples.metadata(entry, options).isPresent(),
                "name samples by their path in the folder (IngestOptions.FilenameStyle.RELATIVE_PATH)");
    }
}
