package io.layoutbench.datasets.ingest;

import io.layoutbench.api.dataset.SampleNames;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A folder laid out as {@code root/<label>/<file>}: each top-level directory is a label, every regular file under
 * it at any depth a sample of that label. The listing rules that folder sources share:
 * <ul>
 *   <li>labels sorted by name, then files by their '/'-separated path relative to the label directory;</li>
 *   <li>hidden entries (names starting with {@code .}) at any depth and files directly in {@code root} are ignored;
 *       symbolic links are followed;</li>
 *   <li>a sample's name is its path relative to {@code root}, or its file name alone with
 *       {@link IngestOptions.FilenameStyle#FILE_NAME}, made a valid sample name by {@link SampleNames#fromPath}.</li>
 * </ul>
 * The labels are listed once, when the folder is opened; each {@link #listing} lists the label directories again,
 * one at a time. Immutable and thread-safe.
 */
final class LabelFolder {

    private final Path root;
    private final List<String> labels;

    private LabelFolder(Path root, List<String> labels) {
        this.root = root;
        this.labels = labels;
    }

    /**
     * Lists the label directories of {@code root}.
     *
     * @param what names the folder in errors: "Image folder"
     * @throws IngestException if {@code root} is not a readable directory
     */
    static LabelFolder open(Path root, String what) {
        if (!Files.isDirectory(root)) {
            throw new IngestException(what + " " + root + " is not a directory");
        }
        List<String> labels;
        try (Stream<Path> children = Files.list(root)) {
            labels = children.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .filter(name -> !name.startsWith("."))
                    .sorted()
                    .collect(Collectors.toUnmodifiableList());
        } catch (IOException | UncheckedIOException e) {
            throw new IngestException("Cannot list " + what.toLowerCase(Locale.ROOT) + " " + root + ": " + e, e);
        }
        return new LabelFolder(root, labels);
    }

    Path root() {
        return root;
    }

    /** The label directories, sorted. */
    List<String> labels() {
        return labels;
    }

    /** A new pass over the folder's files, in order, named as {@code options} say. */
    FileListing listing(IngestOptions options) {
        return new Entries(options);
    }

    /** Lists one label directory at a time. */
    private final class Entries implements FileListing {
        private final IngestOptions options;
        private int nextLabel;
        private String label;
        private Iterator<String> files = Collections.emptyIterator();

        Entries(IngestOptions options) {
            this.options = options;
        }

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
