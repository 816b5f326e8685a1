package io.layoutbench.layouts.l2;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The objects L2's model lays out are the objects its writer writes: shards exactly. */
class L2ModelTest {

    @Test
    void modelledObjectsHaveTheWrittenSizes() {
        SyntheticImageNet tiny = SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
        Map<String, String> options = Map.of("shard-size", "4MB");
        L2Model model = (L2Model) new L2Layout().model(tiny.datasetMetadata("tiny"), options);
        List<Long> real;
        try (MemoryBackend backend = new MemoryBackend()) {
            try (DatasetWriter writer = new L2Layout().create(backend, "t", tiny.schema(), options)) {
                tiny.samples().forEach(writer::add);
                writer.commit();
            }
            real = backend.list("t/")
                    .filter(o -> o.key().endsWith(".tar") && !o.key().endsWith("metadata.parquet"))
                    .sorted(Comparator.comparing(ObjectInfo::key)).map(ObjectInfo::size).toList();
        }
        List<Long> modelled = model.shardBytes();
        assertThat(modelled).as("shard sizes").isEqualTo(real);
    }
}
