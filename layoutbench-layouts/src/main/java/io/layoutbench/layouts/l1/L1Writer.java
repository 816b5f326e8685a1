package io.layoutbench.layouts.l1;

import io.layoutbench.api.backend.ObjectBackend;
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

    private final ParquetTableSchema tableSchema;
    private final Path metadataFile;
    private final ParquetTableWriter metadata;

    L1Writer(ObjectBackend backend, String prefix, MetadataSchema schema) {
        super(L1Layout.NAME, L1Layout.FORMAT_VERSION, backend, prefix, schema);
        this.tableSchema = tableSchema(schema);
        this.metadataFile = TempFiles.create("layoutbench-l1-", ".parquet");
        this.metadata = ParquetTableWriter.create(tableSchema, metadataFile, ParquetWriteOptions.defaults());
    }

    static ParquetTableSchema tableSchema(MetadataSchema schema) {
        return MetadataParquet.paperNames(schema).build();
    }

    @Override
    protected void addSample(Sample sample, int crc32c) {
        byte[] bytes = sample.toByteArray();
        putObject(SAMPLES + sample.filename(), bytes);
        metadata.write(sample.metadata(), List.of(MetadataParquet.stored(crc32c)), null);
    }

    @Override
    protected Map<String, String> finish() {
        metadata.close();
        try {
            String key = putObject(METADATA, metadataFile);
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
