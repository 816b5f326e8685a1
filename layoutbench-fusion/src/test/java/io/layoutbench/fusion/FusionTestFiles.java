package io.layoutbench.fusion;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.ParquetTableWriter;
import io.layoutbench.parquet.ParquetWriteOptions;

import java.io.ByteArrayOutputStream;
import java.util.Iterator;
import java.util.List;

/** Parquet objects for the fusion tests: the L3 table (metadata and image bytes) of a few synthetic samples. */
public final class FusionTestFiles {

    private FusionTestFiles() {
    }

    /**
     * An L3-style Parquet table of the first {@code samples} samples of the tiny synthetic ImageNet, in row groups of
     * about {@code rowGroupSize} bytes and pages of {@code pageSize}.
     */
    public static byte[] l3Table(int samples, long rowGroupSize, int pageSize) {
        ParquetTableSchema schema = ParquetTableSchema.builder(MetadataSchema.imageNet()).blobColumn("image_bytes")
                .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ParquetTableWriter writer = ParquetTableWriter.create(schema, out, ParquetWriteOptions.defaults()
                .withRowGroupSize(rowGroupSize).withPageSize(pageSize))) {
            Iterator<Sample> source = SyntheticImageNet.of(ImageNetScale.TINY, 42, false).iterator();
            for (int i = 0; i < samples && source.hasNext(); i++) {
                Sample sample = source.next();
                writer.write(sample.metadata(), List.of(), sample.data());
            }
        }
        return out.toByteArray();
    }
}
