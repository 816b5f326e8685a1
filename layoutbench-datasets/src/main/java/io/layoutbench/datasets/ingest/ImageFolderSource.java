package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNames;
import io.layoutbench.datasets.SampleSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
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

    private final Path root;
    private final IngestOptions options;
    private final List<String> labels;

    private ImageFolderSource(Path root, IngestOptions options, List<String> labels) {
        this.root = root;
        this.options = options;
        this.labels = labels;
    }

    /**
     * Opens the folder and lists its label directories.
     *
     * @throws IngestException if {@code root} is not a readable directory
     */
    public static ImageFolderSource open(Path root, IngestOptions options) {
        requireNonNull(root, "root is null");
        requireNonNull(options, "options is null");
        if (!Files.isDirectory(root)) {
            throw new IngestException("Image folder " + root + " is not a directory");
        }
        List<String> labels;
        try (Stream<Path> children = Files.list(root)) {
            labels = children.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .filter(name -> !name.startsWith("."))
                    .sorted()
                    .collect(Collectors.toUnmodifiableList());
        } catch (IOException | UncheckedIOException e) {
            throw new IngestException("Cannot list image folder " + root + ": " + e, e);
        }
        return new ImageFolderSource(root, options, labels);
    }

    /** {@link #open(Path, IngestOptions)} with {@link IngestOptions#defaults()}. */
    public static ImageFolderSource open(Path root) {
        return open(root, IngestOptions.defaults());
    }

    public Path root() {
        return root;
    }

    /** The label directories found when the folder was opened, sorted. */
    public List<String> labels() {
        return labels;
    }

    @Override
    public MetadataSchema schema() {
        return MetadataSchema.imageNet();
    }

    @Override
    public Stream<MetadataRow> metadata() {
        return stream(entry -> FileSamples.metadata(entry, options));
    }

    @Override
    public Stream<Sample> samples() {
        return stream(entry -> FileSamples.sample(entry, options));
    }

    @Override
    public String toString() {
        return "ImageFolderSource[" + root + ", " + labels.size() + " labels]";
    }

    /**
     * The files the folder holds, in order, as {@link #samples()} reads them (for a check of whether they changed),
     * listed again on each call.
     */
    public Stream<Path> files() {
        return FileSamples.files(Entries::new);
    }

    private <T> Stream<T> stream(Function<FileEntry, Optional<T>> convert) {
        return FileSamples.stream(Entries::new, convert, options, "name samples by their path in the folder "
                + "(IngestOptions.FilenameStyle.RELATIVE_PATH)");
    }

    /** Lists one label directory at a time. */
    private final class Entries implements FileListing {
        private int nextLabel;
        private String label;
        private Iterator<String> files = Collections.emptyIterator();

        @Override
        public boolean hasNext() {
            while (!files.hasNext() && nextLabel < labels.size()) {
                label = labels.get(nextLabel++);
                files = list(root.resolve(label)).iterator();
            }
            return files.hasNext();
        }

        @Override
        public FileEntry next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            String relative = files.next();
            Path file = root.resolve(label).resolve(relative);
            String filename;
            try {
                filename = SampleNames.fromPath(options.filenames() == IngestOptions.FilenameStyle.FILE_NAME
                        ? file.getFileName().toString()
                        : label + "/" + relative);
            } catch (IllegalArgumentException e) {
                throw new IngestException(file + ": its path makes no sample name: " + e.getMessage(), e);
            }
            return new FileEntry(file, filename, label, null, null, null, file.toString());
        }

        @Override
        public void close() {
        }
    }

    /** The non-hidden regular files under {@code dir}, as sorted '/'-separated paths relative to it. */
    private static List<String> list(Path dir) {
        List<String> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir, FileVisitOption.FOLLOW_LINKS)) {
            walk.forEach(path -> {
                Path relative = dir.relativize(path);
                if (relative.toString().isEmpty() || !Files.isRegularFile(path)) {
                    return;
                }
                List<String> parts = new ArrayList<>();
                for (Path part : relative) {
                    parts.add(part.toString());
                }
                if (parts.stream().noneMatch(p -> p.startsWith("."))) {
                    files.add(String.join("/", parts));
                }
            });
        } catch (IOException | UncheckedIOException e) {
            throw new IngestException("Cannot list label directory " + dir + ": " + e, e);
        }
        Collections.sort(files);
        return files;
    }
}
