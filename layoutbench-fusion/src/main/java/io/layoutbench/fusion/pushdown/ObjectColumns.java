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

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The queryable columns of one Parquet object, from its footer: names and types as the predicate language sees them
 * (INT32 and INT64 as BIGINT, FLOAT and DOUBLE as DOUBLE, UTF-8 as STRING, BOOLEAN, DATE as its ISO string, and
 * DECIMAL as DOUBLE), and how to decode one of its column chunks into a one-column {@link ColumnarTable}.
 *
 * <p>A chunk decodes to raw values: a date as its day number, a DECIMAL as its unscaled integers, which is what nodes
 * project, aggregate and group on (exactly, and in 4 or 8 bytes a value). Only predicates see the converted values.
 * A DECIMAL becomes the double nearest to it: for a precision of 15 digits or fewer (DECIMAL(15,2) in TPC-H) two
 * different decimals never become the same double and the order is kept, so comparisons with a literal of 15
 * significant digits or fewer (parsed to its nearest double too) are exact; beyond 15 digits they are the doubles'.
 */
final class ObjectColumns {

    /** Most digits of a DECIMAL whose unscaled integers a 64-bit integer always holds. */
    private static final int MAX_LONG_DECIMAL_DIGITS = 18;

    private final ParquetFooter footer;
    private final MetadataSchema schema;
    private final Set<String> dates = new HashSet<>();
    /** DECIMAL columns (read as their unscaled integers), with their scale. */
    private final Map<String, Integer> decimalScales = new HashMap<>();
    /** Columns whose logical type the values would misread (a DECIMAL as its unscaled integer), with the type. */
    private final Map<String, String> unsupported = new HashMap<>();

    ObjectColumns(ParquetFooter footer) {
        this.footer = requireNonNull(footer, "footer is null");
        List<Column> columns = new ArrayList<>();
        for (ParquetColumn column : footer.columns()) {
            LogicalTypeAnnotation logical = footer.messageType().getType(column.name()).getLogicalTypeAnnotation();
            if (column.type().isEmpty() && logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
                // Known, so that a query naming it says why it cannot run rather than call it unknown.
                unsupported.put(column.name(), unreadDecimal(d, footer.messageType().getType(column.name())
                        .asPrimitiveType()));
                columns.add(new Column(column.name(), ColumnType.DOUBLE));
                continue;
            }
            if (column.type().isEmpty()) {
                continue;   // blobs cannot be compared or projected as values
            }
            ColumnType type = column.type().get();
            if (column.physicalType() == PrimitiveTypeName.INT32
                    && logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                dates.add(column.name());
                type = ColumnType.STRING;
            } else if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal
                    && type == ColumnType.BIGINT) {
                decimalScales.put(column.name(), decimal.getScale());
                type = ColumnType.DOUBLE;
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
                        + ", which pushdown does not read (it reads integers, floating point, strings, booleans,"
                        + " dates and decimals)");
            }
        }
    }

    /**
     * Why the footer left a DECIMAL column unread: more digits than 64 bits hold, or (of 18 digits or fewer) values
     * stored in more bytes than the 8 of a 64-bit integer, which the footer does not read as integers.
     */
    private static String unreadDecimal(LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal,
            PrimitiveType type) {
        if (decimal.getPrecision() <= MAX_LONG_DECIMAL_DIGITS
                && type.getPrimitiveTypeName() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY && type.getTypeLength() > 8) {
            return decimal + " stored in " + type.getTypeLength() + "-byte FIXED_LEN_BYTE_ARRAY values (wider than"
                    + " the 8 bytes of a 64-bit integer, although its " + decimal.getPrecision() + " digits fit one)";
        }
        return decimal + " (wider than the " + MAX_LONG_DECIMAL_DIGITS + " digits a 64-bit integer holds)";
    }

    boolean isDate(String column) {
        return dates.contains(column);
    }

    /** The scale of a DECIMAL column; empty for other columns. */
    OptionalInt decimalScale(String column) {
        Integer scale = decimalScales.get(schema.column(column).name());
        return scale == null ? OptionalInt.empty() : OptionalInt.of(scale);
    }

    /**
     * A raw value of {@code column} as results give it: a date as its ISO string, a DECIMAL as a
     * {@link BigDecimal} (exact), anything else as it is; null stays null.
     */
    Object resultValue(String column, Object raw) {
        if (raw == null) {
            return null;
        }
        if (isDate(column)) {
            return isoDate((Long) raw);
        }
        OptionalInt scale = decimalScale(column);
        return scale.isPresent() ? BigDecimal.valueOf((Long) raw, scale.getAsInt()) : raw;
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
            } else if (decimalScale(column).isPresent() && s.hasBounds()) {
                int scale = decimalScale(column).getAsInt();
                s = new ColumnStats(ColumnType.DOUBLE, ArgumentValues.toDouble((Long) s.min(), scale),
                        ArgumentValues.toDouble((Long) s.max(), scale), s.nullCount());
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
        chunks.forEach((column, chunk) -> values.add(isDate(column) ? isoDates((ColumnVector.Longs) chunk)
                : decimalScale(column).isPresent()
                ? doubles((ColumnVector.Longs) chunk, decimalScale(column).getAsInt()) : chunk));
        return ColumnarTable.fromColumns(columns, values);
    }

    /** A builder for the values of {@code column} as a query returns them (a date as its ISO string). */
    ColumnVectorBuilder resultBuilder(String column) {
        return ColumnVectorBuilder.of(type(column), 16);
    }

    /**
     * Appends the rows of {@code values} (a chunk of {@code column}) in {@code rows}, or all of them when
     * {@code rows} is null, to {@code result}, a {@link #resultBuilder} of that column; a DECIMAL's exact values
     * also to {@code exact} (null for other columns).
     */
    void append(ColumnVectorBuilder result, List<BigDecimal> exact, String column, ColumnVector values,
            RoaringBitmap rows) {
        boolean date = isDate(column);
        OptionalInt scale = decimalScale(column);
        IntIterator it = rows == null ? null : rows.getIntIterator();
        for (int i = 0, count = rows == null ? values.size() : rows.getCardinality(); i < count; i++) {
            int row = it == null ? i : it.next();
            if (values.isNull(row)) {
                result.appendNull();
                if (exact != null) {
                    exact.add(null);
                }
            } else if (date) {
                ((ColumnVectorBuilder.Strings) result).append(isoDate(((ColumnVector.Longs) values).values()[row]));
            } else if (scale.isPresent()) {
                long unscaled = ((ColumnVector.Longs) values).values()[row];
                ((ColumnVectorBuilder.Doubles) result).append(ArgumentValues.toDouble(unscaled, scale.getAsInt()));
                exact.add(BigDecimal.valueOf(unscaled, scale.getAsInt()));
            } else {
                result.append(values, row);
            }
        }
    }

    private static ColumnVector.Doubles doubles(ColumnVector.Longs unscaled, int scale) {
        double[] values = new double[unscaled.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = ArgumentValues.toDouble(unscaled.values()[i], scale);
        }
        return new ColumnVector.Doubles(values, unscaled.nulls());
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
