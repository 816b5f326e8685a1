package io.layoutbench.api.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest.ReferenceWorkload;
import io.layoutbench.api.predicate.Query;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * What every layout that models itself ({@link SupportsModelling}) must do, run against each by subclassing: its
 * model, built from the reference dataset's metadata alone, plans every reference query as the written dataset
 * plans it, in both modes, at several coalescing gaps, with the default read budget and none, for each setting the
 * subclass names. Samples, payload, the number and kind of requests and their round trips match exactly; data
 * ranges match exactly unless the subclass allows some bytes per page (what a model cannot know without the
 * samples' bytes, such as a Parquet page header's CRC length); cold metadata bytes match to within
 * {@link #metadataTolerance()}.
 *
 * <pre>{@code
 * class L2ModelContractTest extends LayoutModelContractTest {
 *     protected StorageLayout layout() { return StorageLayouts.get("l2"); }
 *     protected ObjectBackend newBackend() { return new MemoryBackend(); }
 *     protected ReferenceWorkload referenceWorkload() { return ...; }
 *     protected List<Map<String, String>> settings() { return List.of(Map.of(), Map.of("shard-size", "4MB")); }
 * }
 * }</pre>
 */
public abstract class LayoutModelContractTest {

    /** Coalescing gaps: touching ranges only, about a GET's price in bytes, t3.medium's break-even, 4 MiB. */
    static final List<Long> GAPS = List.of(0L, 4_444L, 384_000L, 4L << 20);

    /** The layout under test; it must implement {@link SupportsModelling}. */
    protected abstract StorageLayout layout();

    /** A new, empty backend; the contract closes it. */
    protected abstract ObjectBackend newBackend();

    /** The dataset and queries to compare plans on. */
    protected abstract ReferenceWorkload referenceWorkload();

    /** The write settings to compare, each written and modelled. */
    protected List<Map<String, String>> settings() {
        return List.of(Map.of());
    }

    /** Bytes a data request may differ by per page it spans (16 KiB of a request count as a page); 0: exact. */
    protected long bytesPerPage() {
        return 0;
    }

    /** Relative error allowed on a cold client's metadata bytes (footers and indexes are estimated). */
    protected double metadataTolerance() {
        return 0.01;
    }

    @Test
    void theModelPlansWhatTheWrittenDatasetPlans() {
        ReferenceWorkload workload = referenceWorkload();
        DatasetMetadata.Builder metadata = DatasetMetadata.builder("reference", workload.schema());
        List<Sample> samples = new ArrayList<>();
        for (Iterator<Sample> it = workload.samples().get(); it.hasNext(); ) {
            Sample sample = it.next();
            samples.add(sample);
            metadata.add(sample.metadata(), sample.size());
        }
        DatasetMetadata data = metadata.build();
        SupportsModelling modelling = (SupportsModelling) layout();
        for (Map<String, String> options : settings()) {
            LayoutModel model = modelling.model(data, options);
            assertThat(model.layout()).isEqualTo(layout().name());
            try (ObjectBackend backend = newBackend()) {
                try (DatasetWriter writer = layout().create(backend, "modelled", workload.schema(), options)) {
                    samples.forEach(writer::add);
                    writer.commit();
                }
                try (Dataset dataset = layout().open(backend, "modelled")) {
                    compare(workload, options, model, dataset);
                }
            }
        }
    }

    private void compare(ReferenceWorkload workload, Map<String, String> options, LayoutModel model,
            Dataset dataset) {
        for (RetrievalMode mode : RetrievalMode.values()) {
            for (long gap : mode == RetrievalMode.PAPER ? List.of(0L) : GAPS) {
                for (double budget : new double[] {QueryOptions.DEFAULT_MAX_READ_AMPLIFICATION,
                        Double.POSITIVE_INFINITY}) {
                    QueryOptions queryOptions = QueryOptions.defaults().withMode(mode).withCoalesceGapBytes(gap)
                            .withMaxReadAmplification(budget);
                    for (Map.Entry<String, String> q : workload.queries().entrySet()) {
                        Query query = Query.parse(q.getValue(), workload.schema());
                        String what = layout().name() + " " + options + " " + mode + " gap " + gap + " budget "
                                + budget + " " + q.getKey();
                        assertSamePlan(what, model.plan(query, queryOptions), dataset.plan(query, queryOptions));
                    }
                }
            }
        }
    }

    private void assertSamePlan(String what, RetrievalPlan mine, RetrievalPlan real) {
        assertThat(mine.samples()).as(what + ": samples").isEqualTo(real.samples());
        assertThat(mine.payloadBytes()).as(what + ": payload").isEqualTo(real.payloadBytes());
        assertThat(mine.dataRequests()).as(what + ": data requests").hasSameSizeAs(real.dataRequests());
        long bytesPerPage = bytesPerPage();
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < real.dataRequests().size(); i++) {
            PlannedRequest m = mine.dataRequests().get(i);
            PlannedRequest r = real.dataRequests().get(i);
            long allowed = bytesPerPage * Math.max(1, r.bytes() / (16 << 10));
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
                .isCloseTo(coldBytes, within(coldBytes * metadataTolerance()));
    }

    private static long bytes(List<PlannedRequest> requests) {
        return requests.stream().mapToLong(PlannedRequest::bytes).sum();
    }
}
