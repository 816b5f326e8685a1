package io.layoutbench.layouts.l3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The objects L3's model lays out are the objects its writer writes: part files to 0.1 %. */
class L3ModelTest {

    @Test
    void modelledObjectsHaveTheWrittenSizes() {
        SyntheticImageNet tiny = SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
        Map<String, String> options = Map.of("file-size", "8MB", "row-group-size", "2MB", "page-size", "256KB");
        L3Model model = (L3Model) new L3Layout().model(tiny.datasetMetadata("tiny"), options);
        List<Long> real;
        try (MemoryBackend backend = new MemoryBackend()) {
            try (DatasetWriter writer = new L3Layout().create(backend, "t", tiny.schema(), options)) {
                tiny.samples().forEach(writer::add);
                writer.commit();
            }
            real = backend.list("t/")
                    .filter(o -> o.key().endsWith(".parquet") && !o.key().endsWith("metadata.parquet"))
                    .sorted(Comparator.comparing(ObjectInfo::key)).map(ObjectInfo::size).toList();
        }
        long[] modelled = model.partBytes();
        assertThat(modelled).hasSize(real.size());
        for (int i = 0; i < modelled.length; i++) {
            assertThat((double) modelled[i]).as("part " + i).isCloseTo(real.get(i), within(real.get(i) * 0.001));
        }
    }

    /**
     * Paper mode reads a row group as one task, its column chunks sent at once, and the model plans the same tasks as
     * the dataset it models: the cost model counts tasks in flight, as retrieval does.
     */
    @Test
    void paperModePlansARowGroupsColumnChunksAsOneTaskInTheDatasetAndItsModel() {
        SyntheticImageNet tiny = SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
        Map<String, String> options = Map.of("file-size", "8MB", "row-group-size", "2MB", "page-size", "256KB");
        L3Model model = (L3Model) new L3Layout().model(tiny.datasetMetadata("tiny"), options);
        Query query = Query.parse("human_label = 'cello' OR human_label = 'streetcar'");
        QueryOptions paper = QueryOptions.defaults().withMode(RetrievalMode.PAPER);
        try (MemoryBackend backend = new MemoryBackend()) {
            try (DatasetWriter writer = new L3Layout().create(backend, "t", tiny.schema(), options)) {
                tiny.samples().forEach(writer::add);
                writer.commit();
            }
            try (Dataset dataset = new L3Layout().open(backend, "t")) {
                RetrievalPlan real = dataset.plan(query, paper);
                RetrievalPlan modelled = model.plan(query, paper);
                // Every column chunk of a row group: the metadata columns, the payload's checksum, and the blob.
                int chunks = tiny.schema().columns().size() + 2;
                assertThat(real.requestsPerTask()).isNotEmpty().containsOnly(chunks);
                assertThat(real.dataTasks()).allSatisfy(task -> assertThat(task).extracting(r -> r.key())
                        .containsOnly(task.get(0).key()));
                assertThat(modelled.requestsPerTask()).isEqualTo(real.requestsPerTask());
                assertThat(dataset.plan(query, QueryOptions.defaults()).requestsPerTask())
                        .as("optimized mode reads one blob column's pages: a request a task").isEmpty();
            }
        }
    }
}
