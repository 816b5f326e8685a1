package io.layoutbench.datasets.ingest;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.datasets.ingest.ManifestOptions.ColumnNaming;
import io.layoutbench.datasets.ingest.ManifestOptions.UndeclaredColumns;
import io.layoutbench.datasets.ingest.ManifestReader.SourceColumn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What each column of a manifest gives: a metadata column of the source's schema, the path of a payload field's
 * file, both, or nothing. Decided once when the manifest's columns are known up front (a CSV header, a Parquet
 * schema, the keys a JSON Lines inference pass saw), so that naming problems, clashes and missing columns fail on
 * open; decided key by key otherwise (a JSON Lines manifest with a declared schema), failing at the line where a new
 * key is a problem. Immutable and thread-safe; a pass keeps its own cache of keys decided late.
 */
final class ManifestBinding {

    /**
     * What a manifest column gives.
     *
     * @param column the metadata column's index in the schema, or -1
     * @param field  the payload field's index whose path it holds, or -1
     */
    record Target(int column, int field) {
        static final Target IGNORED = new Target(-1, -1);
    }

    private final ManifestOptions options;
    private final MetadataSchema schema;
    private final List<String> pathColumns;
    private final Set<String> filled;
    /** Targets of the columns known on open; null when keys are decided as they come. */
    private final Map<String, Target> known;
    private final boolean filenameIsPath;

    private ManifestBinding(ManifestOptions options, MetadataSchema schema, Set<String> filled,
                            Map<String, Target> known, boolean filenameIsPath) {
        this.options = options;
        this.schema = schema;
        this.pathColumns = List.copyOf(options.payloadColumns().values());
        this.filled = filled;
        this.known = known;
        this.filenameIsPath = filenameIsPath;
    }

    /**
     * The binding of a manifest to a declared schema.
     *
     * @param columns the manifest's columns if known up front
     * @param origin  where they are, for errors ({@code train.csv line 1})
     * @param has     how errors say the manifest has a column ({@code the header has})
     * @param filled  columns the source fills in itself when the manifest lacks them
     */
    static ManifestBinding declared(ManifestOptions options, MetadataSchema declared,
                                    Optional<List<SourceColumn>> columns, String origin, String has,
                                    Set<String> filled) {
        MetadataSchema schema = withImplicitColumns(options, declared.columns(), declared.payloadFields());
        ManifestBinding lazy = new ManifestBinding(options, schema, filled, null, false);
        if (columns.isEmpty()) {
            return lazy;
        }
        Map<String, Target> known = lazy.bindAll(columns.get(), origin);
        ManifestBinding binding = new ManifestBinding(options, schema, filled, known,
                lazy.needsFilenameAsPath(columns.get(), known, origin, has));
        binding.checkDeclaredPresent(columns.get(), origin, has);
        binding.checkTypes(columns.get(), origin);
        return binding;
    }

