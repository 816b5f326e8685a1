package io.layoutbench.layouts.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

class ArrowBatchesTest {

    @Test
    void batchesCarryMetadataAndBytesOfEverySampleInOrder() {
        SyntheticImageNet data = SyntheticImageNet.of(ImageNetScale.TINY, 5, false);
        MemoryBackend backend = new MemoryBackend();
        try (DatasetWriter writer = StorageLayouts.get("l2").create(backend, "ds", MetadataSchema.imageNet(),
                Map.of())) {
            data.samples().limit(300).forEach(writer::add);
            writer.commit();
        }
        Query query = Query.parse("filesize_bytes > 50000");
        List<Integer> batchSizes = new ArrayList<>();
        List<String> filenames = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        long bytesChecked = 0;
        try (Dataset dataset = StorageLayouts.get("l2").open(backend, "ds");
             BufferAllocator allocator = new RootAllocator();
             ArrowBatches batches = ArrowBatches.of(dataset.query(query, QueryOptions.defaults()), dataset.schema(),
                     allocator, 64)) {
            while (batches.hasNext()) {
                VectorSchemaRoot batch = batches.next();
                batchSizes.add(batch.getRowCount());
                VarCharVector names = (VarCharVector) batch.getVector("filename");
                BigIntVector fileSizes = (BigIntVector) batch.getVector("filesize_bytes");
                VarBinaryVector images = (VarBinaryVector) batch.getVector(ArrowBatches.DATA_COLUMN);
                for (int i = 0; i < batch.getRowCount(); i++) {
                    filenames.add(new String(names.get(i), java.nio.charset.StandardCharsets.UTF_8));
                    sizes.add(fileSizes.get(i));
                    assertThat((long) images.get(i).length).isEqualTo(fileSizes.get(i));
                    bytesChecked += images.get(i).length;
                }
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            if (data.metadata(i).getLong("filesize_bytes") > 50000) {
                expected.add(data.metadata(i).getString("filename"));
            }
        }
        assertThat(filenames).containsExactlyElementsOf(expected);
        assertThat(batchSizes.subList(0, batchSizes.size() - 1)).allMatch(n -> n == 64);
        assertThat(bytesChecked).isPositive();
    }
}
