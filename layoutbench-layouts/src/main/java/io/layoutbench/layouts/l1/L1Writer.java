package io.layoutbench.layouts.l1;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.TempFiles;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.ParquetTableWriter;
import io.layoutbench.parquet.ParquetWriteOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Writes L1: each sample as its own object, metadata rows into a local Parquet file uploaded at commit. */
final class L1Writer extends GenerationalDatasetWriter {

    static final String SAMPLES = "samples/";
    static final String METADATA = "metadata.parquet";

    private final boolean sizeColumn;
    private final Path metadataFile;
    private final ParquetTableWriter metadata;

    L1Writer(ObjectBackend backend, String prefix, MetadataSchema schema) {
        super(L1Layout.NAME, L1Layout.FORMAT_VERSION, backend, prefix, schema);
        ParquetTableSchema tableSchema = tableSchema(schema);
        this.sizeColumn = !MetadataParquet.schemaHoldsSize(schema);
        this.metadataFile = TempFiles.create("layoutbench-l1-", ".parquet");
        this.metadata = ParquetTableWriter.create(tableSchema, metadataFile, ParquetWriteOptions.defaults());
    }

    /** The metadata table: the metadata columns (paper names), the checksum, and the size if the schema has none. */
    static ParquetTableSchema tableSchema(MetadataSchema schema) {
        ParquetTableSchema.Builder table = MetadataParquet.paperNames(schema);
        if (!MetadataParquet.schemaHoldsSize(schema)) {
            table.extraColumn(MetadataParquet.DATA_SIZE, ColumnType.BIGINT);
        }
        return table.build();
    }

    @Override
    protected void addSample(Sample sample, String key, int crc32c) {
        putObject(SAMPLES + key, sample.toByteArray(), crc32c);   // the sample's checksum is the object's
        long crc = MetadataParquet.stored(crc32c);
        metadata.write(sample.metadata(), sizeColumn ? List.of(crc, (long) sample.size()) : List.of(crc), null);
    }

    @Override
    protected Map<String, String> finish() {
        metadata.close();
        try {
            String key = putParquet(METADATA, metadataFile, metadata);
            return Map.of("metadata.key", key, "samples.prefix", objectKey(SAMPLES));
        } finally {
            TempFiles.delete(metadataFile);
        }
    }

    @Override
    protected void abandon() {
        try {
            metadata.close();
        } finally {
            TempFiles.delete(metadataFile);
        }
    }
}
