package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The ordered metadata columns of a dataset. Column names and aliases are unique, ignoring case.
 *
 * <p>{@link #imageNet()} is the schema of the LayoutBench paper: {@code filename}, {@code label} (alias
 * {@code human_label}), {@code filesize_bytes}, {@code width}, {@code height}. Datasets may add columns:
 *
 * <pre>{@code
 * MetadataSchema schema = MetadataSchema.imageNet().with(new Column("split", ColumnType.STRING));
 * int width = schema.indexOf("width").orElseThrow();
 * }</pre>
 *
 * @param columns the columns in storage order; at least one
 */
public record MetadataSchema(List<Column> columns) {

    /** Name of the column that identifies a sample in the default schema. */
    public static final String FILENAME = "filename";
    /** Name of the class-label column in the default schema. */
    public static final String LABEL = "label";
    /** The paper's name for {@link #LABEL} in its L1/L2 metadata tables. */
    public static final String HUMAN_LABEL = "human_label";
    /** Name of the sample-size column in the default schema. */
    public static final String FILESIZE_BYTES = "filesize_bytes";
    /** Name of the image-width column in the default schema. */
    public static final String WIDTH = "width";
    /** Name of the image-height column in the default schema. */
    public static final String HEIGHT = "height";

    private static final MetadataSchema IMAGE_NET = new MetadataSchema(List.of(
            new Column(FILENAME, ColumnType.STRING),
            new Column(LABEL, ColumnType.STRING, List.of(HUMAN_LABEL)),
            new Column(FILESIZE_BYTES, ColumnType.BIGINT),
            new Column(WIDTH, ColumnType.BIGINT),
            new Column(HEIGHT, ColumnType.BIGINT)));

    public MetadataSchema {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("A metadata schema needs at least one column");
        }
        for (int i = 0; i < columns.size(); i++) {
            Column column = columns.get(i);
            for (int j = 0; j < i; j++) {
                Column earlier = columns.get(j);
                List<String> names = new ArrayList<>(column.aliases());
                names.add(column.name());
                for (String name : names) {
                    if (earlier.answersTo(name)) {
                        throw new IllegalArgumentException("Column name '" + name + "' of column '" + column.name()
                                + "' clashes with column '" + earlier.name() + "'");
                    }
                }
            }
        }
    }

    /** The paper's ImageNet metadata schema. */
    public static MetadataSchema imageNet() {
        return IMAGE_NET;
    }

    /** This schema with {@code column} appended. */
    public MetadataSchema with(Column column) {
        List<Column> more = new ArrayList<>(columns);
        more.add(requireNonNull(column, "column is null"));
        return new MetadataSchema(more);
    }

    /** Position of the column that {@code identifier} names (by name or alias, ignoring case). */
    public OptionalInt indexOf(String identifier) {
        requireNonNull(identifier, "identifier is null");
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).answersTo(identifier)) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    /** The column that {@code identifier} names, by name or alias. */
    public Optional<Column> find(String identifier) {
        OptionalInt index = indexOf(identifier);
        return index.isPresent() ? Optional.of(columns.get(index.getAsInt())) : Optional.empty();
    }

    /**
     * The column that {@code identifier} names.
     *
     * @throws IllegalArgumentException naming the known columns when there is none
     */
    public Column column(String identifier) {
        return find(identifier).orElseThrow(() -> new IllegalArgumentException(
                "Unknown column '" + identifier + "'; known columns: " + describeColumns()));
    }

    /** Number of columns. */
    public int size() {
        return columns.size();
    }

    /** The column names with their aliases, for error messages: {@code filename, label (human_label), ...}. */
    public String describeColumns() {
        return columns.stream()
                .map(c -> c.aliases().isEmpty() ? c.name() : c.name() + " (" + String.join(", ", c.aliases()) + ")")
                .collect(Collectors.joining(", "));
    }
}
