package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.ColumnVectorBuilder;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.ColumnStatistics;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.api.predicate.GroupStatistics;
import io.layoutbench.parquet.ColumnStats;
import io.layoutbench.parquet.ParquetColumn;
import io.layoutbench.parquet.ParquetFooter;
import io.layoutbench.parquet.CommonDecompressor;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.RowGroupInfo;

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
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

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

    /** Decodes {@code bytes}, the chunk of {@code column} in {@code rowGroup}: a date column as its day numbers. */
    ColumnVector decode(int rowGroup, String column, ByteBuffer bytes) {
        return ParquetObject.decodeChunk(footer, rowGroup, column, bytes, CommonDecompressor.INSTANCE);
    }

    /** Decoded chunks of one row group, by column, as a table the predicate language evaluates. */
    ColumnarTable table(Map<String, ColumnVector> chunks, int rowCount) {
        MetadataSchema columns = new MetadataSchema(chunks.keySet().stream().map(schema::column).toList());
        List<ColumnVector> values = new ArrayList<>();
        chunks.forEach((column, chunk) -> values.add(isDate(column) ? isoDates((ColumnVector.Longs) chunk) : chunk));
        return ColumnarTable.fromColumns(columns, values);
    }

    /** A builder for the values of {@code column} as a query returns them (a date as its ISO string). */
    ColumnVectorBuilder resultBuilder(String column) {
        return ColumnVectorBuilder.of(type(column), 16);
    }

    /**
     * Appends the rows of {@code values} (a chunk of {@code column}) in {@code rows}, or all of them when
     * {@code rows} is null, to {@code result}, a {@link #resultBuilder} of that column.
     */
    void append(ColumnVectorBuilder result, String column, ColumnVector values, RoaringBitmap rows) {
        boolean date = isDate(column);
        IntIterator it = rows == null ? null : rows.getIntIterator();
        for (int i = 0, count = rows == null ? values.size() : rows.getCardinality(); i < count; i++) {
            int row = it == null ? i : it.next();
            if (values.isNull(row)) {
                result.appendNull();
            } else if (date) {
                ((ColumnVectorBuilder.Strings) result).append(isoDate(((ColumnVector.Longs) values).values()[row]));
            } else {
                result.append(values, row);
            }
        }
    }

    private static ColumnVector.Strings isoDates(ColumnVector.Longs days) {
        ColumnVectorBuilder.Strings dates = ColumnVectorBuilder.strings(days.size());
        Map<Long, String> formatted = new HashMap<>();
        for (int i = 0; i < days.size(); i++) {
            if (days.isNull(i)) {
                dates.appendNull();
            } else {
                dates.append(formatted.computeIfAbsent(days.values()[i], ObjectColumns::isoDate));
            }
        }
        return dates.build();
    }

    static String isoDate(long epochDay) {
        return LocalDate.ofEpochDay(epochDay).toString();
    }
}