    /**
     * The binding of a manifest to a schema inferred from its columns: their types where the manifest has them,
     * or as an inference pass found them (STRING where it found only NULLs).
     */
    static ManifestBinding inferred(ManifestOptions options, List<SourceColumn> columns, String origin, String has,
                                    boolean positional) {
        List<Column> metadata = new ArrayList<>();
        Map<String, Target> known = new LinkedHashMap<>();
        Map<String, Integer> firstOfName = new HashMap<>();
        Map<Integer, Integer> fieldGivenBy = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            SourceColumn source = columns.get(i);
            int field = pathField(options, source.name());
            checkPathType(source, field, origin);
            Integer earlierPath = field < 0 ? null : fieldGivenBy.putIfAbsent(field, i);
            if (earlierPath != null) {
                throw clash(options, origin, columns.get(earlierPath).name(), earlierPath + 1, source.name(), i + 1,
                        "the path of payload field " + fieldName(options, field), positional);
            }
            if (field >= 0 && !options.keepPathColumns()) {
                known.put(source.name(), new Target(-1, field));
                continue;
            }
            if (source.refusal().isPresent()) {
                throw new IngestException(origin + ": column '" + source.name() + "' " + source.refusal().get()
                        + "; to leave it out, declare a schema and ignore undeclared columns");
            }
            String name = inferredName(options, source.name(), i + 1, origin, positional);
            Integer earlier = firstOfName.putIfAbsent(name.toLowerCase(Locale.ROOT), i);
            if (earlier != null) {
                String given = metadata.stream().filter(c -> c.answersTo(name)).findFirst().orElseThrow().name();
                throw clash(options, origin, columns.get(earlier).name(), earlier + 1, source.name(), i + 1, given,
                        positional);
            }
            ColumnType type = name.equalsIgnoreCase(MetadataSchema.FILENAME) || field >= 0 ? ColumnType.STRING
                    : name.equalsIgnoreCase(MetadataSchema.FILESIZE_BYTES) ? ColumnType.BIGINT
                    : source.type().orElse(ColumnType.STRING);
            known.put(source.name(), new Target(metadata.size(), field));
            metadata.add(new Column(name, type));
        }
        // The implicit filename column goes first: the columns the manifest gives move one place.
        int shift = metadata.stream().anyMatch(c -> c.answersTo(MetadataSchema.FILENAME)) ? 0 : 1;
        Map<String, Target> shifted = new LinkedHashMap<>();
        known.forEach((name, target) -> shifted.put(name, target.column() < 0 ? target
                : new Target(target.column() + shift, target.field())));
        MetadataSchema schema = withImplicitColumns(options, metadata, List.of(Sample.DATA));
        ManifestBinding unchecked = new ManifestBinding(options, schema, Set.of(), null, false);
        return new ManifestBinding(options, schema, Set.of(), Collections.unmodifiableMap(shifted),
                unchecked.needsFilenameAsPath(columns, shifted, origin, has));
    }

    /** The source's schema. */
    MetadataSchema schema() {
        return schema;
    }

    /** Whether the {@code filename} column also says where the one payload file is (there is no path column). */
    boolean filenameIsPath() {
        return filenameIsPath;
    }

    /** The manifest column name that holds payload field {@code field}'s path, as the options name it. */
    String pathColumn(int field) {
        return filenameIsPath ? MetadataSchema.FILENAME : pathColumns.get(field);
    }

    /** The manifest columns a pass must read (exact names), if known on open: every one that gives something. */
    Optional<Set<String>> wanted() {
        if (known == null) {
            return Optional.empty();
        }
        return Optional.of(known.entrySet().stream().filter(e -> !e.getValue().equals(Target.IGNORED))
                .map(Map.Entry::getKey).collect(Collectors.toUnmodifiableSet()));
    }

    /**
     * What manifest column {@code name} gives, {@code position} its 1-based position in its record (for a sanitized
     * empty name).
     *
     * @param late   the pass's own cache of columns decided late
     * @param origin the record, for errors
     * @throws IngestException naming the record and the column if the column is a problem
     */
    Target target(String name, int position, Map<String, Target> late, String origin) {
        if (known != null) {
            Target target = known.get(name);
            if (target == null) {
                throw new IngestException(origin + ": column '" + name + "' was not in the manifest when it was "
                        + "opened; did the manifest change?");
            }
            return target;
        }
        Target target = late.get(name);
        if (target == null) {
            target = declaredTarget(name, position, origin);
            late.put(name, target);
        }
        return target;
    }

    private Map<String, Target> bindAll(List<SourceColumn> columns, String origin) {
        Map<String, Target> known = new LinkedHashMap<>();
        Map<Integer, Integer> columnGivenBy = new HashMap<>();
        Map<Integer, Integer> fieldGivenBy = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            String name = columns.get(i).name();
            Target target = declaredTarget(name, i + 1, origin);
            for (int[] given : new int[][] {{target.column(), 0}, {target.field(), 1}}) {
                if (given[0] < 0) {
                    continue;
                }
                Integer earlier = (given[1] == 0 ? columnGivenBy : fieldGivenBy).putIfAbsent(given[0], i);
                if (earlier != null) {
                    String what = given[1] == 0 ? schema.columns().get(given[0]).name()
                            : "the path of payload field " + fieldName(options, given[0]);
                    throw clash(options, origin, columns.get(earlier).name(), earlier + 1, name, i + 1, what, true);
                }
            }
            known.put(name, target);
        }
        return Collections.unmodifiableMap(known);
    }

    /** A declared schema's target of a manifest column, or a failure for an undeclared one under FAIL. */
    private Target declaredTarget(String name, int position, String origin) {
        int field = pathField(options, name);
        String renamed = renamed(options, name);
        OptionalInt column = schema.indexOf(renamed);
        boolean valid = isValidName(renamed);
        if (column.isEmpty() && !valid && options.columnNaming() == ColumnNaming.SANITIZE) {
            column = schema.indexOf(ManifestOptions.sanitize(renamed, position));
        }
        if (column.isPresent() || field >= 0) {
            return new Target(column.orElse(-1), field);
        }
        if (options.undeclaredColumns() == UndeclaredColumns.IGNORE) {
            return Target.IGNORED;
        }
        String hint = "";
        if (!valid && schema.indexOf(ManifestOptions.sanitize(renamed, position)).isPresent()) {
            hint = " (ColumnNaming.SANITIZE would map it to the declared "
                    + ManifestOptions.sanitize(renamed, position) + ")";
        }
        throw new IngestException(origin + ": column '" + name + "' is not in the declared schema ("
                + schema.describeColumns() + ")" + hint + "; declare it, or leave such columns out with "
                + "UndeclaredColumns.IGNORE");
    }

    /** An inferred schema's name for manifest column {@code name}. */
    private static String inferredName(ManifestOptions options, String name, int position, String origin,
                                       boolean positional) {
        String renamed = renamed(options, name);
        if (isValidName(renamed)) {
            return renamed;
        }
        String sanitized = ManifestOptions.sanitize(renamed, position);
        if (options.columnNaming() == ColumnNaming.SANITIZE) {
            return sanitized;
        }
        throw new IngestException(origin + ": column " + (positional ? position + " " : "") + "('" + name
                + "') is not a valid column name "
                + "(letters, digits and underscores, starting with a letter or underscore); rename it, or map "
                + "such names with ColumnNaming.SANITIZE, which names it " + sanitized);
    }

    /** The index of the payload field whose path manifest column {@code name} holds, or -1. */
    private static int pathField(ManifestOptions options, String name) {
        String renamed = renamed(options, name);
        int i = 0;
        for (String column : options.payloadColumns().values()) {
            if (column.equalsIgnoreCase(name) || column.equalsIgnoreCase(renamed)) {
                return i;
            }
            i++;
        }
        return -1;
    }

    private static String renamed(ManifestOptions options, String name) {
        for (Map.Entry<String, String> rename : options.renames().entrySet()) {
            if (rename.getKey().equalsIgnoreCase(name)) {
                return rename.getValue();
            }
        }
        return name;
    }

    /**
     * Whether the manifest lacks a path column and the filename column stands in for it, which it does for a
     * manifest of one payload field in the default path column that has a {@code filename} column.
     *
     * @throws IngestException naming the missing path column otherwise
     */
    private boolean needsFilenameAsPath(List<SourceColumn> columns, Map<String, Target> targets, String origin,
                                        String has) {
        List<String> found = columns.stream().map(SourceColumn::name).toList();
        for (int field = 0; field < pathColumns.size(); field++) {
            final int f = field;
            if (targets.values().stream().anyMatch(t -> t.field() == f)) {
                continue;
            }
            boolean fallback = pathColumns.size() == 1
                    && pathColumns.get(0).equals(ManifestOptions.DEFAULT_PATH_COLUMN);
            int filename = schema.indexOf(MetadataSchema.FILENAME).orElseThrow();
            if (fallback && targets.values().stream().anyMatch(t -> t.column() == filename)) {
                return true;
            }
            throw new IngestException(origin + ": " + has + " no '" + pathColumns.get(field) + "'"
                    + (fallback ? " or 'filename'" : "") + " column"
                    + (pathColumns.size() > 1 ? ", the path of payload field " + fieldName(options, field) : "")
                    + " (found: " + String.join(",", found) + ")");
        }
        return false;
    }

    /** Fails if a declared column the source does not fill in itself is none of the manifest's columns. */
    private void checkDeclaredPresent(List<SourceColumn> columns, String origin, String has) {
        for (int c = 0; c < schema.size(); c++) {
            final int index = c;
            String name = schema.columns().get(c).name();
            if (name.equals(MetadataSchema.FILENAME) || name.equals(MetadataSchema.FILESIZE_BYTES)
                    || filled.contains(name) || known.values().stream().anyMatch(t -> t.column() == index)) {
                continue;
            }
            throw new IngestException(origin + ": " + has + " no '" + name + "' column, which the schema declares "
                    + "(found: " + columns.stream().map(SourceColumn::name).collect(Collectors.joining(",")) + ")");
        }
    }

    /** Fails if a typed manifest column cannot hold the values of the declared column it gives. */
    private void checkTypes(List<SourceColumn> columns, String origin) {
        for (SourceColumn source : columns) {
            Target target = known.get(source.name());
            checkPathType(source, target.field(), origin);
            if (target.column() < 0) {
                continue;
            }
            if (source.refusal().isPresent()) {
                throw new IngestException(origin + ": column '" + source.name() + "' " + source.refusal().get());
            }
            Column column = schema.columns().get(target.column());
            ColumnType from = source.type().orElse(null);
            boolean fits = from == null || from == column.type() || column.type() == ColumnType.STRING
                    || from == ColumnType.BIGINT && column.type() == ColumnType.DOUBLE;
            if (!fits) {
                throw new IngestException(origin + ": column '" + source.name() + "' is " + from
                        + ", which the declared column " + column + " cannot hold");
            }
        }
    }

    private static void checkPathType(SourceColumn source, int field, String origin) {
        if (field < 0) {
            return;
        }
        if (source.refusal().isPresent()) {
            throw new IngestException(origin + ": path column '" + source.name() + "' " + source.refusal().get());
        }
        if (source.type().isPresent() && source.type().get() != ColumnType.STRING) {
            throw new IngestException(origin + ": path column '" + source.name() + "' is " + source.type().get()
                    + "; a path column holds text");
        }
    }

    /** {@code columns} with {@code filename} first and {@code filesize_bytes} last where they lack them. */
    private static MetadataSchema withImplicitColumns(ManifestOptions options, List<Column> columns,
                                                      List<String> declaredFields) {
        List<String> fields = List.copyOf(options.payloadColumns().keySet());
        if (!declaredFields.equals(fields) && !declaredFields.equals(List.of(Sample.DATA))) {
            throw new IllegalArgumentException("The declared schema's payload fields " + declaredFields + " are not "
                    + "the fields the path columns give, " + fields + ": map each field to its path column "
                    + "(ManifestOptions.withPayloadColumns)");
        }
        List<Column> all = new ArrayList<>(columns);
        if (all.stream().noneMatch(c -> c.answersTo(MetadataSchema.FILENAME))) {
            all.add(0, new Column(MetadataSchema.FILENAME, ColumnType.STRING));
        }
        if (all.stream().noneMatch(c -> c.answersTo(MetadataSchema.FILESIZE_BYTES))) {
            all.add(new Column(MetadataSchema.FILESIZE_BYTES, ColumnType.BIGINT));
        }
        return new MetadataSchema(all, fields);
    }

    private static String fieldName(ManifestOptions options, int field) {
        return List.copyOf(options.payloadColumns().keySet()).get(field);
    }

    private static boolean isValidName(String name) {
        return !name.isEmpty() && name.matches("[A-Za-z_][A-Za-z0-9_]*");
    }

    private static IngestException clash(ManifestOptions options, String origin, String first, int firstPosition,
                                         String second, int secondPosition, String what, boolean positional) {
        boolean sanitized = options.columnNaming() == ColumnNaming.SANITIZE
                && (!isValidName(renamed(options, first)) || !isValidName(renamed(options, second)));
        return new IngestException(origin + ": columns " + (positional ? firstPosition + " " : "") + "('" + first
                + "') and " + (positional ? secondPosition + " " : "") + "('" + second + "') both give " + what
                + (sanitized ? " (as ColumnNaming.SANITIZE maps names); rename one (ManifestOptions.withRenames)"
                        : ""));
    }
}
