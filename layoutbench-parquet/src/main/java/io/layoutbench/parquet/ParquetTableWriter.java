package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes a Parquet table of {@link MetadataRow}s, optional extra values and an optional blob per row, one row at a
 * time, holding at most about one row group in memory. The file is readable by DuckDB, parquet-java and Arrow, and
 * by {@link ParquetObject} from an object store. Needs no Hadoop at run time.
 *
 * <p>The layout of the file follows {@link ParquetTableSchema} (column types, names, blob column last) and
 * {@link ParquetWriteOptions} (row-group and page sizes). Pages are uncompressed; column and offset indexes are
 * written; the blob column has an offset index only.
 *
 * <p>Not thread-safe: one thread writes. Errors are {@link UncheckedIOException}s naming the output.
 *
 * <pre>{@code
 * ParquetTableSchema schema = ParquetTableSchema.builder(MetadataSchema.imageNet()).blobColumn("image_bytes").build();
 * Path file = Files.createTempFile("l3-", ".parquet");
 * try (ParquetTableWriter writer = ParquetTableWriter.create(schema, file, ParquetWriteOptions.defaults())) {
 *     for (Sample sample : samples) {
 *         writer.write(sample.metadata(), List.of(), sample.data());
 *     }
 * }
 * backend.put("l3/part-00000.parquet", file);
 * }</pre>
 */
public final class ParquetTableWriter implements Closeable {

    private final ParquetTableSchema schema;
    private final ParquetWriter<TableRow> writer;
    private final String target;
    private final ChecksummedOutputFile output;
    private long rowCount;
    private boolean closed;

    private ParquetTableWriter(ParquetTableSchema schema, OutputFile file, ParquetWriteOptions options) {
        this.schema = requireNonNull(schema, "schema is null");
        requireNonNull(options, "options is null");
        this.target = file.getPath() != null ? file.getPath() : file.toString();
        this.output = new ChecksummedOutputFile(file);
        try {
            this.writer = configure(new Builder(output, new TableWriteSupport(schema, options)), schema, options)
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start writing Parquet to " + target + ": " + e.getMessage(), e);
        }
    }

    /** A writer into a new local file at {@code file}, replacing any file there. */
    public static ParquetTableWriter create(ParquetTableSchema schema, Path file, ParquetWriteOptions options) {
        return new ParquetTableWriter(schema, StreamOutputFile.of(file), options);
    }

    /**
     * A writer into {@code out}. The writer writes its bytes in order and never seeks; closing the writer flushes
     * {@code out} but does not close it.
     */
    public static ParquetTableWriter create(ParquetTableSchema schema, OutputStream out, ParquetWriteOptions options) {
        return new ParquetTableWriter(schema, StreamOutputFile.of(out, "output stream " + out), options);
    }

    /** A writer into any Parquet {@link OutputFile}. */
    public static ParquetTableWriter create(ParquetTableSchema schema, OutputFile file, ParquetWriteOptions options) {
        return new ParquetTableWriter(schema, requireNonNull(file, "file is null"), options);
    }

    /** The table's schema. */
    public ParquetTableSchema schema() {
        return schema;
    }

    /** Appends a row of a table with no extra and no blob column. */
    public void write(MetadataRow metadata) {
        write(metadata, List.of(), null);
    }

    /**
     * Appends a row.
     *
     * @param metadata    the row's metadata, of the table's metadata schema
     * @param extraValues one value per extra column, in order (null for SQL NULL; {@code Integer} is widened to
     *                    {@code Long})
     * @param blob        the row's bytes (read from its position to its limit, not consumed), required when the
     *                    table has a blob column and null otherwise
     */
    public void write(MetadataRow metadata, List<?> extraValues, ByteBuffer blob) {
        if ((blob == null) != schema.blobColumns().isEmpty()) {
            throw new IllegalArgumentException("Row " + rowCount + " of " + target + (blob == null
                    ? " has no blob but the table has the blob column" + (schema.blobColumns().size() == 1
                            ? " " + schema.blobColumns().get(0) : "s " + schema.blobColumns())
                    : " has a blob but the table has no blob column"));
        }
        writeRow(metadata, extraValues, blob == null ? List.of() : List.of(blob));
    }

