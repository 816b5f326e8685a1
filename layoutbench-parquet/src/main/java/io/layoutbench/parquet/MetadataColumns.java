package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * A whole metadata table in memory, column by column ({@link ColumnValues}), as read by
 * {@link ParquetObject#readColumns}: compact enough to hold the 1.28 M rows of ImageNet's metadata and evaluate
 * predicates over them with loops over arrays.
 *
 * <pre>{@code
 * MetadataColumns table = ParquetObject.open(backend, "meta/metadata.parquet").readMetadataColumns();
 * ColumnValues.Strings labels = (ColumnValues.Strings) table.column("human_label");
 * IntFunction<MetadataRow> rows = table.rows(schema);          // schema: the ParquetTableSchema it was written with
 * MetadataRow first = rows.apply(0);
 * }</pre>
 *
 * @param rowCount number of rows
 * @param columns  the columns read, in file order, each with {@code rowCount} values
 */
public record MetadataColumns(int rowCount, List<ColumnValues> columns) {

    public MetadataColumns {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        for (ColumnValues column : columns) {
            if (column.size() != rowCount) {
                throw new IllegalArgumentException("Column " + column.name() + " has " + column.size()
                        + " values but the table has " + rowCount + " rows");
            }
        }
    }

    /** The column named {@code name}, ignoring case. */
    public Optional<ColumnValues> find(String name) {
        requireNonNull(name, "name is null");
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
    }

    /**
     * The column named {@code name}, ignoring case.
     *
     * @throws IllegalArgumentException naming the columns read when there is none
     */
    public ColumnValues column(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("No column '" + name
                + "' was read; columns: " + columns.stream().map(ColumnValues::name)
                .collect(Collectors.joining(", "))));
    }

    /**
     * Rows as {@link MetadataRow}s of {@code schema}'s metadata schema, each metadata column taken from the column
     * of its physical name. The mapping is resolved once; the function is thread-safe.
     *
     * @throws IllegalArgumentException if a metadata column was not read or has another type
     */
    public IntFunction<MetadataRow> rows(ParquetTableSchema schema) {
        MetadataSchema metadata = schema.metadata();
        List<ColumnValues> sources = new ArrayList<>();
        for (int i = 0; i < metadata.size(); i++) {
            ColumnValues source = column(schema.metadataNames().get(i));
            if (source.type() != metadata.columns().get(i).type()) {
                throw new IllegalArgumentException("Column " + source.name() + " is " + source.type()
                        + " but metadata column " + metadata.columns().get(i) + " expects " + metadata.columns()
                        .get(i).type());
            }
            sources.add(source);
        }
        return row -> {
            List<Object> values = new ArrayList<>(sources.size());
            for (ColumnValues source : sources) {
                values.add(source.get(row));
            }
            return new MetadataRow(metadata, values);
        };
    }
}
