package io.layoutbench.examples.advise;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.PaperQueries;
import io.layoutbench.api.predicate.PaperQuery;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.dataset.synthetic.ImageNetScale;
import io.layoutbench.dataset.synthetic.SyntheticImageNet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

class LayoutModelsMatchLayoutsTest {

    static final long SEED = 42;
    static DatasetMetadata tiny;

    @BeforeAll
    static void metadata() {
        tiny = DatasetMetadata.synthetic(ImageNetScale.TINY, SEED, false);
    }

    @Test
    void explore() {
        compare("l1", Map.of(), data -> new L1Model(tiny, "p"));
        compare("l2", Map.of("shard-size", "64MB"), data -> new L2Model(tiny, "p", 64L << 20));
        compare("l2", Map.of("shard-size", "4MB"), data -> new L2Model(tiny, "p", 4L << 20));
        compare("l3", Map.of("file-size", "64MB", "row-group-size", "128MB", "page-size", "64KB"),
                data -> new L3Model(tiny, "p", 64L << 20, 128L << 20, 64L << 10));
        compare("l3", Map.of("file-size", "64MB", "row-group-size", "16MB", "page-size", "16KB"),
                data -> new L3Model(tiny, "p", 64L << 20, 16L << 20, 16L << 10));
        compare("l3", Map.of("file-size", "8MB", "row-group-size", "2MB", "page-size", "256KB"),
                data -> new L3Model(tiny, "p", 8L << 20, 2L << 20, 256L << 10));
    }

    void compare(String layoutName, Map<String, String> options, Function<DatasetMetadata, LayoutModel> model) {
        StorageLayout layout = StorageLayouts.get(layoutName);
        try (MemoryBackend backend = new MemoryBackend()) {
            try (DatasetWriter writer = layout.create(backend, "t", options)) {
                SyntheticImageNet.of(ImageNetScale.TINY, SEED, false).samples().forEach(writer::add);
                writer.commit();
            }
            LayoutModel modelled = model.apply(tiny);
            System.out.println("== " + layoutName + " " + options + " " + modelled);
            for (RetrievalMode mode : RetrievalMode.values()) {
                for (long gap : List.of(0L, 4444L, 384_000L, 4L << 20)) {
                    if (mode == RetrievalMode.PAPER && gap != 0) {
                        continue;
                    }
                    for (PaperQuery q : PaperQueries.forScale("tiny")) {
                        QueryOptions queryOptions = QueryOptions.defaults().withMode(mode).withCoalesceGapBytes(gap);
                        RetrievalPlan real;
                        try (Dataset dataset = layout.open(backend, "t")) {
                            real = dataset.plan(q.parse(), queryOptions);
                        }
                        BoundQuery bound = q.bind(tiny.schema());
                        RetrievalPlan mine = modelled.plan(bound, bound.select(tiny.table()), mode, gap);
                        String line = String.format("%s %-9s gap %8d %-4s data %5d/%5d req %12d/%12d B | cold %3d/%3d req %9d/%9d B | samples %d/%d",
                                layoutName, mode, gap, q.id(), mine.dataRequests().size(), real.dataRequests().size(),
                                bytes(mine.dataRequests()), bytes(real.dataRequests()),
                                mine.metadataRequests().size(), real.metadataRequests().size(),
                                bytes(mine.metadataRequests()), bytes(real.metadataRequests()), mine.samples(), real.samples());
                        boolean same = mine.dataRequests().size() == real.dataRequests().size()
                                && bytes(mine.dataRequests()) == bytes(real.dataRequests());
                        System.out.println((same ? "   " : "XX ") + line);
                    }
                }
            }
        }
    }

    static long bytes(List<PlannedRequest> requests) {
        return requests.stream().mapToLong(PlannedRequest::bytes).sum();
    }
}
