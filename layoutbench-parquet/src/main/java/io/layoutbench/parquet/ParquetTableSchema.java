package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * What a Parquet table written by {@link ParquetTableWriter} holds: the columns of a {@link MetadataSchema}, each
 * under a physical name the layout chooses, then extra columns (a tar shard name, an offset), then the blob columns of
 * sample bytes (one for the paper's tables, one per payload field for samples of several).
 *
 * <p>Metadata and extra columns are OPTIONAL (SQL NULL is a legal metadata value): STRING is {@code BINARY}
 * annotated UTF-8 and dictionary-encoded, BIGINT is {@code INT64}, DOUBLE is {@code DOUBLE}, BOOLEAN is
 * {@code BOOLEAN}. A blob column is a REQUIRED, plain-encoded {@code BINARY} with no statistics and no column index
 * (its offset index is kept), written last so that the metadata column chunks of a row group lie together.
 *
 * <pre>{@code
 * // The paper's L2 metadata table: 'label' is written as 'human_label', plus where each sample is in its shard.
 * ParquetTableSchema l2 = ParquetTableSchema.builder(MetadataSchema.imageNet())
 *         .rename(MetadataSchema.LABEL, MetadataSchema.HUMAN_LABEL)
 *         .extraColumn("shard", ColumnType.STRING)
 *         .extraColumn("data_offset", ColumnType.BIGINT)
 *         .extraColumn("data_size", ColumnType.BIGINT)
 *         .build();
 * // The paper's L3 table: metadata under their own names plus the image bytes.
 * ParquetTableSchema l3 = ParquetTableSchema.builder(MetadataSchema.imageNet()).blobColumn("image_bytes").build();
 * }</pre>
 *
 * @param metadata      the metadata columns, in order
 * @param metadataNames the physical name of each metadata column, in the same order
 * @param extraColumns  columns written after the metadata columns, under their own names
 * @param blobColumns   the names of the blob columns, written last, in order; may be empty
 */
public record ParquetTableSchema(
        MetadataSchema metadata, List<String> metadataNames, List<Column> extraColumns, List<String> blobColumns) {

    /** Name of the Parquet message (the root of the schema). */
    static final String MESSAGE_NAME = "layoutbench";

    public ParquetTableSchema {
        requireNonNull(metadata, "metadata is null");
        metadataNames = List.copyOf(requireNonNull(metadataNames, "metadataNames is null"));
        extraColumns = List.copyOf(requireNonNull(extraColumns, "extraColumns is null"));
        blobColumns = List.copyOf(requireNonNull(blobColumns, "blobColumns is null"));
        if (metadataNames.size() != metadata.size()) {
            throw new IllegalArgumentException("Expected " + metadata.size() + " physical names for columns ["
                    + metadata.describeColumns() + "] but got " + metadataNames);
        }
        List<String> all = new ArrayList<>(metadataNames);
        extraColumns.forEach(c -> all.add(c.name()));
        all.addAll(blobColumns);
        Map<String, String> seen = new HashMap<>();
        for (String name : all) {
            new Column(name, ColumnType.STRING);   // checks the name is an identifier
            String previous = seen.put(name.toLowerCase(Locale.ROOT), name);
            if (previous != null) {
                throw new IllegalArgumentException("Two Parquet columns would be named '" + name + "' (names are "
                        + "compared ignoring case, as DuckDB does): " + all);
            }
        }
    }

    /** The metadata columns under their own names, with no extra or blob column. */
    public static ParquetTableSchema of(MetadataSchema metadata) {
        return builder(metadata).build();
    }

    /** A builder starting from the metadata columns under their own names. */
    public static Builder builder(MetadataSchema metadata) {
        return new Builder(metadata);
    }

    /** The first blob column, if any: the only one of the paper's tables. */
    public Optional<String> blobColumn() {
        return blobColumns.isEmpty() ? Optional.empty() : Optional.of(blobColumns.get(0));
    }

    /** The physical column names, in file order: metadata, extra, blob. */
    public List<String> physicalNames() {
        List<String> all = new ArrayList<>(metadataNames);
        extraColumns.forEach(c -> all.add(c.name()));
        all.addAll(blobColumns);
        return List.copyOf(all);
    }

    /** The physical name of the metadata column that {@code identifier} names (by name or alias). */
    public String physicalName(String identifier) {
        return metadataNames.get(metadata.indexOf(identifier).orElseThrow(() -> new IllegalArgumentException(
                "Unknown column '" + identifier + "'; known columns: " + metadata.describeColumns())));
    }

    /** The Parquet schema of the table. */
    MessageType messageType() {
        Types.MessageTypeBuilder message = Types.buildMessage();
        for (int i = 0; i < metadata.size(); i++) {
            message.addField(field(metadataNames.get(i), metadata.columns().get(i).type()));
        }
        for (Column extra : extraColumns) {
            message.addField(field(extra.name(), extra.type()));
        }
        blobColumns.forEach(name -> message.addField(Types.required(PrimitiveTypeName.BINARY).named(name)));
        return message.named(MESSAGE_NAME);
    }

    private static Type field(String name, ColumnType type) {
        return switch (type) {
            case STRING -> Types.optional(PrimitiveTypeName.BINARY)
                    .as(LogicalTypeAnnotation.stringType()).named(name);
            case BIGINT -> Types.optional(PrimitiveTypeName.INT64).named(name);
            case DOUBLE -> Types.optional(PrimitiveTypeName.DOUBLE).named(name);
            case BOOLEAN -> Types.optional(PrimitiveTypeName.BOOLEAN).named(name);
        };
    }

    /** Builds a {@link ParquetTableSchema}; not thread-safe. */
    public static final class Builder {
        private final MetadataSchema metadata;
        private final List<String> names = new ArrayList<>();
        private final List<Column> extras = new ArrayList<>();
        private final List<String> blobs = new ArrayList<>();

        private Builder(MetadataSchema metadata) {
            this.metadata = requireNonNull(metadata, "metadata is null");
            metadata.columns().forEach(c -> names.add(c.name()));
        }

        /** Writes the metadata column that {@code identifier} names under {@code physicalName}. */
        public Builder rename(String identifier, String physicalName) {
            requireNonNull(physicalName, "physicalName is null");
            int index = metadata.indexOf(identifier).orElseThrow(() -> new IllegalArgumentException(
                    "Unknown column '" + identifier + "'; known columns: " + metadata.describeColumns()));
            names.set(index, physicalName);
            return this;
        }

        /** Appends an extra column, written after the metadata columns; its values come with each row. */
        public Builder extraColumn(String name, ColumnType type) {
            extras.add(new Column(name, type));
            return this;
        }

        /** Appends a blob column, written after the extra columns; every row then has a blob for it. */
        public Builder blobColumn(String name) {
            blobs.add(requireNonNull(name, "name is null"));
            return this;
        }

        public ParquetTableSchema build() {
            return new ParquetTableSchema(metadata, names, extras, blobs);
        }
    }
}