    /**
     * Appends a row with a blob for each blob column, in order (each read from its position to its limit, not
     * consumed; an empty buffer for an empty value).
     */
    public void writeRow(MetadataRow metadata, List<?> extraValues, List<ByteBuffer> blobs) {
        requireNonNull(metadata, "metadata is null");
        requireNonNull(blobs, "blobs is null");
        requireNonNull(extraValues, "extraValues is null");
        if (closed) {
            throw new IllegalStateException("Writer of " + target + " is closed");
        }
        if (metadata.schema() != schema.metadata() && !metadata.schema().equals(schema.metadata())) {
            throw new IllegalArgumentException("Row " + rowCount + " of " + target + " has columns ["
                    + metadata.schema().describeColumns() + "] but the table has [" + schema.metadata()
                    .describeColumns() + "]");
        }
        List<Column> extras = schema.extraColumns();
        if (extraValues.size() != extras.size()) {
            throw new IllegalArgumentException("Row " + rowCount + " of " + target + " has " + extraValues.size()
                    + " extra values but the table has extra columns " + extras);
        }
        List<Object> checked = new ArrayList<>(extraValues.size());
        for (int i = 0; i < extras.size(); i++) {
            checked.add(checkExtra(extras.get(i), extraValues.get(i)));
        }
        if (blobs.size() != schema.blobColumns().size()) {
            throw new IllegalArgumentException("Row " + rowCount + " of " + target + " has " + blobs.size()
                    + " blobs but the table has the blob columns " + schema.blobColumns());
        }
        for (ByteBuffer blob : blobs) {
            requireNonNull(blob, "a blob of row " + rowCount + " is null");
        }
        try {
            writer.write(new TableRow(metadata, checked, List.copyOf(blobs)));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write row " + rowCount + " to " + target + ": "
                    + e.getMessage(), e);
        }
        rowCount++;
    }

    /** Rows written so far. */
    public long rowCount() {
        return rowCount;
    }

    /** Bytes written so far plus those buffered for the current row group. */
    public long dataSize() {
        return writer.getDataSize();
    }

    /**
     * The CRC32C of every byte written, computed as they were written: once closed, the whole file's checksum, which
     * a manifest records so that readers can check the file without reading it twice at ingest.
     */
    public int crc32c() {
        return output.crc32c();
    }

    /** Bytes written to the file so far; once closed, its size. */
    public long bytesWritten() {
        return output.bytesWritten();
    }

    /** Writes the last row group, the page indexes and the footer. Closing twice does nothing. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot finish writing Parquet to " + target + ": " + e.getMessage(), e);
        }
    }

    private Object checkExtra(Column column, Object value) {
        if (value == null) {
            return null;
        }
        if (column.type() == ColumnType.BIGINT && (value instanceof Integer || value instanceof Short
                || value instanceof Byte)) {
            return ((Number) value).longValue();
        }
        if (column.type() == ColumnType.DOUBLE && value instanceof Float f) {
            return f.doubleValue();
        }
        if (!column.type().javaType().isInstance(value)) {
            throw new IllegalArgumentException("Extra column '" + column.name() + "' is " + column.type()
                    + " but row " + rowCount + " of " + target + " gives " + value + " ("
                    + value.getClass().getSimpleName() + ")");
        }
        return value;
    }

    private static Builder configure(Builder builder, ParquetTableSchema schema, ParquetWriteOptions options) {
        builder.withConf(new PlainParquetConfiguration())
                .withCodecFactory(UncompressedCodecFactory.INSTANCE)
                .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .withWriterVersion(WriterVersion.PARQUET_1_0)
                .withRowGroupSize(options.rowGroupSize())
                .withPageSize(options.pageSize())
                .withDictionaryPageSize(options.dictionaryPageSize())
                .withDictionaryEncoding(true);   // key-value metadata comes from the write support's context
        schema.blobColumns().forEach(blob -> builder
                .withDictionaryEncoding(blob, false)
                .withStatisticsEnabled(blob, false)       // no min/max of image bytes, hence no column index
                .withSizeStatisticsEnabled(blob, false)
                .withBloomFilterEnabled(blob, false)
                // By default page and row-group sizes are checked at most every 100 rows, and the next check is
                // estimated from the rows so far: ~110 KB blobs would make ~10 MB pages, and a small first blob
                // an oversized first page and row group. Checking after every row costs a loop over the columns.
                .withMinRowCountForPageSizeCheck(1)
                .withMaxRowCountForPageSizeCheck(1));
        return builder;
    }

    /** An {@link OutputFile} that checksums (CRC32C) and counts the bytes its stream writes. */
    private static final class ChecksummedOutputFile implements OutputFile {
        private final OutputFile delegate;
        private final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        private long bytes;

        ChecksummedOutputFile(OutputFile delegate) {
            this.delegate = delegate;
        }

        synchronized int crc32c() {
            return (int) crc.getValue();
        }

        synchronized long bytesWritten() {
            return bytes;
        }

        private synchronized void update(byte[] b, int off, int len) {
            crc.update(b, off, len);
            bytes += len;
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) throws IOException {
            return new Stream(delegate.create(blockSizeHint));
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
            return new Stream(delegate.createOrOverwrite(blockSizeHint));
        }

        @Override
        public boolean supportsBlockSize() {
            return delegate.supportsBlockSize();
        }

        @Override
        public long defaultBlockSize() {
            return delegate.defaultBlockSize();
        }

        @Override
        public String getPath() {
            return delegate.getPath();
        }

        @Override
        public String toString() {
            return delegate.toString();
        }

        private final class Stream extends PositionOutputStream {
            private final PositionOutputStream out;

            Stream(PositionOutputStream out) {
                this.out = out;
            }

            @Override
            public long getPos() throws IOException {
                return out.getPos();
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                update(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                update(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.close();
            }
        }
    }

    /** A row as the write support sees it. */
    record TableRow(MetadataRow metadata, List<Object> extras, List<ByteBuffer> blobs) {
    }

    private static final class Builder extends ParquetWriter.Builder<TableRow, Builder> {
        private final TableWriteSupport writeSupport;

        Builder(OutputFile file, TableWriteSupport writeSupport) {
            super(file);
            this.writeSupport = writeSupport;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        @Deprecated
        protected WriteSupport<TableRow> getWriteSupport(Configuration conf) {
            return writeSupport;
        }

        @Override
        protected WriteSupport<TableRow> getWriteSupport(ParquetConfiguration conf) {
            return writeSupport;
        }
    }

    /** Turns a {@link TableRow} into Parquet record events; fields that are null are left out (SQL NULL). */
    private static final class TableWriteSupport extends WriteSupport<TableRow> {
        private final ParquetTableSchema schema;
        private final MessageType messageType;
        private final Map<String, String> keyValueMetadata;
        private final String[] names;
        private final ColumnType[] types;
        private RecordConsumer consumer;

        TableWriteSupport(ParquetTableSchema schema, ParquetWriteOptions options) {
            this.schema = schema;
            this.messageType = schema.messageType();
            this.keyValueMetadata = options.keyValueMetadata();
            List<ColumnType> columnTypes = new ArrayList<>();
            schema.metadata().columns().forEach(c -> columnTypes.add(c.type()));
            schema.extraColumns().forEach(c -> columnTypes.add(c.type()));
            this.names = schema.physicalNames().toArray(String[]::new);
            this.types = columnTypes.toArray(ColumnType[]::new);
        }

        @Override
        @Deprecated
        public WriteContext init(Configuration configuration) {
            return init((ParquetConfiguration) null);
        }

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(messageType, keyValueMetadata);
        }

        @Override
        public String getName() {
            return "layoutbench";
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.consumer = recordConsumer;
        }

        @Override
        public void write(TableRow row) {
            consumer.startMessage();
            int metadataColumns = schema.metadata().size();
            for (int i = 0; i < types.length; i++) {
                Object value = i < metadataColumns ? row.metadata().get(i) : row.extras().get(i - metadataColumns);
                if (value != null) {
                    consumer.startField(names[i], i);
                    switch (types[i]) {
                        case STRING -> consumer.addBinary(Binary.fromString((String) value));
                        case BIGINT -> consumer.addLong((Long) value);
                        case DOUBLE -> consumer.addDouble((Double) value);
                        case BOOLEAN -> consumer.addBoolean((Boolean) value);
                    }
                    consumer.endField(names[i], i);
                }
            }
            for (int b = 0; b < row.blobs().size(); b++) {
                int index = types.length + b;
                consumer.startField(names[index], index);
                // The page writer copies the bytes at once; with statistics and dictionary off nothing keeps them.
                consumer.addBinary(Binary.fromReusedByteBuffer(row.blobs().get(b).duplicate()));
                consumer.endField(names[index], index);
            }
            consumer.endMessage();
        }
    }
}
