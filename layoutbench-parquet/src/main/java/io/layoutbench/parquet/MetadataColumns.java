package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * A whole metadata table in memory, column by column ({@link ColumnVector}s), as read by
 * {@link ParquetObject#readColumns}: compact enough to hold the 1.28 M rows of ImageNet's metadata and evaluate
 * predicates over them with loops over arrays. The vectors go into a {@code ColumnarTable} as they are.
 *
 * <pre>{@code
 * MetadataColumns table = ParquetObject.open(backend, "meta/metadata.parquet").readMetadataColumns();
 * ColumnVector.Strings labels = (ColumnVector.Strings) table.column("human_label");
 * IntFunction<MetadataRow> rows = table.rows(schema);          // schema: the ParquetTableSchema it was written with
 * MetadataRow first = rows.apply(0);
 * }</pre>
 *
 * @param rowCount number of rows
 * @param names    the physical names of the columns read, in file order
 * @param columns  the columns read, one per name, each with {@code rowCount} values
 */
public record MetadataColumns(int rowCount, List<String> names, List<ColumnVector> columns) {

    public MetadataColumns {
        names = List.copyOf(requireNonNull(names, "names is null"));
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        if (names.size() != columns.size()) {
            throw new IllegalArgumentException(names.size() + " names for " + columns.size() + " columns");
        }
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).size() != rowCount) {
                throw new IllegalArgumentException("Column " + names.get(i) + " has " + columns.get(i).size()
                        + " values but the table has " + rowCount + " rows");
            }
        }
    }

    /** The column named {@code name}, ignoring case. */
    public Optional<ColumnVector> find(String name) {
        requireNonNull(name, "name is null");
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return Optional.of(columns.get(i));
            }
        }
        return Optional.empty();
    }

    /**
     * The column named {@code name}, ignoring case.
     *
     * @throws IllegalArgumentException naming the columns read when there is none
     */
    public ColumnVector column(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("No column '" + name
                + "' was read; columns: " + String.join(", ", names)));
    }

    /**
     * Rows as {@link MetadataRow}s of {@code schema}'s metadata schema, each metadata column taken from the column
     * of its physical name. The mapping is resolved once; the function is thread-safe.
     *
     * @throws IllegalArgumentException if a metadata column was not read or has another type
     */
    public IntFunction<MetadataRow> rows(ParquetTableSchema schema) {
        MetadataSchema metadata = schema.metadata();
        List<ColumnVector> sources = new ArrayList<>();
        for (int i = 0; i < metadata.size(); i++) {
            String name = schema.metadataNames().get(i);
            ColumnVector source = column(name);
            if (source.type() != metadata.columns().get(i).type()) {
                throw new IllegalArgumentException("Column " + name + " is " + source.type()
                        + " but metadata column " + metadata.columns().get(i) + " expects " + metadata.columns()
                        .get(i).type());
            }
            sources.add(source);
        }
        return row -> {
            List<Object> values = new ArrayList<>(sources.size());
            for (ColumnVector source : sources) {
                values.add(source.get(row));
            }
            return new MetadataRow(metadata, values);
        };
    }
}
