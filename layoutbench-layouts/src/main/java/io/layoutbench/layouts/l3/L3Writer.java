package io.layoutbench.layouts.l3;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.PayloadColumns;
import io.layoutbench.layouts.common.TempFiles;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.ParquetTableWriter;
import io.layoutbench.parquet.ParquetWriteOptions;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes L3: rows go into a local Parquet part file; before a row would take the file past the file-size limit
 * the file is finished (last row group, page indexes, footer), uploaded as {@code part-NNNNN.parquet} and a new
 * one started. A part always holds at least one row, so a sample larger than the limit makes a larger part.
 */
final class L3Writer extends GenerationalDatasetWriter {

    /** Manifest property: the number of part files. */
    static final String PARTS = "parts";
    /** Bytes a finished file adds beyond the row data: page indexes and footer (a few KB at 1 MiB pages). */
    static final long FOOTER_RESERVE = 64L << 10;
    /** Bytes a row adds beyond its blob, at most: the blob's length prefix and the metadata values. */
    static final long ROW_RESERVE = 1L << 10;

    private final long fileSize;
    private final ParquetTableSchema tableSchema;
    private final ParquetWriteOptions writeOptions;
    private final PayloadColumns payload;
    private final Map<String, String> properties = new LinkedHashMap<>();
    private Path partFile;
    private ParquetTableWriter part;
    private int partCount;

    L3Writer(ObjectBackend backend, String prefix, MetadataSchema schema, L3Layout.Settings settings) {
        super(L3Layout.NAME, L3Layout.FORMAT_VERSION, backend, prefix, schema);
        long fileSize = settings.fileSize();
        long rowGroupSize = settings.rowGroupSize();
        long pageSize = settings.pageSize();
        this.fileSize = fileSize;
        this.tableSchema = tableSchema(schema);
        this.payload = PayloadColumns.of(schema);
        this.writeOptions = ParquetWriteOptions.defaults().withRowGroupSize(rowGroupSize)
                .withPageSize((int) pageSize);
        properties.put(L3Layout.FILE_SIZE, Long.toString(fileSize));
        properties.put(L3Layout.ROW_GROUP_SIZE, Long.toString(rowGroupSize));
        properties.put(L3Layout.PAGE_SIZE, Long.toString(pageSize));
    }

    /**
     * The table: the metadata columns under their own names, each payload field's checksum and size (for the one
     * field {@code data}: the checksum, and the size when the schema has no {@code filesize_bytes}), then the blob
     * column: {@code image_bytes} for the one field {@code data}, else {@code payload_bytes} holding a row's fields
     * one after another in field order.
     */
    static ParquetTableSchema tableSchema(MetadataSchema schema) {
        PayloadColumns payload = PayloadColumns.of(schema);
        return payload.addChecksumsAndSizes(ParquetTableSchema.builder(schema))
                .blobColumn(payload.single() ? L3Layout.IMAGE_BYTES : L3Layout.PAYLOAD_BYTES).build();
    }

    /**
     * Whether a row of {@code size} bytes goes into a new part after {@code rows} rows whose buffered data is
     * {@code dataSize} bytes: when it would take the part past the file size with its reserves. A part holds at
     * least one row. L3's model splits its modelled parts with this too.
     */
    static boolean startsNewPart(long rows, long dataSize, long size, long fileSize) {
        return rows > 0 && dataSize + size + ROW_RESERVE + FOOTER_RESERVE > fileSize;
    }

    /** The object of part {@code index}, relative to the ingest's generation. */
    static String partObject(int index) {
        return String.format(java.util.Locale.ROOT, "part-%05d.parquet", index);
    }

    /** Manifest property naming the key of part {@code index}. */
    static String partProperty(int index) {
        return "part." + index + ".key";
    }

    @Override
    protected void addSample(Sample sample, String key, int[] checksums) {
        if (part != null && startsNewPart(part.rowCount(), part.dataSize(), sample.size(), fileSize)) {
            uploadPart();
        }
        if (part == null) {
            partFile = TempFiles.create("layoutbench-l3-part-", ".parquet");
            part = ParquetTableWriter.create(tableSchema, partFile, writeOptions);
        }
        part.write(sample.metadata(), payload.checksumsAndSizes(sample, checksums), blob(sample));
    }

    /** The row's blob: the sample's fields one after another, in the schema's field order. */
    private ByteBuffer blob(Sample sample) {
        if (sample.fields().size() == 1) {
            return sample.fields().values().iterator().next().readAll();
        }
        long size = sample.size();
        if (size > Blob.MAX_BUFFER_BYTES) {
            throw new IllegalArgumentException("Sample has " + size + " payload bytes; an l3 row holds at most "
                    + Blob.MAX_BUFFER_BYTES);
        }
        ByteBuffer blob = ByteBuffer.allocate((int) size);
        for (int f = 0; f < payload.count(); f++) {
            Blob field = sample.fields().get(payload.field(f));
            if (field != null) {
                blob.put(field.readAll());
            }
        }
        return blob.flip();
    }

    private void uploadPart() {
        try {
            part.close();
            String key = putParquet(partObject(partCount), partFile, part);
            properties.put(partProperty(partCount), key);
            partCount++;
        } finally {
            TempFiles.delete(partFile);
            part = null;
            partFile = null;
        }
    }

    @Override
    protected Map<String, String> finish() {
        if (part != null) {
            uploadPart();
        }
        properties.put(PARTS, Integer.toString(partCount));
        return properties;
    }

    @Override
    protected void abandon() {
        try {
            if (part != null) {
                part.close();
            }
        } finally {
            if (partFile != null) {
                TempFiles.delete(partFile);
            }
            part = null;
            partFile = null;
        }
    }
}
