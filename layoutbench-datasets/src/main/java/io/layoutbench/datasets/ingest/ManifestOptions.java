package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.PayloadFields;
import io.layoutbench.api.dataset.Sample;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How a {@link ManifestSource} reads a manifest: its format, which columns hold the paths of the payload files, and
 * whether the metadata schema is declared or inferred.
 *
 * <pre>{@code
 * ManifestOptions speech = ManifestOptions.defaults()
 *         .withPayloadColumns("wav=audio_path,txt=text_path")
 *         .withSchema("speaker:bigint,duration:double,transcript:string,train:boolean")
 *         .withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE);
 * ManifestOptions inferred = ManifestOptions.defaults().withColumnNaming(ManifestOptions.ColumnNaming.SANITIZE);
 * }</pre>
 *
 * @param format            the manifest's format; empty to tell it from the file name ({@link ManifestFormat#of})
 * @param payloadColumns    payload field name to the manifest column holding the path of that field's file, in
 *                          field order; by default {@value Sample#DATA} from {@value #DEFAULT_PATH_COLUMN}. Manifest
 *                          columns are matched ignoring case.
 * @param schema            the declared metadata schema; empty to infer one from the manifest's values. Its payload
 *                          fields must be those of {@code payloadColumns} or the default {@value Sample#DATA}
 * @param undeclaredColumns what to do with a manifest column a declared schema does not have
 * @param columnNaming      what to do with a manifest column name that is not a valid {@link Column} name
 * @param keepPathColumns   whether an inferred schema keeps the path columns as STRING metadata columns too (a
 *                          declared schema keeps those it declares)
 * @param renames           manifest column name (matched ignoring case) to the column it gives, applied before
 *                          anything else looks at the name: {@code Map.of("duration (s)", "duration")}
 * @param filenames         how a sample the manifest gives no {@code filename} is named after its path
 */
public record ManifestOptions(
        Optional<ManifestFormat> format,
        Map<String, String> payloadColumns,
        Optional<MetadataSchema> schema,
        UndeclaredColumns undeclaredColumns,
        ColumnNaming columnNaming,
        boolean keepPathColumns,
        Map<String, String> renames,
        IngestOptions.FilenameStyle filenames) {

    /** The manifest column that holds the file's path unless the options say otherwise. */
    public static final String DEFAULT_PATH_COLUMN = "path";

    /** What to do with a manifest column that a declared schema lacks. */
    public enum UndeclaredColumns {
        /** Fail, naming the column (and for JSON Lines the line): a typo in a column name is not lost. */
        FAIL,
        /** Leave the column out of the metadata, as extra columns of a hand-made manifest often should be. */
        IGNORE
    }

    /** What to do with a manifest column whose name is not a valid column name (letters, digits, underscores). */
    public enum ColumnNaming {
        /** Fail, naming the column and the name {@link #SANITIZE} would give it. */
        STRICT,
        /**
         * Map the name deterministically: every run of characters other than ASCII letters, digits and {@code _}
         * becomes one {@code _} where it separates two parts and disappears at either end, a name starting with a
         * digit gets a leading {@code _}, and a name left empty becomes {@code column_N} (N its 1-based position). So
         * {@code duration (s)} is {@code duration_s} and {@code 2nd speaker} is {@code _2nd_speaker}. Two columns
         * mapped to one name (ignoring case) fail, naming both.
         */
        SANITIZE
    }

    public ManifestOptions {
        requireNonNull(format, "format is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(undeclaredColumns, "undeclaredColumns is null");
        requireNonNull(columnNaming, "columnNaming is null");
        requireNonNull(filenames, "filenames is null");
        payloadColumns = orderedCopy(requireNonNull(payloadColumns, "payloadColumns is null"));
        if (payloadColumns.isEmpty()) {
            throw new IllegalArgumentException("A manifest needs at least one path column");
        }
        List<String> seen = new ArrayList<>();
        for (Map.Entry<String, String> field : payloadColumns.entrySet()) {
            PayloadFields.check(field.getKey());
            String column = field.getValue();
            if (column.isBlank()) {
                throw new IllegalArgumentException("The path column of payload field " + field.getKey()
                        + " has an empty name");
            }
            String key = column.toLowerCase(Locale.ROOT);
            if (seen.contains(key)) {
                throw new IllegalArgumentException("Path column '" + column + "' is given for two payload fields: "
                        + payloadColumns);
            }
            seen.add(key);
        }
        renames = orderedCopy(requireNonNull(renames, "renames is null"));
        for (Map.Entry<String, String> rename : renames.entrySet()) {
            try {
                new Column(rename.getValue(), ColumnType.STRING);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Cannot rename manifest column '" + rename.getKey() + "': "
                        + e.getMessage(), e);
            }
        }
        schema.ifPresent(declared -> {
            requireType(declared, MetadataSchema.FILENAME, ColumnType.STRING);
            requireType(declared, MetadataSchema.FILESIZE_BYTES, ColumnType.BIGINT);
        });
    }

    /** CSV, JSON Lines or Parquet by extension; files in column {@code path}; an inferred schema. */
    public static ManifestOptions defaults() {
        return new ManifestOptions(Optional.empty(), Map.of(Sample.DATA, DEFAULT_PATH_COLUMN), Optional.empty(),
                UndeclaredColumns.FAIL, ColumnNaming.STRICT, false, Map.of(),
                IngestOptions.FilenameStyle.RELATIVE_PATH);
    }

    /** These options with the manifest read as {@code format} whatever its name. */
    public ManifestOptions withFormat(ManifestFormat format) {
        return new ManifestOptions(Optional.of(requireNonNull(format, "format is null")), payloadColumns, schema,
                undeclaredColumns, columnNaming, keepPathColumns, renames, filenames);
    }

    /** These options with the one payload field {@value Sample#DATA} read from the file in column {@code column}. */
    public ManifestOptions withPathColumn(String column) {
        return withPayloadColumns(Map.of(Sample.DATA, requireNonNull(column, "column is null")));
    }

    /** These options with payload fields read from the files of the given columns (field to column, in order). */
    public ManifestOptions withPayloadColumns(Map<String, String> fieldToColumn) {
        return new ManifestOptions(format, fieldToColumn, schema, undeclaredColumns, columnNaming, keepPathColumns,
                renames, filenames);
    }

    /** These options with payload columns parsed by {@link #parsePayloadColumns}. */
    public ManifestOptions withPayloadColumns(String spec) {
        return withPayloadColumns(parsePayloadColumns(spec));
    }

    /** These options with a declared schema. */
    public ManifestOptions withSchema(MetadataSchema declared) {
        return new ManifestOptions(format, payloadColumns, Optional.of(requireNonNull(declared, "declared is null")),
                undeclaredColumns, columnNaming, keepPathColumns, renames, filenames);
    }

    /** These options with a schema declared by a spec, parsed by {@link #parseSchema}. */
    public ManifestOptions withSchema(String spec) {
        return withSchema(parseSchema(spec));
    }

    /** These options with the schema inferred from the manifest. */
    public ManifestOptions withInferredSchema() {
        return new ManifestOptions(format, payloadColumns, Optional.empty(), undeclaredColumns, columnNaming,
                keepPathColumns, renames, filenames);
    }

    public ManifestOptions withUndeclaredColumns(UndeclaredColumns policy) {
        return new ManifestOptions(format, payloadColumns, schema, policy, columnNaming, keepPathColumns, renames,
                filenames);
    }

    public ManifestOptions withColumnNaming(ColumnNaming naming) {
        return new ManifestOptions(format, payloadColumns, schema, undeclaredColumns, naming, keepPathColumns, renames,
                filenames);
    }

    public ManifestOptions withPathColumnsKept(boolean keep) {
        return new ManifestOptions(format, payloadColumns, schema, undeclaredColumns, columnNaming, keep, renames,
                filenames);
    }

    public ManifestOptions withRenames(Map<String, String> manifestToColumn) {
        return new ManifestOptions(format, payloadColumns, schema, undeclaredColumns, columnNaming, keepPathColumns,
                manifestToColumn, filenames);
    }

    public ManifestOptions withFilenames(IngestOptions.FilenameStyle style) {
        return new ManifestOptions(format, payloadColumns, schema, undeclaredColumns, columnNaming, keepPathColumns,
                renames, style);
    }

    /**
     * A schema from a spec of comma-separated {@code name:type} pairs, types {@code bigint}, {@code double},
     * {@code boolean} and {@code string} (ignoring case), white space around names and types ignored:
     * {@code speaker:bigint,duration:double,transcript:string,train:boolean}.
     *
     * @throws IllegalArgumentException naming the spec and the part at fault
     */
    public static MetadataSchema parseSchema(String spec) {
        requireNonNull(spec, "spec is null");
        List<Column> columns = new ArrayList<>();
        for (String part : spec.split(",", -1)) {
            int colon = part.indexOf(':');
            if (colon < 0 || part.indexOf(':', colon + 1) >= 0) {
                throw new IllegalArgumentException("Schema spec '" + spec + "': '" + part.strip() + "' is not "
                        + "name:type (for example speaker:bigint)");
            }
            String name = part.substring(0, colon).strip();
            String type = part.substring(colon + 1).strip();
            ColumnType columnType = switch (type.toLowerCase(Locale.ROOT)) {
                case "bigint" -> ColumnType.BIGINT;
                case "double" -> ColumnType.DOUBLE;
                case "boolean" -> ColumnType.BOOLEAN;
                case "string" -> ColumnType.STRING;
                default -> throw new IllegalArgumentException("Schema spec '" + spec + "': column " + name
                        + " has unknown type '" + type + "'; use bigint, double, boolean or string");
            };
            try {
                columns.add(new Column(name, columnType));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Schema spec '" + spec + "': " + e.getMessage(), e);
            }
        }
        try {
            return new MetadataSchema(columns);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Schema spec '" + spec + "': " + e.getMessage(), e);
        }
    }

    /**
     * Payload columns from a spec: a column name alone ({@code audio_path}: the one field {@value Sample#DATA}) or
     * comma-separated {@code field=column} pairs ({@code wav=audio_path,txt=text_path}), white space around names
     * ignored.
     *
     * @throws IllegalArgumentException naming the spec and the part at fault
     */
    public static Map<String, String> parsePayloadColumns(String spec) {
        requireNonNull(spec, "spec is null");
        if (!spec.contains("=") && !spec.contains(",")) {
            if (spec.isBlank()) {
                throw new IllegalArgumentException("Payload column spec is empty; give a column name or "
                        + "field=column pairs (for example wav=audio_path,txt=text_path)");
            }
            return Map.of(Sample.DATA, spec.strip());
        }
        Map<String, String> columns = new LinkedHashMap<>();
        for (String part : spec.split(",", -1)) {
            int equals = part.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException("Payload column spec '" + spec + "': '" + part.strip() + "' is not "
                        + "field=column (for example wav=audio_path)");
            }
            String field = part.substring(0, equals).strip();
            String column = part.substring(equals + 1).strip();
            if (columns.put(field, column) != null) {
                throw new IllegalArgumentException("Payload column spec '" + spec + "': field " + field
                        + " is given twice");
            }
        }
        try {
            return defaults().withPayloadColumns(columns).payloadColumns();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Payload column spec '" + spec + "': " + e.getMessage(), e);
        }
    }

    /** The name {@link ColumnNaming#SANITIZE} gives a manifest column named {@code name} at 1-based position. */
    public static String sanitize(String name, int position) {
        requireNonNull(name, "name is null");
        StringBuilder out = new StringBuilder(name.length());
        boolean gap = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean valid = c < 0x80 && (Character.isLetterOrDigit(c) || c == '_');
            if (valid) {
                if (gap && out.length() > 0) {
                    out.append('_');
                }
                gap = false;
                out.append(c);
            } else {
                gap = true;
            }
        }
        String sanitized = out.toString();
        if (sanitized.isEmpty()) {
            return "column_" + position;
        }
        return Character.isDigit(sanitized.charAt(0)) ? "_" + sanitized : sanitized;
    }

    private static void requireType(MetadataSchema declared, String name, ColumnType type) {
        declared.find(name).ifPresent(column -> {
            if (column.type() != type) {
                throw new IllegalArgumentException("The declared schema's column " + column.name() + " is "
                        + column.type() + "; a manifest's " + name + " must be " + type);
            }
        });
    }

    private static Map<String, String> orderedCopy(Map<String, String> map) {
        Map<String, String> copy = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : map.entrySet()) {
            copy.put(requireNonNull(entry.getKey(), "a key is null"),
                    requireNonNull(entry.getValue(), () -> "the value of " + entry.getKey() + " is null"));
        }
        return Collections.unmodifiableMap(copy);
    }
}
