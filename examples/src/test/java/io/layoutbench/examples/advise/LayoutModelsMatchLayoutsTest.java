package io.layoutbench.examples.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.paper.PaperQuery;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The objects the advisor models are the objects the layouts write (tar shards to the byte, Parquet files to within
 * 1 %), and the plans it synthesizes from metadata are the plans the layouts make once the data is ingested: for
 * the eleven paper queries at tiny, both modes and several coalescing gaps, on l1, on l2 with two shard sizes and on
 * l3 with three page, row-group and file sizes.
 *
 * <p>l1 and l2 data requests match exactly, range for range. l3 data requests match one for one, in order; their
 * lengths may be off by a few bytes, because each page header holds the page's CRC32 as a varint whose length (1 to
 * 5 bytes) depends on the image bytes, which the model does not have (it counts 5), and a paper-mode read of whole
 * row groups also includes the metadata column chunks, whose sizes are replayed from the values with the checksum
 * column taken as all distinct. Cold metadata reads match in number and round trips; their sizes depend on estimated footers and
 * page indexes, and are checked to within 1 %.
 */
class LayoutModelsMatchLayoutsTest {

    static final long SEED = 42;
    static final List<Long> GAPS = List.of(0L, 4_444L, 384_000L, 4L << 20);
    static DatasetMetadata tiny;

    @BeforeAll
    static void metadata() {
        tiny = DatasetMetadata.synthetic(ImageNetScale.TINY, SEED, false);
    }

    @Test
    void l1PlansAreTheLayoutsPlans() {
        compare("l1", Map.of(), () -> new L1Model(tiny, "t"), 0);
    }

    @Test
    void l2PlansAreTheLayoutsPlansForTwoShardSizes() {
        compare("l2", Map.of("shard-size", "64MB"), () -> new L2Model(tiny, "t", 64L << 20), 0);
        compare("l2", Map.of("shard-size", "4MB"), () -> new L2Model(tiny, "t", 4L << 20), 0);
    }

    @Test
    void l3PlansMatchTheLayoutsPlansToAFewBytesPerPage() {
        compare("l3", Map.of("file-size", "64MB", "row-group-size", "128MB", "page-size", "64KB"),
                () -> new L3Model(tiny, "t", 64L << 20, 128L << 20, 64L << 10), 8);
        compare("l3", Map.of("file-size", "64MB", "row-group-size", "16MB", "page-size", "4KB"),
                () -> new L3Model(tiny, "t", 64L << 20, 16L << 20, 4L << 10), 8);
        compare("l3", Map.of("file-size", "8MB", "row-group-size", "2MB", "page-size", "256KB"),
                () -> new L3Model(tiny, "t", 8L << 20, 2L << 20, 256L << 10), 8);
    }

    /**
     * Ingests tiny with {@code options} and compares every query's real plan with the model's.
     *
     * @param bytesPerPage how many bytes a request may be off per page it spans (0: exact)
     */
    void compare(String layoutName, Map<String, String> options, Supplier<LayoutModel> model, long bytesPerPage) {
        StorageLayout layout = StorageLayouts.get(layoutName);
        try (MemoryBackend backend = new MemoryBackend()) {
            try (DatasetWriter writer = layout.create(backend, "t", options)) {
                SyntheticImageNet.of(ImageNetScale.TINY, SEED, false).samples().forEach(writer::add);
                writer.commit();
            }
            LayoutModel modelled = model.get();
            assertSameObjects(layoutName + " " + options, modelled, backend);
            try (Dataset dataset = layout.open(backend, "t")) {
                for (RetrievalMode mode : RetrievalMode.values()) {
                    for (long gap : mode == RetrievalMode.PAPER ? List.of(0L) : GAPS) {
                        // The default read budget, and none: the merges the gap alone allows.
                        for (double budget : new double[] {QueryOptions.DEFAULT_MAX_READ_AMPLIFICATION,
                                Double.POSITIVE_INFINITY}) {
                            for (PaperQuery q : PaperQueries.forScale("tiny")) {
                                String what = layoutName + " " + options + " " + mode + " gap " + gap + " budget "
                                        + budget + " " + q.id();
                                QueryOptions queryOptions = QueryOptions.defaults().withMode(mode)
                                        .withCoalesceGapBytes(gap).withMaxReadAmplification(budget);
                                RetrievalPlan real = dataset.plan(q.parse(), queryOptions);
                                BoundQuery bound = q.bind(tiny.schema());
                                RetrievalPlan mine = modelled.plan(bound, bound.select(tiny.table()),
                                        queryOptions);
                                assertSame(what, mine, real, bytesPerPage);
                            }
                        }
                    }
                }
            }
        }
    }

