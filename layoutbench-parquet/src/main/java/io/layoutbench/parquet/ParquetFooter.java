package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.dataset.ColumnType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.KeyValue;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * The footer of a flat Parquet object: its columns, its row groups with their byte ranges and statistics, and where
 * its page indexes lie. Read it with {@link ParquetObject#open}; it is immutable and thread-safe.
 *
 * <pre>{@code
 * ParquetFooter footer = ParquetObject.open(backend, "meta/metadata.parquet").footer();
 * System.out.printf("%d rows in %d row groups%n", footer.rowCount(), footer.rowGroups().size());
 * }</pre>
 */
public final class ParquetFooter {

    /** The widest DECIMAL whose unscaled integers a 64-bit long holds: 18 digits. */
    static final int MAX_LONG_DECIMAL_PRECISION = 18;

    private final String key;
    private final long objectLength;
    private final ByteRange footerRange;
    private final long rowCount;
    private final String createdBy;
    private final Map<String, String> keyValueMetadata;
    private final List<ParquetColumn> columns;
    private final List<RowGroupInfo> rowGroups;
    private final Optional<ByteRange> pageIndexRange;
    /** parquet-java's codec of each Thrift codec, by ordinal: looked up per chunk, without a name lookup. */
    private static final CompressionCodecName[] CODECS = codecs();
    private final MessageType messageType;

    private ParquetFooter(String key, long objectLength, ByteRange footerRange, FileMetaData metadata) {
        this.key = key;
        this.objectLength = objectLength;
        this.footerRange = footerRange;
        this.rowCount = metadata.getNum_rows();
        this.createdBy = metadata.isSetCreated_by() ? metadata.getCreated_by() : "";
        Map<String, String> keyValues = new LinkedHashMap<>();
        if (metadata.isSetKey_value_metadata()) {
            for (KeyValue keyValue : metadata.getKey_value_metadata()) {
                keyValues.put(keyValue.getKey(), keyValue.getValue());
            }
        }
        this.keyValueMetadata = Collections.unmodifiableMap(keyValues);
        this.columns = parseSchema(metadata.getSchema());
        this.messageType = messageType(columns, metadata.getSchema());
        this.rowGroups = parseRowGroups(metadata.getRow_groups());
        this.pageIndexRange = pageIndexRange(rowGroups);
    }

    /**
     * Reads the footer: the tail of the object in one request, and the rest of a longer footer in a second. With
     * {@code expected} checksums (or null), the footer region is checked before it is parsed, and located where they
     * say rather than by the footer length, so that a damaged length or magic is reported as a checksum mismatch.
     *
     * @throws CorruptDataException   naming the object and region when the footer region fails its checksum
     * @throws ParquetFormatException when the object is not a flat Parquet table
     */
    static ParquetFooter read(BackendInputFile file, ParquetChecksums expected) {
        String key = file.key();
        long length = file.getLength();
        FooterFormat.checkLength(key, length);
        ByteBuffer tail = file.tail();
        long tailOffset = length - tail.remaining();
        ByteRange footerRange = expected == null ? FooterFormat.locate(key, length, tail)
                : expectedFooterRange(key, length, expected.footer().range());
        ByteBuffer footer = footerRange.offset() >= tailOffset
                ? tail.slice((int) (footerRange.offset() - tailOffset), (int) footerRange.length())
                : file.read(footerRange);
        if (expected != null) {
            expected.footer().verify("the footer region of " + key, footer, tail.slice(tail.remaining() - 8, 8));
            FooterFormat.locate(key, length, tail);
        }
        ParquetFooter parsed = parse(key, length, footerRange, footer);
        if (expected != null) {
            expected.checkMatches(parsed);
        }
        return parsed;
    }

    /** The footer whose Thrift bytes, {@code footer}, lie at {@code footerRange} of an object of {@code length}. */
    static ParquetFooter parse(String key, long length, ByteRange footerRange, ByteBuffer footer) {
        FileMetaData metadata = FooterFormat.parseMetadata(key, footer, footerRange);
        try {
            return new ParquetFooter(key, length, footerRange, metadata);
        } catch (ParquetFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ParquetFormatException("Cannot read the footer of " + key + " at " + footerRange + ": "
                    + e.getMessage(), e);
        }
    }

    /** The Thrift footer's range in a footer region recorded as {@code region}: all of it but the last 8 bytes. */
    private static ByteRange expectedFooterRange(String key, long length, ByteRange region) {
        if (region.end() != length || region.offset() < 4 || region.length() <= 8) {
            throw new CorruptDataException("The footer region " + region + " expected for " + key + " does not end "
                    + "at the end of the object, at " + length + ", or is too short to hold a footer: the object is "
                    + "not the one the checksums were recorded for (replaced or truncated?)");
        }
        return ByteRange.between(region.offset(), length - 8);
    }

    /** The object's key. */
    public String key() {
        return key;
    }

    /** The object's length in bytes. */
    public long objectLength() {
        return objectLength;
    }

    /** Where the Thrift footer lies (without its length and magic). */
    public ByteRange footerRange() {
        return footerRange;
    }

    /** Number of rows in the object. */
    public long rowCount() {
        return rowCount;
    }

    /** The writer's name and version, or empty. */
    public String createdBy() {
        return createdBy;
    }

    /** The footer's key-value metadata, in file order. */
    public Map<String, String> keyValueMetadata() {
        return keyValueMetadata;
    }

    /** The columns, in schema order. */
    public List<ParquetColumn> columns() {
        return columns;
    }

    /** The column named {@code name}, ignoring case as DuckDB does. */
    public Optional<ParquetColumn> findColumn(String name) {
        requireNonNull(name, "name is null");
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
    }

    /**
     * The column named {@code name}, ignoring case.
     *
     * @throws IllegalArgumentException naming the object and its columns when there is none
     */
    public ParquetColumn column(String name) {
        return findColumn(name).orElseThrow(() -> new IllegalArgumentException("Parquet object " + key
                + " has no column '" + name + "'; its columns: "
                + columns.stream().map(ParquetColumn::name).collect(Collectors.joining(", "))));
    }

    /** The row groups, in file order. */
    public List<RowGroupInfo> rowGroups() {
        return rowGroups;
    }

    /**
     * The row group {@code index}.
     *
     * @throws IllegalArgumentException naming the object and its row-group count when there is none
     */
    public RowGroupInfo rowGroup(int index) {
        if (index < 0 || index >= rowGroups.size()) {
            throw new IllegalArgumentException("Parquet object " + key + " has " + rowGroups.size()
                    + " row groups; there is no row group " + index);
        }
        return rowGroups.get(index);
    }

    /** The row group holding row {@code fileRow} of the object. */
    public RowGroupInfo rowGroupOfRow(long fileRow) {
        int low = 0;
        int high = rowGroups.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            RowGroupInfo rowGroup = rowGroups.get(mid);
            if (fileRow < rowGroup.firstRow()) {
                high = mid - 1;
            } else if (!rowGroup.containsRow(fileRow)) {
                low = mid + 1;
            } else {
                return rowGroup;
            }
        }
        throw new IllegalArgumentException("Parquet object " + key + " has " + rowCount + " rows; there is no row "
                + fileRow);
    }

    /**
     * The span of all column and offset indexes, which parquet-java writes together just before the footer; empty
     * when the object has none.
     */
    public Optional<ByteRange> pageIndexRange() {
        return pageIndexRange;
    }

    /** The file's schema as parquet-column describes it: for decoders of its pages. */
    public MessageType messageType() {
        return messageType;
    }

    @Override
    public String toString() {
        return "Parquet footer of " + key + ": " + rowCount + " rows in " + rowGroups.size() + " row groups, columns "
                + columns.stream().map(ParquetColumn::name).collect(Collectors.joining(", "));
    }

    private List<ParquetColumn> parseSchema(List<SchemaElement> schema) {
        if (schema == null || schema.isEmpty()) {
            throw new ParquetFormatException("The footer of " + key + " has no schema");
        }
        int children = schema.get(0).getNum_children();
        if (children != schema.size() - 1) {
            throw new ParquetFormatException("Cannot read " + key + ": its schema is nested (" + (schema.size() - 1)
                    + " elements under " + children + " top-level fields); only flat tables are supported");
        }
        List<ParquetColumn> parsed = new ArrayList<>();
        for (int i = 1; i < schema.size(); i++) {
            SchemaElement element = schema.get(i);
            if (element.isSetNum_children() && element.getNum_children() > 0 || !element.isSetType()) {
                throw new ParquetFormatException("Cannot read " + key + ": column '" + element.getName()
                        + "' is a group; only flat tables are supported");
            }
            if (element.getRepetition_type() == FieldRepetitionType.REPEATED) {
                throw new ParquetFormatException("Cannot read " + key + ": column '" + element.getName()
                        + "' is REPEATED; only flat tables are supported");
            }
            PrimitiveTypeName physical = switch (element.getType()) {
                case BOOLEAN -> PrimitiveTypeName.BOOLEAN;
                case INT32 -> PrimitiveTypeName.INT32;
                case INT64 -> PrimitiveTypeName.INT64;
                case INT96 -> PrimitiveTypeName.INT96;
                case FLOAT -> PrimitiveTypeName.FLOAT;
                case DOUBLE -> PrimitiveTypeName.DOUBLE;
                case BYTE_ARRAY -> PrimitiveTypeName.BINARY;
                case FIXED_LEN_BYTE_ARRAY -> PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
            };
            boolean string = element.isSetLogicalType() && element.getLogicalType().isSetSTRING()
                    || element.isSetConverted_type() && element.getConverted_type() == ConvertedType.UTF8;
            // A DECIMAL in bytes (big-endian two's complement) reads as its unscaled integer when 64 bits hold it,
            // as an INT32 or INT64 DECIMAL does; a wider one is left unread rather than misread.
            int precision = element.isSetLogicalType() && element.getLogicalType().isSetDECIMAL()
                    ? element.getLogicalType().getDECIMAL().getPrecision()
                    : element.getConverted_type() == ConvertedType.DECIMAL ? element.getPrecision() : -1;
            boolean longDecimal = precision > 0 && precision <= MAX_LONG_DECIMAL_PRECISION
                    && (physical != PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY || element.getType_length() <= 8);
            Optional<ColumnType> type = switch (physical) {
                case INT32, INT64 -> Optional.of(ColumnType.BIGINT);
                case FLOAT, DOUBLE -> Optional.of(ColumnType.DOUBLE);
                case BOOLEAN -> Optional.of(ColumnType.BOOLEAN);
                case BINARY -> string ? Optional.of(ColumnType.STRING)
                        : longDecimal ? Optional.of(ColumnType.BIGINT) : Optional.empty();
                case FIXED_LEN_BYTE_ARRAY -> longDecimal ? Optional.of(ColumnType.BIGINT) : Optional.empty();
                default -> Optional.empty();
            };
            boolean required = element.getRepetition_type() == FieldRepetitionType.REQUIRED;
            parsed.add(new ParquetColumn(element.getName(), i - 1, physical, type, required));
        }
        return List.copyOf(parsed);
    }

    private static MessageType messageType(List<ParquetColumn> columns, List<SchemaElement> schema) {
        Types.MessageTypeBuilder message = Types.buildMessage();
        for (ParquetColumn column : columns) {
            SchemaElement element = schema.get(column.index() + 1);
            Types.PrimitiveBuilder<PrimitiveType> field = Types.primitive(column.physicalType(),
                    column.required() ? Type.Repetition.REQUIRED : Type.Repetition.OPTIONAL);
            if (column.type().orElse(null) == ColumnType.STRING) {
                field = field.as(LogicalTypeAnnotation.stringType());
            }
            boolean date = (element.isSetLogicalType() && element.getLogicalType().isSetDATE())
                    || element.getConverted_type() == ConvertedType.DATE;
            if (date && column.physicalType() == PrimitiveTypeName.INT32) {
                field = field.as(LogicalTypeAnnotation.dateType());
            }
            // Kept so that readers can tell a DECIMAL's unscaled integers from plain integers.
            if (element.isSetLogicalType() && element.getLogicalType().isSetDECIMAL()) {
                field = field.as(LogicalTypeAnnotation.decimalType(element.getLogicalType().getDECIMAL().getScale(),
                        element.getLogicalType().getDECIMAL().getPrecision()));
            } else if (element.getConverted_type() == ConvertedType.DECIMAL) {
                field = field.as(LogicalTypeAnnotation.decimalType(element.getScale(), element.getPrecision()));
            }
            if (column.physicalType() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
                field = field.length(element.getType_length());
            }
            message.addField(field.named(column.name()));
        }
        return message.named(schema.get(0).getName());
    }

    private List<RowGroupInfo> parseRowGroups(List<RowGroup> groups) {
        List<RowGroupInfo> parsed = new ArrayList<>();
        long firstRow = 0;
        for (int g = 0; g < groups.size(); g++) {
            RowGroup group = groups.get(g);
            if (group.getColumnsSize() != columns.size()) {
                throw new ParquetFormatException("Row group " + g + " of " + key + " has " + group.getColumnsSize()
                        + " column chunks but the schema has " + columns.size() + " columns");
            }
            List<ColumnChunkInfo> chunks = new ArrayList<>();
            ByteRange span = null;
            for (int c = 0; c < columns.size(); c++) {
                ColumnChunkInfo chunk = parseChunk(g, columns.get(c), group.getColumns().get(c), group.getNum_rows());
                chunks.add(chunk);
                span = span == null ? chunk.byteRange() : span.span(chunk.byteRange());
            }
            parsed.add(new RowGroupInfo(g, firstRow, group.getNum_rows(),
                    span == null ? ByteRange.of(4, 0) : span, chunks));
            firstRow += group.getNum_rows();
        }
        if (firstRow != rowCount) {
            throw new ParquetFormatException("The footer of " + key + " says " + rowCount + " rows but its row groups "
                    + "hold " + firstRow);
        }
        return List.copyOf(parsed);
    }

    private ColumnChunkInfo parseChunk(int rowGroup, ParquetColumn column, ColumnChunk chunk, long rows) {
        // Named only in errors: a footer of a hundred row groups has a thousand chunks.
        java.util.function.Supplier<String> where = () -> "column " + column.name() + " of row group " + rowGroup
                + " of " + key;
        if (!chunk.isSetMeta_data()) {
            throw new ParquetFormatException("Cannot read " + where.get() + ": its metadata is encrypted or missing");
        }
        if (chunk.isSetFile_path()) {
            throw new ParquetFormatException("Cannot read " + where.get() + ": it lies in another file, "
                    + chunk.getFile_path());
        }
        ColumnMetaData metadata = chunk.getMeta_data();
        long dataPageOffset = metadata.getData_page_offset();
        boolean hasDictionary = FooterFormat.hasDictionaryPage(metadata);
        long start = FooterFormat.chunkStart(metadata);
        ByteRange range = ByteRange.of(start, metadata.getTotal_compressed_size());
        if (start < 4 || !range.fitsIn(footerRange.offset())) {
            throw new ParquetFormatException("Cannot read " + where.get() + ": its chunk " + range
                    + " does not lie between the leading magic and the footer at " + footerRange);
        }
        // A flat column has one value per row, nulls included.
        if (metadata.getNum_values() != rows) {
            throw new ParquetFormatException("Cannot read " + where.get() + ": it has " + metadata.getNum_values()
                    + " values but the row group has " + rows + " rows");
        }
        CompressionCodecName codec = CODECS[metadata.getCodec().ordinal()];
        if (codec == null) {
            throw new ParquetFormatException("Cannot read " + where.get() + ": its codec " + metadata.getCodec()
                    + " is unknown to parquet-java");
        }
        Optional<ColumnStats> stats = metadata.isSetStatistics()
                ? chunkStats(column, metadata.getStatistics()) : Optional.empty();
        Optional<ByteRange> offsetIndex = chunk.isSetOffset_index_offset() && chunk.isSetOffset_index_length()
                ? Optional.of(ByteRange.of(chunk.getOffset_index_offset(), chunk.getOffset_index_length()))
                : Optional.empty();
        Optional<ByteRange> columnIndex = chunk.isSetColumn_index_offset() && chunk.isSetColumn_index_length()
                ? Optional.of(ByteRange.of(chunk.getColumn_index_offset(), chunk.getColumn_index_length()))
                : Optional.empty();
        for (Optional<ByteRange> index : List.of(offsetIndex, columnIndex)) {
            if (index.isPresent() && !index.get().fitsIn(footerRange.offset())) {
                throw new ParquetFormatException("Cannot read " + where.get() + ": its page index at " + index.get()
                        + " overlaps the footer at " + footerRange);
            }
        }
        return new ColumnChunkInfo(column.name(), column.index(), range, dataPageOffset, hasDictionary,
                metadata.getNum_values(), codec, metadata.getTotal_uncompressed_size(), decodedSize(column, metadata),
                stats, offsetIndex, columnIndex);
    }

    private static CompressionCodecName[] codecs() {
        org.apache.parquet.format.CompressionCodec[] thrift = org.apache.parquet.format.CompressionCodec.values();
        CompressionCodecName[] codecs = new CompressionCodecName[thrift.length];
        for (org.apache.parquet.format.CompressionCodec codec : thrift) {
            try {
                codecs[codec.ordinal()] = CompressionCodecName.valueOf(codec.name());
            } catch (IllegalArgumentException e) {
                codecs[codec.ordinal()] = null;   // one parquet-java cannot read: a chunk using it is an error
            }
        }
        return codecs;
    }

    private static long decodedSize(ParquetColumn column, ColumnMetaData metadata) {
        long values = metadata.getNum_values();
        return switch (column.physicalType()) {
            case BOOLEAN -> values;
            case INT32, FLOAT -> 4 * values;
            case INT64, DOUBLE -> 8 * values;
            case INT96 -> 12 * values;
            case FIXED_LEN_BYTE_ARRAY -> metadata.getTotal_uncompressed_size();
            case BINARY -> metadata.isSetSize_statistics()
                    && metadata.getSize_statistics().isSetUnencoded_byte_array_data_bytes()
                    ? 4 * values + metadata.getSize_statistics().getUnencoded_byte_array_data_bytes()
                    : metadata.getTotal_uncompressed_size();
        };
    }

    private static Optional<ColumnStats> chunkStats(ParquetColumn column, Statistics statistics) {
        if (column.type().isEmpty()) {
            return Optional.empty();
        }
        long nullCount = statistics.isSetNull_count() ? statistics.getNull_count() : -1;
        Object min = null;
        Object max = null;
        if (statistics.isSetMin_value() && statistics.isSetMax_value()) {
            min = decodeValue(column, ByteBuffer.wrap(statistics.getMin_value()));
            max = decodeValue(column, ByteBuffer.wrap(statistics.getMax_value()));
        } else if (statistics.isSetMin() && statistics.isSetMax() && column.type().get() != ColumnType.STRING
                && !isBytes(column)) {
            // The deprecated fields are in signed order: right for numbers, wrong for strings and for decimals in
            // bytes (compared as unsigned bytes).
            min = decodeValue(column, ByteBuffer.wrap(statistics.getMin()));
            max = decodeValue(column, ByteBuffer.wrap(statistics.getMax()));
        }
        if (min == null || max == null) {
            min = null;
            max = null;
        }
        return Optional.of(new ColumnStats(column.type().get(), min, max, nullCount));
    }

    /** A plain-encoded statistics value as its metadata type, or null when the bytes do not fit the type. */
    static Object decodeValue(ParquetColumn column, ByteBuffer bytes) {
        ByteBuffer le = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int n = le.remaining();
        return switch (column.physicalType()) {
            case INT32 -> n == 4 ? (Object) (long) le.getInt(le.position()) : null;
            case INT64 -> n == 8 ? (Object) le.getLong(le.position()) : null;
            case FLOAT -> n == 4 ? (Object) (double) le.getFloat(le.position()) : null;
            case DOUBLE -> n == 8 ? (Object) le.getDouble(le.position()) : null;
            case BOOLEAN -> n == 1 ? (Object) (le.get(le.position()) != 0) : null;
            case BINARY -> column.type().orElse(null) == ColumnType.STRING ? StandardCharsets.UTF_8.decode(le)
                    .toString() : column.type().isPresent() ? bigEndianLong(bytes) : null;
            case FIXED_LEN_BYTE_ARRAY -> column.type().isPresent() ? bigEndianLong(bytes) : null;
            default -> null;
        };
    }

    private static boolean isBytes(ParquetColumn column) {
        return column.physicalType() == PrimitiveTypeName.BINARY
                || column.physicalType() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
    }

    /**
     * A DECIMAL's unscaled integer from its big-endian two's complement bytes, or null when it does not fit 64 bits.
     * Bytes before the last eight are accepted when they only extend the sign (0x00 before a last eight whose top
     * bit is clear, 0xFF before one whose top bit is set), as writers pad a value to a fixed width or to the width
     * of the column's precision; any other leading byte means the value needs more than 64 bits.
     */
    static Long bigEndianLong(ByteBuffer bytes) {
        int start = bytes.position();
        int end = bytes.limit();
        if (start == end) {
            return 0L;
        }
        int first = Math.max(start, end - 8);
        byte sign = (byte) (bytes.get(first) >> 7);   // 0x00 or 0xFF: what the last eight bytes extend to
        for (int i = start; i < first; i++) {
            if (bytes.get(i) != sign) {
                return null;
            }
        }
        long value = bytes.get(first);   // sign-extended
        for (int i = first + 1; i < end; i++) {
            value = (value << 8) | (bytes.get(i) & 0xff);
        }
        return value;
    }

    private static Optional<ByteRange> pageIndexRange(List<RowGroupInfo> rowGroups) {
        ByteRange span = null;
        for (RowGroupInfo rowGroup : rowGroups) {
            for (ColumnChunkInfo chunk : rowGroup.columns()) {
                for (Optional<ByteRange> index : List.of(chunk.offsetIndexRange(), chunk.columnIndexRange())) {
                    if (index.isPresent()) {
                        span = span == null ? index.get() : span.span(index.get());
                    }
                }
            }
        }
        return Optional.ofNullable(span);
    }
}
