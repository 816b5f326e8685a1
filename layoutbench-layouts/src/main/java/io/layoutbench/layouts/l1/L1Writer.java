package io.layoutbench.layouts.l1;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.LocalTable;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.PayloadColumns;
import io.layoutbench.layouts.common.WriteTarget;
import io.layoutbench.parquet.ParquetTableSchema;

import java.util.Map;

/** Writes L1: each sample as its own object, metadata rows into a local Parquet file uploaded at commit. */
final class L1Writer extends GenerationalDatasetWriter {

    static final String SAMPLES = "samples/";
    static final String METADATA = "metadata.parquet";

    private final PayloadColumns payload;
    private final LocalTable metadata;

    L1Writer(ObjectBackend backend, WriteTarget target, MetadataSchema schema) {
        super(L1Layout.NAME, L1Layout.FORMAT_VERSION, backend, target, schema);
        ParquetTableSchema tableSchema = tableSchema(schema);
        this.payload = PayloadColumns.of(schema);
        this.metadata = LocalTable.create("layoutbench-l1-", tableSchema);
    }

    /**
     * The metadata table: the metadata columns (paper names), then each payload field's checksum and size
     * ({@link PayloadColumns}).
     */
    static ParquetTableSchema tableSchema(MetadataSchema schema) {
        return PayloadColumns.of(schema).addChecksumsAndSizes(MetadataParquet.paperNames(schema)).build();
    }

    /** The object of field {@code field} of sample {@code key}, relative to the ingest's generation. */
    static String sampleObject(PayloadColumns payload, String key, int field) {
        return SAMPLES + key + payload.suffix(field);
    }

    @Override
    protected void addSample(Sample sample, String key, int[] checksums) {
        for (int f = 0; f < payload.count(); f++) {
            Blob blob = sample.fields().get(payload.field(f));
            if (blob != null) {
                putObject(sampleObject(payload, key, f), blob, checksums[f]);   // the field's checksum is the object's
            }
        }
        metadata.write(sample.metadata(), payload.checksumsAndSizes(sample, checksums));
    }

    @Override
    protected Map<String, String> finish() {
        String key = putTable(METADATA, metadata);
        return Map.of(L1Dataset.METADATA_KEY, key, L1Dataset.SAMPLES_PREFIX, objectKey(SAMPLES));
    }

    @Override
    protected void abandon() {
        metadata.discard();
    }
}
