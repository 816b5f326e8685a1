package io.layoutbench.layouts.l3;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.LocalTable;
import io.layoutbench.layouts.common.PayloadColumns;
import io.layoutbench.layouts.common.TempFiles;
import io.layoutbench.layouts.common.WriteTarget;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.ParquetTableWriter;
import io.layoutbench.parquet.ParquetWriteOptions;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes L3: rows go into a local Parquet part file; before a row would take the file past the file-size limit
 * the file is finished (last row group, page indexes, footer), uploaded as {@code part-NNNNN.parquet} and a new
 * one started. A part always holds at least one row, so a sample larger than the limit makes a larger part. With
 * {@link L3Layout#METADATA_FILE} each row's metadata columns also go into the part's metadata file, uploaded as
 * {@code metadata-NNNNN.parquet} after its part.
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
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private final PayloadColumns payload;
    private final long blobThreshold;
    private final ParquetTableSchema outOfLineSchema;
    private boolean outOfLine;
    private BlobFile blobs;
    private final Map<String, String> properties = new LinkedHashMap<>();
    private Path partFile;
    private ParquetTableWriter part;
    private final boolean writesMetadataFile;
    /** The current part's metadata file, when the settings ask for one. */
    private LocalTable metadataFile;
    private int partCount;

    L3Writer(ObjectBackend backend, WriteTarget target, MetadataSchema schema, L3Layout.Settings settings) {
        super(L3Layout.NAME, L3Layout.FORMAT_VERSION, backend, target, schema);
        long fileSize = settings.fileSize();
        long rowGroupSize = settings.rowGroupSize();
        long pageSize = settings.pageSize();
        this.fileSize = fileSize;
        this.tableSchema = tableSchema(schema);
        this.payload = PayloadColumns.of(schema);
        this.blobThreshold = settings.blobThreshold();
        this.outOfLineSchema = tableSchema(schema, true);
        this.writesMetadataFile = settings.metadataFile();
        this.writeOptions = ParquetWriteOptions.defaults().withRowGroupSize(rowGroupSize)
                .withPageSize((int) pageSize);
        properties.putAll(settingsProperties(settings));
    }

    /** The manifest properties recording {@code settings}. */
    static Map<String, String> settingsProperties(L3Layout.Settings settings) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(L3Layout.FILE_SIZE, Long.toString(settings.fileSize()));
        properties.put(L3Layout.ROW_GROUP_SIZE, Long.toString(settings.rowGroupSize()));
        properties.put(L3Layout.PAGE_SIZE, Long.toString(settings.pageSize()));
        properties.put(L3Layout.BLOB_THRESHOLD, Long.toString(settings.blobThreshold()));
        if (settings.metadataFile()) {
            properties.put(L3Layout.METADATA_FILE, "true");
        }
        return properties;
    }

    /**
     * The table: the metadata columns under their own names, each payload field's checksum and size (for the one
     * field {@code data}: the checksum, and the size when the schema has no {@code filesize_bytes}), then the blob
     * columns: {@code image_bytes} for the one field {@code data}, else {@code <f>_bytes} per field (empty where a
     * sample lacks the field or it is stored out of line), so a query reads the pages of the fields it asks for.
     */
    static ParquetTableSchema tableSchema(MetadataSchema schema) {
        return tableSchema(schema, false);
    }

    /**
     * The table of a part with fields stored out of line ({@code outOfLine}): each field's {@link
     * PayloadColumns#blobOffset} column follows its checksum and size, before the blob columns.
     */
    static ParquetTableSchema tableSchema(MetadataSchema schema, boolean outOfLine) {
        PayloadColumns payload = PayloadColumns.of(schema);
        ParquetTableSchema.Builder table = metadataColumns(schema, outOfLine);
        if (payload.single()) {
            return table.blobColumn(L3Layout.IMAGE_BYTES).build();
        }
        for (int f = 0; f < payload.count(); f++) {
            table.blobColumn(payload.blobColumn(f));
        }
        return table.build();
    }

    /**
     * The table of a part's metadata file: the part's columns ({@link #tableSchema(MetadataSchema, boolean)}) but
     * the blob columns.
     */
    static ParquetTableSchema metadataFileSchema(MetadataSchema schema, boolean outOfLine) {
        return metadataColumns(schema, outOfLine).build();
    }

    private static ParquetTableSchema.Builder metadataColumns(MetadataSchema schema, boolean outOfLine) {
        PayloadColumns payload = PayloadColumns.of(schema);
        ParquetTableSchema.Builder table = payload.addChecksumsAndSizes(ParquetTableSchema.builder(schema));
        if (outOfLine) {
            for (int f = 0; f < payload.count(); f++) {
                table.extraColumn(payload.blobOffset(f), ColumnType.BIGINT);
            }
        }
        return table;
    }

    /** The metadata file of part {@code index}, relative to the ingest's generation; not a {@code part-*} name. */
    static String metadataObject(int index) {
        return String.format(java.util.Locale.ROOT, "metadata-%05d.parquet", index);
    }

    /**
     * The key of the metadata file of the part stored as {@code partKey}: beside it, {@code part-} replaced by
     * {@code metadata-} (in a distributed write too, whose parts keep their names and directories).
     */
    static String metadataKeyOf(String partKey) {
        int slash = partKey.lastIndexOf('/');
        String name = partKey.substring(slash + 1);
        return partKey.substring(0, slash + 1) + (name.startsWith("part-") ? "metadata-" + name.substring(5) : name);
    }

    /** Manifest property naming the key of part {@code index}'s metadata file. */
    static String metadataProperty(int index) {
        return "part." + index + ".metadata.key";
    }

    /** The blob file of part {@code index}, relative to the ingest's generation. */
    static String blobsObject(int index) {
        return String.format(java.util.Locale.ROOT, "part-%05d.blobs", index);
    }

    /** Manifest property naming the key of part {@code index}'s blob file. */
    static String blobsProperty(int index) {
        return "part." + index + ".blobs.key";
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
        boolean large = false;
        long inline = 0;
        for (Blob field : sample.fields().values()) {
            if (field.size() >= blobThreshold) {
                large = true;
            } else {
                inline += field.size();
            }
        }
        if (large && !outOfLine) {
            // From the first large field on, parts carry the out-of-line columns (earlier parts stay as written).
            if (part != null) {
                uploadPart();
            }
            outOfLine = true;
        }
        if (part != null && startsNewPart(part.rowCount(), part.dataSize(), inline, fileSize)) {
            uploadPart();
        }
        if (part == null) {
            partFile = TempFiles.create("layoutbench-l3-part-", ".parquet");
            part = ParquetTableWriter.create(outOfLine ? outOfLineSchema : tableSchema, partFile,
                    writeOptions);
            if (writesMetadataFile) {
                metadataFile = LocalTable.create("layoutbench-l3-metadata-", metadataFileSchema(schema, outOfLine));
            }
        }
        List<Object> extras = payload.checksumsAndSizes(sample, checksums);
        if (outOfLine) {
            for (int f = 0; f < payload.count(); f++) {
                Blob field = sample.fields().get(payload.field(f));
                extras.add(field != null && field.size() >= blobThreshold ? blobs().append(field) : null);
            }
        }
        part.writeRow(sample.metadata(), extras, blobs(sample));
        if (metadataFile != null) {
            metadataFile.write(sample.metadata(), extras);
        }
    }

    /**
     * The row's blobs, one per blob column: each field below the blob threshold, empty for a field the sample lacks
     * or one stored out of line.
     */
    private List<ByteBuffer> blobs(Sample sample) {
        List<ByteBuffer> blobs = new ArrayList<>(payload.count());
        for (int f = 0; f < payload.count(); f++) {
            Blob field = sample.fields().get(payload.field(f));
            blobs.add(field != null && field.size() < blobThreshold ? field.readAll() : EMPTY);
        }
        return blobs;
    }

    /** The current part's blob file, created on first use. */
    private BlobFile blobs() {
        if (blobs == null) {
            blobs = new BlobFile(TempFiles.create("layoutbench-l3-blobs-", ".blobs"));
        }
        return blobs;
    }

    private void uploadPart() {
        try {
            part.close();
            String key = putParquet(partObject(partCount), partFile, part);
            properties.put(partProperty(partCount), key);
            if (metadataFile != null) {
                LocalTable table = metadataFile;
                metadataFile = null;   // stored, or deleted by putTable if that fails
                properties.put(metadataProperty(partCount), putTable(metadataObject(partCount), table));
            }
            if (blobs != null) {
                blobs.close();
                properties.put(blobsProperty(partCount), putObject(blobsObject(partCount), blobs.file,
                        blobs.crc32c()));
            }
            partCount++;
        } finally {
            TempFiles.delete(partFile);
            part = null;
            partFile = null;
            if (blobs != null) {
                TempFiles.delete(blobs.file);
                blobs = null;
            }
            discardMetadataFile();
        }
    }

    private void discardMetadataFile() {
        if (metadataFile != null) {
            LocalTable table = metadataFile;
            metadataFile = null;
            table.discard();
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
            if (blobs != null) {
                blobs.close();
            }
        } finally {
            if (partFile != null) {
                TempFiles.delete(partFile);
            }
            if (blobs != null) {
                TempFiles.delete(blobs.file);
            }
            part = null;
            partFile = null;
            blobs = null;
            discardMetadataFile();
        }
    }

    /** A part's blob file being written: large fields one after another, streamed, checksummed as written. */
    private static final class BlobFile implements java.io.Closeable {
        final Path file;
        private final java.io.OutputStream out;
        private final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        private long size;

        BlobFile(Path file) {
            this.file = file;
            try {
                this.out = new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(file), 1 << 16);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("Cannot create blob file " + file, e);
            }
        }

        /** Appends {@code field} and returns where it starts. */
        long append(Blob field) {
            long offset = size;
            try (java.io.InputStream in = field.openStream()) {
                byte[] buffer = new byte[1 << 16];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    out.write(buffer, 0, n);
                    crc.update(buffer, 0, n);
                    size += n;
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("Cannot append " + field + " to blob file " + file, e);
            }
            if (size - offset != field.size()) {
                throw new IllegalStateException(field + " gave " + (size - offset) + " bytes, not its "
                        + field.size());
            }
            return offset;
        }

        int crc32c() {
            return (int) crc.getValue();
        }

        @Override
        public void close() {
            try {
                out.close();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("Cannot write blob file " + file, e);
            }
        }
    }
}
