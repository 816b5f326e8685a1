package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNameSet;
import io.layoutbench.api.dataset.SampleNames;
import io.layoutbench.datasets.SampleSource;
import io.layoutbench.datasets.ingest.ManifestBinding.Target;
import io.layoutbench.datasets.ingest.ManifestReader.Record;
import io.layoutbench.datasets.ingest.ManifestReader.SourceColumn;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Samples listed in a manifest with any columns, one row a sample, in manifest order: a CSV file, JSON Lines or a
 * Parquet table ({@link ManifestFormat}). A path column (default {@code path}) says where each sample's file is,
 * relative to the manifest's directory or absolute; the file is the sample's payload field {@value Sample#DATA}, a
 * {@link Blob#ofFile lazily read blob}: the source never reads a payload byte itself, so samples of any size stream
 * in bounded memory. Several path columns make several payload fields
 * ({@link ManifestOptions#withPayloadColumns(String) wav=audio_path,txt=text_path}); a row whose path in one of them
 * is empty lacks that field, and a row needs at least one.
 *
 * <p><b>Schema.</b> Declared ({@link ManifestOptions#withSchema}), or inferred in one pass over the manifest when
 * it is opened: a column is BIGINT if every non-NULL value is an integer, DOUBLE if every one is a number (integers
 * and decimals mixed), BOOLEAN if every one is {@code true} or {@code false} (ignoring case), and STRING otherwise or
 * if all are NULL. CSV text is parsed strictly: an integer is {@code [+-]?[0-9]+}, a number also takes a decimal
 * point and an exponent, and {@code NaN}, {@code 1,000} or {@code 0x10} are text; a Parquet column keeps its type
 * and a JSON string stays a STRING. CSV values lose surrounding white space. An empty CSV value, a JSON {@code null}
 * and a key a JSON line lacks are NULL. A declared column reads text that spells a value of its type (a JSON
 * {@code "12"} in a BIGINT column) and widens integers to DOUBLE. Column names must be valid {@link Column} names;
 * invalid ones fail, naming the name {@link ManifestOptions.ColumnNaming#SANITIZE} would map them to. With a declared
 * schema, a manifest column the schema lacks fails unless {@link ManifestOptions.UndeclaredColumns#IGNORE}, and a
 * declared column the manifest lacks fails on open (JSON Lines, whose columns are only known line by line, reads it
 * as NULL). The path columns are not metadata unless an inferred schema is asked to keep them or a declared one
 * declares them.
 *
 * <p><b>Names and sizes.</b> Every schema has a STRING {@code filename} and a BIGINT {@code filesize_bytes}, first and
 * last unless the manifest or the declared schema places them. A row's {@code filename} is the manifest's if it gives
 * one (a valid {@link SampleNames sample name}, else an error); otherwise the sample is named after its (first) path,
 * relative to the manifest's directory with {@code /} separators and {@code ..} that climb out of it dropped
 * ({@link SampleNames#fromPath}), or the file name alone with {@link IngestOptions.FilenameStyle#FILE_NAME}. A manifest
 * with no path column but a {@code filename} column (and the default path column) finds each file by its filename.
 * Two rows of one name fail, naming both lines. {@code filesize_bytes} is the manifest's where it gives one: trusted
 * by {@link #metadata()}, which then does not touch the file, and checked against the files by {@link #samples()};
 * otherwise it is the size of the row's files together, from their attributes.
 *
 * <p><b>Errors</b> are {@link IngestException}s of one line naming the manifest, the line (JSON Lines, CSV) or row
 * (Parquet, from 0) and the column: a missing or unreadable file, a value that is not of its column's type, an empty
 * path, a repeated sample name, an undeclared column, a malformed CSV quote or JSON line. The source fails on open
 * or while streaming, at the row at fault; it never leaves a row out.
 *
 * <pre>{@code
 * // clips.jsonl: {"audio": "clips/0001.wav", "speaker": 7, "duration (s)": 3.2, "train": true}
 * ManifestSource clips = ManifestSource.open(Path.of("clips.jsonl"), ManifestOptions.defaults()
 *         .withPathColumn("audio").withColumnNaming(ManifestOptions.ColumnNaming.SANITIZE));
 * clips.schema();   // filename string, speaker bigint, duration_s double, train boolean, filesize_bytes bigint
 * try (Stream<Sample> samples = clips.samples()) {
 *     samples.forEach(writer::add);
 * }
 * }</pre>
 *
 * <p>Each stream reads the manifest again, one row at a time; close it to close the manifest. Thread-safe: every
 * stream is independent.
 */
public final class ManifestSource implements SampleSource {

    private final Path manifest;
    private final Path base;
    private final ManifestFormat format;
    private final ManifestOptions options;
    private final ManifestBinding binding;
    private final MetadataSchema schema;
    private final RowCompletion completion;
    private final PayloadFiles files;
    private final List<String> fields;
    private final int filenameColumn;
    private final int filesizeColumn;

    private ManifestSource(Path manifest, ManifestFormat format, ManifestOptions options, ManifestBinding binding,
                           RowCompletion completion, PayloadFiles files) {
        this.manifest = manifest;
        Path absolute = manifest.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        this.base = parent != null ? parent : absolute;
        this.format = format;
        this.options = options;
        this.binding = binding;
        this.schema = binding.schema();
        this.completion = completion;
        this.files = files;
        this.fields = schema.payloadFields();
        this.filenameColumn = schema.indexOf(MetadataSchema.FILENAME).orElseThrow();
        this.filesizeColumn = schema.indexOf(MetadataSchema.FILESIZE_BYTES).orElseThrow();
    }

    /**
     * Opens the manifest: reads its header (CSV) or footer (Parquet) and, for an inferred schema, every row of a CSV
     * or JSON Lines manifest.
     *
     * @throws IngestException          naming the manifest (and line) if it cannot be read, its columns do not fit
     *                                  the options, or (inferring) a row is malformed
     * @throws IllegalArgumentException if a declared schema's payload fields are not those of the path columns
     */
    public static ManifestSource open(Path manifest, ManifestOptions options) {
        return open(manifest, options, RowCompletion.NONE, PayloadFiles.LOCAL);
    }

    /** {@link #open(Path, ManifestOptions)} with {@link ManifestOptions#defaults()}. */
    public static ManifestSource open(Path manifest) {
        return open(manifest, ManifestOptions.defaults());
    }

    static ManifestSource open(Path manifest, ManifestOptions options, RowCompletion completion, PayloadFiles files) {
        requireNonNull(manifest, "manifest is null");
        requireNonNull(options, "options is null");
        requireNonNull(completion, "completion is null");
        requireNonNull(files, "files is null");
        ManifestFormat format = options.format().orElseGet(() -> ManifestFormat.of(manifest));
        String has = format == ManifestFormat.CSV ? "the header has" : "the manifest has";
        ManifestBinding binding;
        try (ManifestReader reader = ManifestReader.open(manifest, format, null)) {
            if (options.schema().isPresent()) {
                binding = ManifestBinding.declared(options, options.schema().get(), reader.columns(),
                        reader.columnsOrigin(), has, completion.fills());
            } else {
                List<SourceColumn> columns = format == ManifestFormat.PARQUET ? reader.columns().orElseThrow()
                        : infer(manifest, reader);
                binding = ManifestBinding.inferred(options, columns, reader.columnsOrigin(), has,
                        format != ManifestFormat.JSON_LINES);
            }
        }
        if (format == ManifestFormat.PARQUET) {
            // Opening a pass refuses, before any row, the columns it would read that it cannot.
            ManifestReader.open(manifest, format, binding.wanted().orElseThrow()).close();
        }
        return new ManifestSource(manifest, format, options, binding, completion, files);
    }

    public Path manifest() {
        return manifest;
    }

    public ManifestFormat format() {
        return format;
    }

    public ManifestOptions options() {
        return options;
    }

    @Override
    public MetadataSchema schema() {
        return schema;
    }

    /** Every row's metadata; touches a file only to size it when the manifest gives no {@code filesize_bytes}. */
    @Override
    public Stream<MetadataRow> metadata() {
        return stream(this::metadataRow);
    }

    /** Every row as a sample whose fields are lazily read blobs over its files. */
    @Override
    public Stream<Sample> samples() {
        return stream(this::sample);
    }

    /**
     * The files the manifest lists, in order (a row's in field order), as {@link #samples()} reads them, for a check
     * of whether they changed. Close the stream to close the manifest.
     */
    public Stream<Path> files() {
        Pass pass = new Pass();
        Iterator<Path> paths = new Iterator<>() {
            private final Deque<Path> queue = new ArrayDeque<>();

            @Override
            public boolean hasNext() {
                while (queue.isEmpty()) {
                    Row row = pass.next();
                    if (row == null) {
                        return false;
                    }
                    Arrays.stream(row.files()).filter(f -> f != null).forEach(queue::add);
                }
                return true;
            }

            @Override
            public Path next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return queue.poll();
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(paths,
                Spliterator.ORDERED | Spliterator.NONNULL), false).onClose(pass::close);
    }

    @Override
    public String toString() {
        return "ManifestSource[" + manifest + ", " + format + ", " + schema.columns().stream().map(Column::toString)
                .collect(Collectors.joining(", ")) + "; fields " + fields + "]";
    }

    /** The error for a payload file that cannot be sized, opened or read. */
    static IngestException fileError(String origin, String column, Path file, IOException e) {
        String where = origin + ", column " + column + ": ";
        if (e instanceof NoSuchFileException) {
            return new IngestException(where + "file " + file + " does not exist", e);
        }
        if (e instanceof PayloadFiles.NotARegularFileException) {
            return new IngestException(where + e.getMessage(), e);
        }
        return new IngestException(where + "cannot read " + file + ": " + e, e);
    }

    /**
     * The cells' types, from a pass over every record, by column: the header's columns (repeats included, for the
     * binding to refuse), or the keys in the order they first appear.
     */
    private static List<SourceColumn> infer(Path manifest, ManifestReader reader) {
        Map<String, ColumnType> types = new LinkedHashMap<>();
        for (Record record = reader.next(); record != null; record = reader.next()) {
            for (Map.Entry<String, Object> cell : record.cells().entrySet()) {
                ColumnType type = ManifestValues.typeOf(cell.getValue(), reader.typedText());
                types.put(cell.getKey(), types.containsKey(cell.getKey())
                        ? ManifestValues.merge(types.get(cell.getKey()), type) : type);
            }
        }
        List<String> names = reader.columns().map(header -> header.stream().map(SourceColumn::name).toList())
                .orElseGet(() -> List.copyOf(types.keySet()));
        if (names.isEmpty()) {
            throw new IngestException("Manifest " + manifest + " has no rows to infer a schema from; declare one "
                    + "(ManifestOptions.withSchema)");
        }
        return names.stream().map(name -> new SourceColumn(name, Optional.ofNullable(types.get(name)),
                Optional.empty())).toList();
    }

    /**
     * One row of the manifest, its values converted and its sample named.
     *
     * @param files     its payload files by field, null where it has none
     * @param locations those files' paths as the manifest writes them
     * @param first     the field of its first file
     */
    private record Row(String origin, Object[] values, Path[] files, String[] locations, int first, String name) {
    }

    /** One pass over the manifest. */
    private final class Pass implements AutoCloseable {
        private final ManifestReader reader = ManifestReader.open(manifest, format, binding.wanted().orElse(Set.of()));
        private final Map<String, Target> late = new HashMap<>();

        /** The next row, or null at the end. */
        Row next() {
            Record record = reader.next();
            return record == null ? null : row(record);
        }

        @Override
        public void close() {
            reader.close();
        }

        private Row row(Record record) {
            String origin = record.origin();
            Object[] values = new Object[schema.size()];
            String[] givenBy = new String[schema.size() + fields.size()];
            String[] locations = new String[fields.size()];
            int position = 0;
            for (Map.Entry<String, Object> cell : record.cells().entrySet()) {
                String name = cell.getKey();
                Target target = binding.target(name, ++position, late, origin);
                if (target.field() >= 0) {
                    checkOnce(givenBy, schema.size() + target.field(), name, "the path of payload field "
                            + fields.get(target.field()), origin);
                    locations[target.field()] = location(cell.getValue(), name, origin);
                }
                if (target.column() >= 0) {
                    Column column = schema.columns().get(target.column());
                    checkOnce(givenBy, target.column(), name, column.name(), origin);
                    try {
                        values[target.column()] = ManifestValues.convert(cell.getValue(), column.type());
                    } catch (ManifestValues.BadValue e) {
                        throw new IngestException(origin + ", column " + name + ": " + e.getMessage() + "; the "
                                + "column is " + column.type().name().toLowerCase(Locale.ROOT));
                    }
                }
            }
            if (binding.filenameIsPath()) {
                locations[0] = (String) values[filenameColumn];
            }
            Path[] paths = new Path[fields.size()];
            int first = -1;
            for (int f = 0; f < fields.size(); f++) {
                if (locations[f] == null || locations[f].isEmpty()) {
                    locations[f] = null;
                    continue;
                }
                try {
                    paths[f] = base.resolve(locations[f]);
                } catch (InvalidPathException e) {
                    throw new IngestException(origin + ", column " + binding.pathColumn(f) + ": '" + locations[f]
                            + "' is not a valid path: " + e.getMessage(), e);
                }
                first = first < 0 ? f : first;
            }
            if (first < 0) {
                throw new IngestException(fields.size() == 1
                        ? origin + ", column " + binding.pathColumn(0) + ": empty; every row needs the path of its file"
                        : origin + ": columns " + String.join(", ", options.payloadColumns().values()) + " are all "
                                + "empty; every row needs the path of at least one file");
            }
            String name = name((String) values[filenameColumn], paths[first], origin);
            values[filenameColumn] = name;
            Long filesize = (Long) values[filesizeColumn];
            if (filesize != null && filesize < 0) {
                throw new IngestException(origin + ", column " + MetadataSchema.FILESIZE_BYTES + ": " + filesize
                        + " is below 0");
            }
            return new Row(origin, values, paths, locations, first, name);
        }

        /** Fails if a record gives one column twice (JSON keys that differ only in case, say). */
        private void checkOnce(String[] givenBy, int slot, String name, String what, String origin) {
            if (givenBy[slot] != null) {
                throw new IngestException(origin + ": columns '" + givenBy[slot] + "' and '" + name + "' both give "
                        + what);
            }
            givenBy[slot] = name;
        }

        private String location(Object cell, String column, String origin) {
            if (cell == null || cell instanceof String) {
                return cell == null ? null : ((String) cell).strip();
            }
            throw new IngestException(origin + ", column " + column + ": " + cell + " is not a path; a path column "
                    + "holds text");
        }
    }

    /** The sample's name: the manifest's {@code filename}, or one made from its first file's path. */
    private String name(String given, Path file, String origin) {
        if (given == null || given.isEmpty()) {
            return nameFromPath(file, origin);
        }
        Optional<String> problem = SampleNames.problem(given);
        if (problem.isEmpty()) {
            return given;
        }
        if (binding.filenameIsPath()) {
            return nameFromPath(file, origin);   // the filename is a path here, so '../a.png' is fine
        }
        throw new IngestException(origin + ": filename '" + given + "' " + problem.get() + "; a sample name is a "
                + "relative path (leave it empty to name the sample after its path)");
    }

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

    private Optional<MetadataRow> metadataRow(Row row) {
        Object[] values = row.values();
        if (values[filesizeColumn] == null) {
            long size = 0;
            for (int f = 0; f < fields.size(); f++) {
                if (row.files()[f] != null) {
                    try {
                        size += files.size(row.files()[f]);
                    } catch (IOException e) {
                        throw fileError(row.origin(), binding.pathColumn(f), row.files()[f], e);
                    }
                }
            }
            values[filesizeColumn] = size;
        }
        return complete(row) ? Optional.of(new MetadataRow(schema, Arrays.asList(values))) : Optional.empty();
    }

    private Optional<Sample> sample(Row row) {
        Map<String, Blob> blobs = new LinkedHashMap<>();
        long size = 0;
        for (int f = 0; f < fields.size(); f++) {
            Path file = row.files()[f];
            if (file != null) {
                Blob blob;
                try {
                    blob = files.open(file);
                } catch (IOException e) {
                    throw fileError(row.origin(), binding.pathColumn(f), file, e);
                }
                blobs.put(fields.get(f), blob);
                size += blob.size();
            }
        }
        Object[] values = row.values();
        Long declared = (Long) values[filesizeColumn];
        if (declared != null && declared != size) {
            throw new IngestException(row.origin() + ": declares filesize_bytes " + declared + " but "
                    + (blobs.size() == 1 ? row.files()[row.first()] + " has " : "its files have ") + size + " bytes");
        }
        values[filesizeColumn] = size;
        return complete(row) ? Optional.of(new Sample(new MetadataRow(schema, Arrays.asList(values)), blobs))
                : Optional.empty();
    }

    private boolean complete(Row row) {
        return completion.complete(row.values(), schema, new RowCompletion.Context(row.origin(),
                row.files()[row.first()], row.locations()[row.first()], binding.pathColumn(row.first())));
    }

    /**
     * A sequential stream of the present results of {@code finish} over the rows of a new pass: a hand-written
     * iterator, as {@code flatMap} pipelines buffer whole inner streams. Each result's name must be new: a repeat
     * fails naming both rows, the earlier found by walking the manifest again up to the repeat (so only an exact
     * repeat fails). Costs 8 bytes a row ({@link SampleNameSet}).
     */
    private <T> Stream<T> stream(Function<Row, Optional<T>> finish) {
        Pass pass = new Pass();
        Iterator<T> results = new Iterator<>() {
            private final SampleNameSet names = new SampleNameSet();
            private long read;
            private T next;

            @Override
            public boolean hasNext() {
                while (next == null) {
                    Row row = pass.next();
                    if (row == null) {
                        return false;
                    }
                    read++;
                    T result = finish.apply(row).orElse(null);
                    if (result != null) {
                        checkName(row);
                        next = result;
                    }
                }
                return true;
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                T result = next;
                next = null;
                return result;
            }

            private void checkName(Row row) {
                if (!names.add(row.name())) {
                    Optional<Row> earlier = earlier(row.name(), read - 1);
                    if (earlier.isPresent()) {
                        throw repeated(row, earlier.get());
                    }
                    // Only a 64-bit hash of another name matched: the name is new.
                }
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(results,
                Spliterator.ORDERED | Spliterator.NONNULL), false).onClose(pass::close);
    }

    /** The first of the {@code before} first rows of a new pass that is a sample named {@code name}. */
    private Optional<Row> earlier(String name, long before) {
        try (Pass again = new Pass()) {
            for (long i = 0; i < before; i++) {
                Row candidate = again.next();
                if (candidate == null) {
                    break;
                }
                if (candidate.name().equals(name) && metadataRow(candidate).isPresent()) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private static IngestException repeated(Row row, Row earlier) {
        Path file = row.files()[row.first()];
        Path earlierFile = earlier.files()[earlier.first()];
        String what = file.normalize().equals(earlierFile.normalize())
                ? "lists " + file + " again, as " + earlier.origin() + " does"
                : "sample name '" + row.name() + "' (" + file + ") is already the name of " + earlier.origin() + " ("
                        + earlierFile + ")";
        return new IngestException(row.origin() + ": " + what + "; the samples of a dataset need distinct names, as "
                + "the layouts store and find them by name: give the rows distinct values in a 'filename' column");
    }
}
