package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNames;
import io.layoutbench.datasets.SampleSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Samples listed in a CSV manifest (RFC 4180, UTF-8, see {@link CsvReader}), one file per record, in manifest order.
 *
 * <p>The header row names the columns, ignoring case and surrounding spaces:
 * <ul>
 *   <li>{@code path} or {@code filename} (at least one). {@code path} is where the file is, relative to the
 *       manifest's directory or absolute; {@code filename} is the sample's name, its metadata {@code filename}
 *       (a valid {@link SampleNames sample name}: a relative path, no {@code ..}), which the layouts store it under
 *       and {@code query --out} writes it as. Without {@code path}, {@code filename} is where the file is too.
 *       A sample whose name is not given (no {@code filename}, or only an absolute or {@code ../} one) is named
 *       after its path: the path relative to the manifest's directory, normalized, with {@code ..} segments that
 *       leave the directory dropped ({@link SampleNames#fromPath}), or the file name alone with
 *       {@link IngestOptions.FilenameStyle#FILE_NAME}. With the manifest in {@code /data/lists}, the paths
 *       {@code img/a.png}, {@code ../images/b.png}, {@code /data/images/c.png} and {@code /mnt/x/d.png} name
 *       samples {@code img/a.png}, {@code images/b.png}, {@code images/c.png} and {@code mnt/x/d.png}. A source
 *       path is never used as a key or an output path;</li>
 *   <li>{@code label} (or {@code human_label}): required, non-empty;</li>
 *   <li>{@code width}, {@code height}, {@code filesize_bytes} (or {@code filesize}): optional; an empty value means
 *       unknown. Unknown dimensions are read from the image header, an unknown size from the file.</li>
 * </ul>
 * Other columns are ignored. Two samples may not have one name (the layouts store and find samples by name): a
 * repeat fails naming both lines. {@link #metadata()} trusts declared values and touches a file only for what is not
 * declared; {@link #samples()} reads every file and fails if a declared {@code filesize_bytes} is not the file's
 * length. Declared width and height are not checked against the header, so files of formats the header reader does
 * not know can be ingested by declaring their dimensions.
 *
 * <pre>{@code
 * // manifest.csv:
 * // path,label,width
 * // images/0001.jpg,tench,500
 * // "images/with, comma.png",goldfish,
 * CsvManifestSource source = CsvManifestSource.open(Path.of("manifest.csv"), IngestOptions.defaults());
 * try (Stream<Sample> samples = source.samples()) {
 *     samples.forEach(writer::add);
 * }
 * }</pre>
 *
 * <p>Each stream reads the manifest again, one record and one file at a time; close it to close the manifest.
 * Thread-safe: every stream is independent.
 */
public final class CsvManifestSource implements SampleSource {

    private static final String PATH = "path";
    private static final Map<String, String> COLUMN_NAMES = Map.of(
            "path", PATH,
            "filename", MetadataSchema.FILENAME,
            "label", MetadataSchema.LABEL,
            "human_label", MetadataSchema.LABEL,
            "width", MetadataSchema.WIDTH,
            "height", MetadataSchema.HEIGHT,
            "filesize_bytes", MetadataSchema.FILESIZE_BYTES,
            "filesize", MetadataSchema.FILESIZE_BYTES);

    private final Path manifest;
    private final Path base;
    private final IngestOptions options;
    private final Map<String, Integer> columns;
    private final int fieldCount;

    private CsvManifestSource(Path manifest, IngestOptions options, Map<String, Integer> columns, int fieldCount) {
        this.manifest = manifest;
        Path absolute = manifest.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        this.base = parent != null ? parent : absolute;
        this.options = options;
        this.columns = columns;
        this.fieldCount = fieldCount;
    }

    /**
     * Opens the manifest and checks its header row.
     *
     * @throws IngestException if the manifest cannot be read or its header lacks a required column
     */
    public static CsvManifestSource open(Path manifest, IngestOptions options) {
        requireNonNull(manifest, "manifest is null");
        requireNonNull(options, "options is null");
        try (CsvReader csv = reader(manifest)) {
            List<String> header = csv.next();
            if (header == null) {
                throw new IngestException("Manifest " + manifest + " is empty; expected a header row such as "
                        + "'path,label'");
            }
            Map<String, Integer> columns = new HashMap<>();
            for (int i = 0; i < header.size(); i++) {
                String name = header.get(i).strip().toLowerCase(Locale.ROOT);
                String column = COLUMN_NAMES.get(name);
                if (column == null) {
                    continue; // extra columns (split, source ...) are allowed and ignored
                }
                Integer earlier = columns.putIfAbsent(column, i);
                if (earlier != null) {
                    throw new IngestException("Manifest " + manifest + " line " + csv.recordLine() + ": columns "
                            + (earlier + 1) + " ('" + header.get(earlier).strip() + "') and " + (i + 1) + " ('"
                            + header.get(i).strip() + "') both give " + column);
                }
            }
            if (!columns.containsKey(PATH) && !columns.containsKey(MetadataSchema.FILENAME)) {
                throw new IngestException("Manifest " + manifest + " line " + csv.recordLine()
                        + ": the header has no 'path' or 'filename' column (found: " + String.join(",", header) + ")");
            }
            if (!columns.containsKey(MetadataSchema.LABEL)) {
                throw new IngestException("Manifest " + manifest + " line " + csv.recordLine()
                        + ": the header has no 'label' column (found: " + String.join(",", header) + ")");
            }
            return new CsvManifestSource(manifest, options, Map.copyOf(columns), header.size());
        } catch (IOException e) {
            throw new IngestException("Cannot read manifest " + manifest + ": " + e, e);
        }
    }

    /** {@link #open(Path, IngestOptions)} with {@link IngestOptions#defaults()}. */
    public static CsvManifestSource open(Path manifest) {
        return open(manifest, IngestOptions.defaults());
    }

    public Path manifest() {
        return manifest;
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
        return "CsvManifestSource[" + manifest + "]";
    }

    private static CsvReader reader(Path manifest) throws IOException {
        return new CsvReader(Files.newBufferedReader(manifest, StandardCharsets.UTF_8), manifest.toString());
    }

    /**
     * The files the manifest lists, in order, as {@link #samples()} reads them (for a check of whether they
     * changed). Close the stream to close the manifest.
     *
     * @throws IngestException if the manifest cannot be read or a record is malformed
     */
    public Stream<Path> files() {
        return FileSamples.files(this::entries);
    }

    private <T> Stream<T> stream(Function<FileEntry, Optional<T>> convert) {
        return FileSamples.stream(this::entries, convert, entry -> ImageSamples.metadata(entry, options).isPresent(),
                "give the rows distinct values in a 'filename' column");
    }

    private Entries entries() {
        CsvReader csv;
        try {
            csv = reader(manifest);
            csv.next(); // the header, checked by open()
        } catch (IOException e) {
            throw new IngestException("Cannot read manifest " + manifest + ": " + e, e);
        }
        return new Entries(csv);
    }

    /** Reads one record ahead. */
    private final class Entries implements FileListing {
        private final CsvReader csv;
        private List<String> record;
        private boolean done;

        Entries(CsvReader csv) {
            this.csv = csv;
        }

        @Override
        public boolean hasNext() {
            if (record == null && !done) {
                try {
                    record = csv.next();
                } catch (IOException e) {
                    throw new IngestException("Cannot read manifest " + manifest + ": " + e, e);
                }
                done = record == null;
            }
            return record != null;
        }

        @Override
        public FileEntry next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            List<String> fields = record;
            record = null;
            return entry(fields, manifest + " line " + csv.recordLine());
        }

        @Override
        public void close() {
            try {
                csv.close();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot close manifest " + manifest, e);
            }
        }
    }

    private FileEntry entry(List<String> fields, String origin) {
        if (fields.size() != fieldCount) {
            throw new IngestException(origin + ": " + fields.size() + " fields, but the header has " + fieldCount);
        }
        String location = value(fields, PATH);
        String named = value(fields, MetadataSchema.FILENAME);
        boolean pathColumn = location != null;
        if (!pathColumn) {
            location = named;
        }
        if (location == null || location.isEmpty()) {
            throw new IngestException(origin + ": empty " + (pathColumn ? "path" : "filename"));
        }
        Path file;
        try {
            file = base.resolve(location);
        } catch (InvalidPathException e) {
            throw new IngestException(origin + ": '" + location + "' is not a valid path: " + e.getMessage(), e);
        }
        String filename;
        if (pathColumn && named != null && !named.isEmpty()) {
            Optional<String> problem = SampleNames.problem(named);
            if (problem.isPresent()) {
                throw new IngestException(origin + ": filename '" + named + "' " + problem.get() + "; a sample "
                        + "name is a relative path (leave it empty to name the sample after its path)");
            }
            filename = named;
        } else if (!pathColumn && SampleNames.isValid(named)) {
            filename = named;
        } else {
            filename = nameFromPath(file, origin);
        }
        String label = value(fields, MetadataSchema.LABEL);
        if (label == null || label.isEmpty()) {
            throw new IngestException(origin + ": empty label for " + location);
        }
        return new FileEntry(file, filename, label, number(fields, MetadataSchema.FILESIZE_BYTES, 0, origin),
                number(fields, MetadataSchema.WIDTH, 1, origin), number(fields, MetadataSchema.HEIGHT, 1, origin),
                origin);
    }

    /** The name of a sample whose manifest line gives none: from its path, as the class comment says. */
    private String nameFromPath(Path file, String origin) {
        Path normalized = file.normalize();
        String path = options.filenames() == IngestOptions.FilenameStyle.FILE_NAME
                ? String.valueOf(normalized.getFileName())
                : base.relativize(normalized).toString();
        try {
            return SampleNames.fromPath(path);
        } catch (IllegalArgumentException e) {
            throw new IngestException(origin + ": cannot name a sample after " + file + ": " + e.getMessage(), e);
        }
    }

    /** The column's value, stripped; null if the manifest has no such column. */
    private String value(List<String> fields, String column) {
        Integer index = columns.get(column);
        return index == null ? null : fields.get(index).strip();
    }

    /** The column's whole-number value, or null if the column is absent or the value empty. */
    private Long number(List<String> fields, String column, long min, String origin) {
        String text = value(fields, column);
        if (text == null || text.isEmpty()) {
            return null;
        }
        long number;
        try {
            number = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IngestException(origin + ", column " + column + ": '" + text + "' is not a whole number");
        }
        if (number < min) {
            throw new IngestException(origin + ", column " + column + ": " + number + " is below " + min);
        }
        return number;
    }
}