    /** The modelled objects have the real ones' sizes: shards exactly, part files to 0.1 %, metadata tables to 1 %. */
    static void assertSameObjects(String what, LayoutModel model, MemoryBackend backend) {
        List<ObjectInfo> objects = backend.list("t/").sorted(Comparator.comparing(ObjectInfo::key)).toList();
        long realTable = objects.stream().filter(o -> o.key().endsWith("/metadata.parquet")).mapToLong(ObjectInfo::size)
                .sum();
        if (model instanceof L1Model l1) {
            assertThat((double) l1.table().bytes()).as(what + ": metadata table").isCloseTo(realTable,
                    within(realTable * 0.01));
        } else if (model instanceof L2Model l2) {
            assertThat(l2.shardBytes()).as(what + ": shards").isEqualTo(objects.stream()
                    .filter(o -> o.key().endsWith(".tar")).map(ObjectInfo::size).toList());
            assertThat((double) l2.table().bytes()).as(what + ": metadata table").isCloseTo(realTable,
                    within(realTable * 0.01));
        } else if (model instanceof L3Model l3) {
            List<Long> parts = objects.stream().filter(o -> o.key().endsWith(".parquet")).map(ObjectInfo::size)
                    .toList();
            long[] modelled = l3.partBytes();
            assertThat(modelled).as(what + ": parts").hasSize(parts.size());
            for (int i = 0; i < modelled.length; i++) {
                assertThat((double) modelled[i]).as(what + ": part " + i).isCloseTo(parts.get(i),
                        within(parts.get(i) * 0.001));
            }
        }
    }

    static void assertSame(String what, RetrievalPlan mine, RetrievalPlan real, long bytesPerPage) {
        assertThat(mine.samples()).as(what + ": samples").isEqualTo(real.samples());
        assertThat(mine.payloadBytes()).as(what + ": payload").isEqualTo(real.payloadBytes());
        assertThat(mine.dataRequests()).as(what + ": data requests").hasSameSizeAs(real.dataRequests());
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < real.dataRequests().size(); i++) {
            PlannedRequest m = mine.dataRequests().get(i);
            PlannedRequest r = real.dataRequests().get(i);
            // A request spanning many pages may be off by a few bytes per page; 128 KiB of pages is a bound.
            long pages = Math.max(1, r.bytes() / (16 << 10));
            long allowed = bytesPerPage * pages;
            if (m.kind() != r.kind() || Math.abs(m.range().length() - r.range().length()) > allowed
                    || bytesPerPage == 0 && m.range().offset() != r.range().offset()) {
                mismatches.add(i + ": " + m.kind() + " " + m.range() + " vs " + r.kind() + " " + r.range());
            }
        }
        assertThat(mismatches).as(what + ": requests that differ").isEmpty();
        long mineBytes = bytes(mine.dataRequests());
        long realBytes = bytes(real.dataRequests());
        if (bytesPerPage == 0) {
            assertThat(mineBytes).as(what + ": bytes").isEqualTo(realBytes);
        } else {
            assertThat((double) mineBytes).as(what + ": bytes").isCloseTo(realBytes, within(realBytes * 1e-5 + 64));
        }
        assertThat(mine.metadataRequests()).as(what + ": cold metadata requests")
                .hasSameSizeAs(real.metadataRequests());
        assertThat(mine.metadataRounds()).as(what + ": cold metadata round trips").isEqualTo(real.metadataRounds());
        long coldBytes = bytes(real.metadataRequests());
        assertThat((double) bytes(mine.metadataRequests())).as(what + ": cold metadata bytes")
                .isCloseTo(coldBytes, within(coldBytes * 0.01));
    }

    static long bytes(List<PlannedRequest> requests) {
        return requests.stream().mapToLong(PlannedRequest::bytes).sum();
    }
}
