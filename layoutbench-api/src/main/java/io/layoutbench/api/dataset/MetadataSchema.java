package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The schema of a dataset: its ordered metadata columns and the names of its payload fields. Column names and
 * aliases are unique, ignoring case; field names are unique and follow {@link PayloadFields#check}.
 *
 * <p>A dataset has one payload field, {@value Sample#DATA}, unless its schema names others
 * ({@link #withPayloadFields}): WebDataset-style samples carry several ({@code jpg}, {@code json}, {@code cls}),
 * each stored so that a query can read some of them without the others. A sample may lack a field (NULL).
 *
 * <p>{@link #imageNet()} is the schema of the LayoutBench paper: {@code filename}, {@code label} (alias
 * {@code human_label}), {@code filesize_bytes}, {@code width}, {@code height}. Datasets may add columns:
 *
 * <pre>{@code
 * MetadataSchema schema = MetadataSchema.imageNet().with(new Column("split", ColumnType.STRING));
 * int width = schema.indexOf("width").orElseThrow();
 * MetadataSchema speech = new MetadataSchema(List.of(new Column("speaker", ColumnType.BIGINT)))
 *         .withPayloadFields(List.of("wav", "txt"));
 * }</pre>
 *
 * @param columns       the columns in storage order; at least one
 * @param payloadFields the payload field names in storage order; at least one
 */
public record MetadataSchema(List<Column> columns, List<String> payloadFields) implements java.io.Serializable {

    private static final long serialVersionUID = 1L;


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
        payloadFields = List.copyOf(requireNonNull(payloadFields, "payloadFields is null"));
        if (payloadFields.isEmpty()) {
            throw new IllegalArgumentException("A schema needs at least one payload field");
        }
        for (int i = 0; i < payloadFields.size(); i++) {
            PayloadFields.check(payloadFields.get(i));
            if (payloadFields.subList(0, i).contains(payloadFields.get(i))) {
                throw new IllegalArgumentException("Payload field '" + payloadFields.get(i) + "' is listed twice");
            }
        }
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

    /** A schema of {@code columns} with the one payload field {@value Sample#DATA}. */
    public MetadataSchema(List<Column> columns) {
        this(columns, List.of(Sample.DATA));
    }

    /** The paper's ImageNet metadata schema. */
    public static MetadataSchema imageNet() {
        return IMAGE_NET;
    }

    /** This schema with {@code column} appended. */
    public MetadataSchema with(Column column) {
        List<Column> more = new ArrayList<>(columns);
        more.add(requireNonNull(column, "column is null"));
        return new MetadataSchema(more, payloadFields);
    }

    /** This schema with payload fields {@code fields} instead of its own. */
    public MetadataSchema withPayloadFields(List<String> fields) {
        return new MetadataSchema(columns, fields);
    }

    /** Whether samples have the one payload field {@value Sample#DATA}, as the paper's datasets do. */
    public boolean singleDataField() {
        return payloadFields.size() == 1 && payloadFields.get(0).equals(Sample.DATA);
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
