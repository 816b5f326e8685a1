package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.ColumnStatistics;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.api.predicate.GroupStatistics;
import io.layoutbench.parquet.ColumnStats;
import io.layoutbench.parquet.ColumnValues;
import io.layoutbench.parquet.ParquetColumn;
import io.layoutbench.parquet.ParquetFooter;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.RowGroupInfo;
import io.layoutbench.parquet.StringDictionary;

import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The queryable columns of one Parquet object, from its footer: names and types as the predicate language sees them
 * (INT32 and INT64 as BIGINT, FLOAT and DOUBLE as DOUBLE, UTF-8 as STRING, BOOLEAN, and DATE as its ISO string),
 * and how to decode one of its column chunks into a one-column {@link ColumnarTable}.
 */
final class ObjectColumns {

    private final ParquetFooter footer;
    private final MetadataSchema schema;
    private final Set<String> dates = new HashSet<>();
    /** Columns whose logical type the values would misread (a DECIMAL as its unscaled integer), with the type. */
    private final Map<String, String> unsupported = new HashMap<>();

    ObjectColumns(ParquetFooter footer) {
        this.footer = requireNonNull(footer, "footer is null");
        List<Column> columns = new ArrayList<>();
        for (ParquetColumn column : footer.columns()) {
            if (column.type().isEmpty()) {
                continue;   // blobs cannot be compared or projected as values
            }
            ColumnType type = column.type().get();
            LogicalTypeAnnotation logical = footer.messageType().getType(column.name()).getLogicalTypeAnnotation();
            if (column.physicalType() == PrimitiveTypeName.INT32
                    && logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                dates.add(column.name());
                type = ColumnType.STRING;
            } else if (logical != null && !(logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation)
                    && !(logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation)) {
                unsupported.put(column.name(), logical.toString());
            }
            columns.add(new Column(column.name(), type));
        }
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("Parquet object " + footer.key() + " has no column that can be queried "
                    + "(only blob columns)");
        }
        this.schema = new MetadataSchema(columns);
    }

    ParquetFooter footer() {
        return footer;
    }

    MetadataSchema schema() {
        return schema;
    }

    /**
     * Fails when a query uses a column whose values would be misread.
     *
     * @throws IllegalArgumentException naming the column, its type and the object
     */
    void checkSupported(Set<String> used) {
        for (String column : used) {
            String type = unsupported.get(schema.column(column).name());
            if (type != null) {
                throw new IllegalArgumentException("Column " + column + " of " + footer.key() + " is " + type
                        + ", which pushdown does not read (it reads integers, floating point, strings, booleans and "
                        + "dates)");
            }
        }
    }

    boolean isDate(String column) {
        return dates.contains(column);
    }

    ColumnType type(String column) {
        return schema.column(column).type();
    }

    /** Footer statistics of {@code rowGroup} for {@code columns}, dates as ISO strings. */
    GroupStatistics statistics(int rowGroup, Set<String> columns) {
        RowGroupInfo group = footer.rowGroup(rowGroup);
        Map<String, ColumnStatistics> statistics = new HashMap<>();
        for (String column : columns) {
            Optional<ColumnStats> stats = group.column(column).stats();
            if (stats.isEmpty()) {
                continue;
            }
            ColumnStats s = stats.get();
            if (isDate(column) && s.hasBounds()) {
                s = new ColumnStats(ColumnType.STRING, isoDate((Long) s.min()), isoDate((Long) s.max()),
                        s.nullCount());
            }
            statistics.put(column, s.toColumnStatistics(group.rowCount()));
        }
        return new GroupStatistics(group.rowCount(), statistics);
    }

    /** Decodes {@code bytes}, the chunk of {@code column} in {@code rowGroup}. */
    ColumnValues decode(int rowGroup, String column, ByteBuffer bytes) {
        return ParquetObject.decodeChunk(footer, rowGroup, column, bytes, SnappyPages.INSTANCE);
    }

    /** Decoded chunks of one row group, by column, as a table the predicate language evaluates. */
    ColumnarTable table(Map<String, ColumnValues> chunks, int rowCount) {
        MetadataSchema columns = new MetadataSchema(chunks.keySet().stream().map(schema::column).toList());
        ColumnarTable.ColumnsBuilder builder = ColumnarTable.fromColumns(columns, rowCount);
        chunks.forEach((column, values) -> add(builder, column, values));
        return builder.build();
    }

    private void add(ColumnarTable.ColumnsBuilder builder, String column, ColumnValues values) {
        if (values instanceof ColumnValues.Longs longs && isDate(column)) {
            StringDictionary.Builder dictionary = StringDictionary.builder();
            Map<Long, Integer> ids = new HashMap<>();
            int[] rows = new int[longs.values().length];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = longs.nulls().get(i) ? -1
                        : ids.computeIfAbsent(longs.values()[i], d -> dictionary.add(isoDate(d)));
            }
            builder.strings(column, rows, dictionary.build().toArray());
        } else if (values instanceof ColumnValues.Longs longs) {
            builder.longs(column, longs.values(), longs.nulls());
        } else if (values instanceof ColumnValues.Doubles doubles) {
            builder.doubles(column, doubles.values(), doubles.nulls());
        } else if (values instanceof ColumnValues.Booleans booleans) {
            builder.booleans(column, booleans.values(), booleans.nulls());
        } else if (values instanceof ColumnValues.Strings strings) {
            builder.strings(column, strings.ids(), strings.dictionary().toArray());
        }
    }

    static String isoDate(long epochDay) {
        return LocalDate.ofEpochDay(epochDay).toString();
    }
}
