package io.layoutbench.api.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.LayoutModel;
import io.layoutbench.api.model.SupportsModelling;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Expressions;
import io.layoutbench.api.predicate.Query;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link StorageLayout} must do, run against each implementation by subclassing (as
 * {@code ObjectBackendContractTest} is for backends): a dataset is visible only once committed; an aborted writer
 * leaves nothing behind; unknown options are refused by name; any schema of the predicate language's types round
 * trips, without a {@code filename} or {@code filesize_bytes} column; a dataset opened before a new one replaces it
 * is read whole after the replacement commits; a reference workload (the LayoutBench
 * paper's Q1-Q11 over its ImageNet schema, given by the subclass) returns exactly what a row-at-a-time evaluation
 * of the source returns, in both retrieval modes; a plan's bytes and requests are what the query then transfers;
 * a damaged object is named in the error, or repaired (for layouts with redundancy), never returned silently; and a
 * layout that models itself ({@link SupportsModelling}) plans, from the reference dataset's metadata alone, what the
 * written dataset plans: the same samples, payload, requests and round trips, in both modes, at several coalescing
 * gaps, with the default read budget and none, data ranges exact unless {@link #modelBytesPerPage()} allows a few
 * bytes per page (what a model cannot know without the samples' bytes, such as a Parquet page header's CRC length),
 * cold metadata bytes within {@link #modelMetadataTolerance()}.
 *
 * <pre>{@code
 * class L2ContractTest extends StorageLayoutContractTest {
 *     protected StorageLayout layout() { return StorageLayouts.get("l2"); }
 *     protected ObjectBackend newBackend() { return new MemoryBackend(); }
 *     protected Map<String, String> writeOptions() { return Map.of("shard-size", "8MB"); }
 *     protected ReferenceWorkload referenceWorkload() { return ...; }
 * }
 * }</pre>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StorageLayoutContractTest {

    /** Samples of the custom-schema dataset the contract writes itself. */
    static final int CUSTOM_SAMPLES = 300;

    /**
     * The schema of the contract's own dataset: one column of each type, NULLs in some, and neither a filename nor
     * a size column, so a layout may assume nothing of the LayoutBench schema.
     */
    static final MetadataSchema CUSTOM = new MetadataSchema(List.of(new Column("speaker", ColumnType.STRING),
            new Column("seconds", ColumnType.DOUBLE), new Column("frames", ColumnType.BIGINT),
            new Column("clean", ColumnType.BOOLEAN)));

    /** Gaps the model is compared at: touching only, a GET's price in bytes, t3.medium's break-even, 4 MiB. */
    static final List<Long> MODEL_GAPS = List.of(0L, 4_444L, 384_000L, 4L << 20);

    /** Queries over {@link #CUSTOM}: equality, ranges, booleans, NULL tests, LIKE, OR, arithmetic, LIMIT. */
    static final List<String> CUSTOM_QUERIES = List.of(
            "speaker = 'alice'",
            "seconds > 2.5 AND frames < 400",
            "clean",
            "NOT clean",
            "speaker IS NULL",
            "speaker LIKE 'b%' OR seconds < 0.5",
            "frames >= 100 LIMIT 7",
            "CAST(frames AS DOUBLE) / 100 > seconds");

    /**
     * A dataset and its queries for the reference test.
     *
     * @param schema  the samples' schema
     * @param samples a fresh pass over the samples, in storage order, on each call
     * @param queries query id to SQL {@code WHERE} text (with an optional LIMIT)
     */
    public record ReferenceWorkload(MetadataSchema schema, Supplier<Iterator<Sample>> samples,
            Map<String, String> queries) {
    }

    private ObjectBackend referenceBackend;
    private List<Expected> reference;

    /** The layout under test. */
    protected abstract StorageLayout layout();

    /** A new, empty backend for one dataset; the contract closes it. */
    protected abstract ObjectBackend newBackend();

    /** The reference dataset and queries: the LayoutBench paper's Q1-Q11 over its ImageNet schema at tiny. */
    protected abstract ReferenceWorkload referenceWorkload();

    /** Options every dataset of the contract is written with; small files make a dataset span several objects. */
    protected Map<String, String> writeOptions() {
        return Map.of();
    }

    /**
     * Whether the layout reports a damaged object as an error (true), or repairs it from redundancy and returns
     * the right samples (false, as erasure coding does).
     */
    protected boolean reportsDamage() {
        return true;
    }

    /** For a layout that models itself: the write settings whose models are compared with written datasets. */
    protected List<Map<String, String>> modelSettings() {
        return List.of(writeOptions());
    }

    /**
     * For a layout that models itself: bytes a modelled data request may differ by per page it spans (16 KiB of a
     * request count as a page); 0, the default, means exact.
     */
    protected long modelBytesPerPage() {
        return 0;
    }

    /**
     * Bytes a ranged read of part of a lazily read field may transfer beyond 10% over what it asks for: 0, or the
     * whole units a store checks its checksums over (two, one at each end of the range).
     */
    protected long partialReadSlackBytes() {
        return 0;
    }

    /** Whether the layout stores samples of several payload fields (every library layout does). */
    protected boolean storesSeveralFields() {
        return true;
    }

    /** For a layout that models itself: relative error allowed on a cold client's metadata bytes. */
    protected double modelMetadataTolerance() {
        return 0.01;
    }

    @BeforeAll
    void writeReferenceDataset() {
        ReferenceWorkload workload = referenceWorkload();
        referenceBackend = newBackend();
        reference = write(referenceBackend, "reference", workload.schema(), workload.samples().get());
    }

    @AfterAll
    void closeReferenceBackend() {
        if (referenceBackend != null) {
            referenceBackend.close();
        }
    }

    @Test
    void aDatasetIsVisibleOnlyOnceCommitted() {
        try (ObjectBackend backend = newBackend()) {
            List<Sample> samples = customSamples();
            try (DatasetWriter writer = layout().create(backend, "ds", CUSTOM, writeOptions())) {
                samples.forEach(writer::add);
                assertThatThrownBy(() -> layout().open(backend, "ds")).as("open before commit")
                        .isInstanceOf(ObjectNotFoundException.class);
                DatasetSummary summary = writer.commit();
                assertThat(summary.layout()).isEqualTo(layout().name());
                assertThat(summary.sampleCount()).isEqualTo(samples.size());
                assertThat(summary.payloadBytes()).isEqualTo(samples.stream().mapToLong(Sample::size).sum());
                assertThatThrownBy(() -> writer.add(samples.get(0))).isInstanceOf(IllegalStateException.class);
            }
            try (Dataset dataset = layout().open(backend, "ds")) {
                assertThat(dataset.schema()).isEqualTo(CUSTOM);
                assertThat(dataset.summary().sampleCount()).isEqualTo(samples.size());
            }
        }
    }

    @Test
    void anAbortedWriterLeavesNothing() {
        try (ObjectBackend backend = newBackend()) {
            try (DatasetWriter writer = layout().create(backend, "ds", CUSTOM, writeOptions())) {
                customSamples().forEach(writer::add);
            }
            try (Stream<ObjectInfo> left = backend.list("ds/")) {
                assertThat(left.map(ObjectInfo::key).toList()).as("objects left by an aborted writer").isEmpty();
            }
            assertThatThrownBy(() -> layout().open(backend, "ds")).isInstanceOf(ObjectNotFoundException.class);
        }
    }

    @Test
    void aDatasetOpenedBeforeAReplacementIsReadWholeAfterIt() {
        try (ObjectBackend backend = newBackend()) {
            List<Sample> first = customSamples().subList(0, 120);
            List<Sample> second = customSamples().subList(150, 300);
            List<Expected> old = write(backend, "replaced", CUSTOM, first.iterator());
            Query all = Query.of(Expressions.alwaysTrue());
            try (Dataset before = layout().open(backend, "replaced")) {
                List<Expected> replacement = write(backend, "replaced", CUSTOM, second.iterator());
                assertThat(run(before, all, RetrievalMode.OPTIMIZED)).as("a query on the dataset opened before")
                        .containsExactlyElementsOf(old);
                try (Dataset after = layout().open(backend, "replaced")) {
                    assertThat(run(after, all, RetrievalMode.OPTIMIZED)).as("a query on the dataset opened after")
                            .containsExactlyElementsOf(replacement);
                }
            }
        }
    }

    /**
     * Two ingests at one prefix at once: the first to commit wins, the other refuses to commit (a
     * {@link StorageException} saying so), and the dataset at rest is the winner's, whole; the loser leaves nothing.
     */
    @Test
    void twoIngestsAtOnceLeaveTheFirstCommittedWhole() {
        try (ObjectBackend backend = newBackend()) {
            List<Sample> samples = customSamples();
            write(backend, "both", CUSTOM, samples.subList(200, 230).iterator());
            List<Expected> winner = samples.subList(100, 125).stream().map(StorageLayoutContractTest::expected)
                    .toList();
            try (DatasetWriter first = layout().create(backend, "both", CUSTOM, writeOptions());
                    DatasetWriter second = layout().create(backend, "both", CUSTOM, writeOptions())) {
                samples.subList(0, 20).forEach(first::add);
                samples.subList(100, 125).forEach(second::add);
                second.commit();
                assertThatThrownBy(first::commit).as("the commit of the ingest that lost")
                        .isInstanceOf(StorageException.class).hasMessageContaining("another ingest committed there");
            }
            try (Dataset stored = layout().open(backend, "both")) {
                assertThat(run(stored, Query.of(Expressions.alwaysTrue()), RetrievalMode.OPTIMIZED))
                        .as("the dataset at rest").containsExactlyElementsOf(winner);
            }
            write(backend, "both", CUSTOM, samples.subList(0, 20).iterator());   // one at a time: a replacement
        }
    }

    /** The layout as {@link SupportsDistributedWrites}; skips the test for a layout that is not. */
    private SupportsDistributedWrites distributed() {
        assumeTrue(layout() instanceof SupportsDistributedWrites, layout().name() + " writes no parts");
        return (SupportsDistributedWrites) layout();
    }

    /** Writes {@code samples} as part {@code part} of {@code job} by {@code attempt}, committed. */
    private WrittenPart writePart(ObjectBackend backend, WriteJob job, int part, String attempt, List<Sample> samples) {
        try (PartWriter writer = distributed().openPart(backend, job, part, attempt)) {
            samples.forEach(writer::add);
            return writer.commit();
        }
    }

    /**
     * A dataset written in parts (uneven, one empty, reported out of order, beside a failed attempt and a speculative
     * duplicate whose report is dropped, as Spark's commit coordinator does) is the parts' samples in part order:
     * every reference query returns what it returns on the dataset one writer wrote, in both modes, and only the
     * reported attempts' objects remain.
     */
    @Test
    void aDatasetWrittenInPartsIsItsPartsInOrder() {
        SupportsDistributedWrites layout = distributed();
        ReferenceWorkload workload = referenceWorkload();
        List<Sample> samples = new ArrayList<>();
        workload.samples().get().forEachRemaining(samples::add);
        int n = samples.size();
        List<List<Sample>> parts = List.of(samples.subList(0, n / 5), samples.subList(n / 5, n / 5),
                samples.subList(n / 5, n / 2), samples.subList(n / 2, n));
        try (ObjectBackend backend = newBackend()) {
            WriteJob job = layout.startJob(backend, "parts", workload.schema(), writeOptions());
            try (PartWriter failed = layout.openPart(backend, job, 2, "failed")) {
                parts.get(2).subList(0, 3).forEach(failed::add);   // a task that dies: closed without commit
            }
            writePart(backend, job, 3, "speculative", parts.get(3));   // loses the race: its report is dropped
            List<WrittenPart> reported = new ArrayList<>();
            for (int p = parts.size() - 1; p >= 0; p--) {
                reported.add(writePart(backend, job, p, "attempt-" + p, parts.get(p)));
            }
            assertThatThrownBy(() -> layout().open(backend, "parts")).as("open before the job commits")
                    .isInstanceOf(ObjectNotFoundException.class);
            DatasetSummary summary = layout.commitJob(backend, job, reported);
            assertThat(summary.sampleCount()).isEqualTo(n);
            assertThat(summary.payloadBytes()).isEqualTo(samples.stream().mapToLong(Sample::size).sum());
            try (Dataset dataset = layout().open(backend, "parts");
                    Dataset single = layout().open(referenceBackend, "reference")) {
                assertThat(run(dataset, Query.of(Expressions.alwaysTrue()), RetrievalMode.OPTIMIZED))
                        .as("every sample, in order").containsExactlyElementsOf(reference);
                for (Map.Entry<String, String> q : workload.queries().entrySet()) {
                    Query query = Query.parse(q.getValue(), workload.schema());
                    for (RetrievalMode mode : RetrievalMode.values()) {
                        assertThat(run(dataset, query, mode)).as(q.getKey() + " " + mode)
                                .containsExactlyElementsOf(run(single, query, mode));
                    }
                }
            }
            try (Stream<ObjectInfo> left = backend.list("parts/")) {
                assertThat(left.map(ObjectInfo::key).filter(k -> k.contains("-failed") || k.contains("-speculative")))
                        .as("objects of the failed and the dropped attempts").isEmpty();
            }
        }
    }

    /** A schema named by position: each part names its samples from 0, and the dataset still finds every one. */
    @Test
    void aSchemaWithoutFilenameRoundTripsInParts() {
        SupportsDistributedWrites layout = distributed();
        List<Sample> samples = customSamples();
        try (ObjectBackend backend = newBackend()) {
            WriteJob job = layout.startJob(backend, "custom", CUSTOM, writeOptions());
            List<WrittenPart> reported = List.of(writePart(backend, job, 0, "a", samples.subList(0, 100)),
                    writePart(backend, job, 1, "a", samples.subList(100, 130)),
                    writePart(backend, job, 2, "a", samples.subList(130, CUSTOM_SAMPLES)));
            layout.commitJob(backend, job, reported);
            List<Expected> written = samples.stream().map(StorageLayoutContractTest::expected).toList();
            try (Dataset dataset = layout().open(backend, "custom")) {
                for (String where : CUSTOM_QUERIES) {
                    Query query = Query.parse(where, CUSTOM);
                    for (RetrievalMode mode : RetrievalMode.values()) {
                        assertThat(run(dataset, query, mode)).as(where + " " + mode)
                                .containsExactlyElementsOf(select(written, query, CUSTOM));
                    }
                }
            }
        }
    }

    /** An aborted job leaves nothing below the prefix, and the dataset there before it is untouched. */
    @Test
    void anAbortedJobLeavesNothingAndTheDatasetBeforeIt() {
        SupportsDistributedWrites layout = distributed();
        List<Sample> samples = customSamples();
        try (ObjectBackend backend = newBackend()) {
            WriteJob job = layout.startJob(backend, "ds", CUSTOM, writeOptions());
            writePart(backend, job, 0, "a", samples.subList(0, 50));
            try (PartWriter running = layout.openPart(backend, job, 1, "a")) {
                samples.subList(50, 60).forEach(running::add);
                layout.abortJob(backend, job);
            }
            try (Stream<ObjectInfo> left = backend.list("ds/")) {
                assertThat(left.map(ObjectInfo::key).toList()).as("objects left by an aborted job").isEmpty();
            }
            List<Expected> before = write(backend, "ds", CUSTOM, samples.subList(0, 40).iterator());
            WriteJob second = layout.startJob(backend, "ds", CUSTOM, writeOptions());
            writePart(backend, second, 0, "a", samples.subList(100, 200));
            layout.abortJob(backend, second);
            try (Dataset dataset = layout().open(backend, "ds")) {
                assertThat(run(dataset, Query.of(Expressions.alwaysTrue()), RetrievalMode.OPTIMIZED))
                        .as("the dataset before the aborted job").containsExactlyElementsOf(before);
            }
            WriteJob third = layout.startJob(backend, "ds", CUSTOM, writeOptions());
            layout.commitJob(backend, third, List.of(writePart(backend, third, 0, "a", samples.subList(0, 30))));
            layout.abortJob(backend, third);   // as a coordinator does when the commit's answer was an error
            try (Dataset dataset = layout().open(backend, "ds")) {
                assertThat(dataset.summary().sampleCount()).as("a committed job, aborted after").isEqualTo(30);
                assertThat(run(dataset, Query.of(Expressions.alwaysTrue()), RetrievalMode.OPTIMIZED)).hasSize(30);
            }
        }
    }

    /**
     * A commit refuses two reports of one part, a part of another job, a sample name in two parts, and a job that
     * another ingest overtook; none of them makes anything visible.
     */
    @Test
    void aJobCommitRefusesWhatWouldDuplicateOrLoseSamples() {
        SupportsDistributedWrites layout = distributed();
        try (ObjectBackend backend = newBackend()) {
            MetadataSchema schema = MetadataSchema.imageNet();
            WriteJob job = layout.startJob(backend, "ds", schema, writeOptions());
            WrittenPart first = writePart(backend, job, 0, "a", List.of(named("a.png", 1), named("b.png", 2)));
            WrittenPart again = writePart(backend, job, 0, "b", List.of(named("a.png", 1), named("b.png", 2)));
            WrittenPart dup = writePart(backend, job, 1, "a", List.of(named("c.png", 3), named("a.png", 4)));
            assertThatThrownBy(() -> layout.commitJob(backend, job, List.of(first, again)))
                    .as("two reports of part 0").isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("part 0");
            assertThatThrownBy(() -> layout.commitJob(backend, job, List.of(first, dup)))
                    .as("a.png in parts 0 and 1").isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'a.png'");
            WrittenPart twin = new WrittenPart(job.generation(), 1, "a", first.manifestKey(), first.samples(),
                    first.payloadBytes());
            assertThatThrownBy(() -> layout.commitJob(backend, job, List.of(first, twin)))
                    .as("part 1 reported with part 0's manifest").isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a part of");
            WriteJob other = layout.startJob(backend, "ds", schema, writeOptions());
            WrittenPart foreign = writePart(backend, other, 1, "a", List.of(named("d.png", 5)));
            assertThatThrownBy(() -> layout.commitJob(backend, job, List.of(first, foreign)))
                    .as("a part of another job").isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a part of");
            assertThatThrownBy(() -> layout().open(backend, "ds")).isInstanceOf(ObjectNotFoundException.class);
            layout.commitJob(backend, other, List.of(foreign));
            assertThatThrownBy(() -> layout.commitJob(backend, job, List.of(first)))
                    .as("a job overtaken by another's commit").isInstanceOf(StorageException.class)
                    .hasMessageContaining("another ingest committed there");
            try (Dataset dataset = layout().open(backend, "ds")) {
                assertThat(dataset.summary().sampleCount()).as("the overtaking job's dataset").isEqualTo(1);
            }
        }
    }

    @Test
    void aRepeatedSampleNameIsRefusedAndNothingIsCommitted() {
        try (ObjectBackend backend = newBackend()) {
            try (DatasetWriter writer = layout().create(backend, "ds", MetadataSchema.imageNet(), writeOptions())) {
                writer.add(named("a.png", 1));
                writer.add(named("dir/dup.png", 2));
                writer.add(named("b.png", 3));
                assertThatThrownBy(() -> writer.add(named("dir/dup.png", 4))).as("a second 'dir/dup.png'")
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'dir/dup.png'")
                        .hasMessageContaining("earlier sample");
            }
            try (Stream<ObjectInfo> left = backend.list("ds/")) {
                assertThat(left.map(ObjectInfo::key).toList()).as("objects left by the refused ingest").isEmpty();
            }
        }
    }

    @Test
    void aNameThatIsNotARelativePathIsRefused() {
        try (ObjectBackend backend = newBackend()) {
            for (String name : List.of("/tmp/x.png", "../x.png", "a/../x.png", "./x.png", "a//x.png", "a/",
                    "a\\x.png", "line\nbreak.png", "")) {
                try (DatasetWriter writer = layout().create(backend, "ds", MetadataSchema.imageNet(),
                        writeOptions())) {
                    assertThatThrownBy(() -> writer.add(named(name, 1))).as("name '%s'", name)
                            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("Sample name");
                }
            }
        }
    }

    @Test
    void namesWithSpacesNonAsciiAndDirectoriesRoundTrip() {
        List<String> names = List.of("with space.png", "\u00fcn\u00efc\u00f6d\u00e9/\u732b.png", "a/b/c d/x.png",
                "x.png", "a/x.png", "..x.png", ".hidden");
        try (ObjectBackend backend = newBackend()) {
            List<Expected> written = write(backend, "ds", MetadataSchema.imageNet(),
                    names.stream().map(name -> named(name, name.length())).iterator());
            try (Dataset dataset = layout().open(backend, "ds")) {
                for (RetrievalMode mode : RetrievalMode.values()) {
                    assertThat(run(dataset, Query.parse("filesize_bytes >= 0"), mode)).as(mode.label())
                            .containsExactlyElementsOf(written);
                    assertThat(run(dataset, Query.parse("filename = '\u00fcn\u00efc\u00f6d\u00e9/\u732b.png'"), mode))
                            .as(mode.label()).containsExactly(written.get(1));
                }
            }
        }
    }

    @Test
    void unknownOptionsAreRefusedByName() {
        try (ObjectBackend backend = newBackend()) {
            Map<String, String> options = new LinkedHashMap<>(writeOptions());
            options.put("no-such-option", "1");
            assertThatThrownBy(() -> layout().create(backend, "ds", CUSTOM, options).close())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no-such-option");
        }
    }

    @Test
    void aSchemaWithoutFilenameOrSizeRoundTripsAndAnswersQueries() {
        try (ObjectBackend backend = newBackend()) {
            List<Expected> written = write(backend, "custom", CUSTOM, customSamples().iterator());
            try (Dataset dataset = layout().open(backend, "custom")) {
                for (String where : CUSTOM_QUERIES) {
                    for (RetrievalMode mode : RetrievalMode.values()) {
                        Query query = Query.parse(where, CUSTOM);
                        assertThat(run(dataset, query, mode)).as(where + " " + mode)
                                .containsExactlyElementsOf(select(written, query, CUSTOM));
                    }
                }
                assertThat(run(dataset, Query.of(Expressions.alwaysTrue()), RetrievalMode.OPTIMIZED))
                        .as("every sample, in order").containsExactlyElementsOf(written);
            }
        }
    }

    @Test
    void theReferenceQueriesReturnWhatTheRowEvaluatorSelects() {
        ReferenceWorkload workload = referenceWorkload();
        try (Dataset dataset = layout().open(referenceBackend, "reference")) {
            for (Map.Entry<String, String> q : workload.queries().entrySet()) {
                Query query = Query.parse(q.getValue(), workload.schema());
                List<Expected> expected = select(reference, query, workload.schema());
                assertThat(expected).as(q.getKey() + " selects something").isNotEmpty();
                for (RetrievalMode mode : RetrievalMode.values()) {
                    assertThat(run(dataset, query, mode)).as(q.getKey() + " " + mode)
                            .containsExactlyElementsOf(expected);
                }
            }
        }
    }

    @Test
    void aPlanIsWhatTheQueryThenTransfers() {
        ReferenceWorkload workload = referenceWorkload();
        for (Map.Entry<String, String> q : workload.queries().entrySet()) {
            Query query = Query.parse(q.getValue(), workload.schema());
            for (RetrievalMode mode : RetrievalMode.values()) {
                QueryOptions options = options(mode);
                RetrievalPlan plan;
                try (Dataset planned = layout().open(referenceBackend, "reference")) {
                    plan = planned.plan(query, options);
                }
                MetricsSnapshot measured;
                try (Dataset cold = layout().open(referenceBackend, "reference");
                        SampleStream samples = cold.query(query, options)) {
                    samples.forEachRemaining(sample -> { });
                    measured = samples.stats().transfer();
                    assertThat(samples.stats().samples()).as(q.getKey() + " " + mode + ": samples")
                            .isEqualTo(plan.samples());
                    assertThat(samples.stats().payloadBytes()).as(q.getKey() + " " + mode + ": payload")
                            .isEqualTo(plan.payloadBytes());
                }
                assertThat(measured.bytesReceived()).as(q.getKey() + " " + mode + ": bytes, cold")
                        .isEqualTo(plan.totalBytes());
                assertThat(measured.totalRequests()).as(q.getKey() + " " + mode + ": requests, cold")
                        .isEqualTo(plan.totalRequests());
            }
        }
    }

    /**
     * A query without payload ({@link QueryOptions#withoutPayload()}) returns the same samples' metadata and no field,
     * plans no data request and transfers what it plans: the metadata only.
     */
    @Test
    void aQueryWithoutPayloadReadsNoPayloadByte() {
        ReferenceWorkload workload = referenceWorkload();
        for (Map.Entry<String, String> q : workload.queries().entrySet()) {
            Query query = Query.parse(q.getValue(), workload.schema());
            for (RetrievalMode mode : RetrievalMode.values()) {
                String what = q.getKey() + " " + mode + " without payload";
                QueryOptions options = options(mode).withoutPayload();
                try (Dataset dataset = layout().open(referenceBackend, "reference")) {
                    RetrievalPlan plan = dataset.plan(query, options);
                    assertThat(plan.dataRequests()).as(what + ": data requests").isEmpty();
                    assertThat(plan.payloadBytes()).as(what + ": payload").isZero();
                }
                List<List<Object>> metadata = new ArrayList<>();
                try (Dataset cold = layout().open(referenceBackend, "reference");
                        SampleStream samples = cold.query(query, options)) {
                    RetrievalPlan plan = cold.plan(query, options);
                    samples.forEachRemaining(sample -> {
                        assertThat(sample.fields()).as(what + ": fields").isEmpty();
                        metadata.add(sample.metadata().values());
                    });
                    assertThat(samples.stats().transfer().bytesReceived()).as(what + ": bytes")
                            .isLessThanOrEqualTo(plan.totalBytes());
                }
                assertThat(metadata).as(what + ": the samples").containsExactlyElementsOf(
                        select(reference, query, workload.schema()).stream().map(Expected::metadata).toList());
            }
        }
    }

    @Test
    void aPreparedQueryReadsAnyRangesOfItsResultAsItsPlanSays() {
        ReferenceWorkload workload = referenceWorkload();
        Random random = new java.util.Random(7);
        try (Dataset dataset = layout().open(referenceBackend, "reference")) {
            assertThat(dataset).as("every layout prepares queries").isInstanceOf(SupportsPreparedQueries.class);
            for (Map.Entry<String, String> q : workload.queries().entrySet()) {
                Query query = Query.parse(q.getValue(), workload.schema());
                List<Expected> expected = select(reference, query, workload.schema());
                for (RetrievalMode mode : RetrievalMode.values()) {
                    String what = q.getKey() + " " + mode;
                    PreparedQuery prepared = ((SupportsPreparedQueries) dataset).prepare(query, options(mode));
                    assertThat(prepared.samples()).as(what).isEqualTo(expected.size());
                    RetrievalPlan whole = dataset.plan(query, options(mode));
                    RetrievalPlan all = prepared.plan(prepared.all());
                    assertThat(prepared.asPartsOf(prepared.all()).plan(prepared.all()).dataRequests()).as(what)
                            .isEqualTo(all.dataRequests());
                    assertThat(all.dataRequests()).as(what + ": the whole result reads as the query")
                            .isEqualTo(whole.dataRequests());
                    assertThat(all.payloadBytes()).as(what).isEqualTo(whole.payloadBytes());
                    assertThat(prepared.resultId()).as(what)
                            .isEqualTo(((SupportsPreparedQueries) dataset).prepare(query, options(mode)).resultId())
                            .isNotEqualTo(((SupportsPreparedQueries) dataset)
                                    .prepare(query.withLimit(expected.size() + 1), options(mode)).resultId());
                    // Units start at 0, ascend, and their reads together are the query's.
                    long unitBytes = 0;
                    for (int u = 0; u < prepared.unitCount(); u++) {
                        assertThat(prepared.unitStart(u)).as(what).isLessThan(prepared.samples())
                                .isGreaterThan(u == 0 ? -1 : prepared.unitStart(u - 1));
                        unitBytes += prepared.unitBytes(u);
                    }
                    assertThat(prepared.unitCount() == 0 ? 0 : prepared.unitStart(0)).as(what).isZero();
                    assertThat(unitBytes).as(what).isEqualTo(whole.dataRequests().stream()
                            .mapToLong(PlannedRequest::bytes).sum());
                    for (int trial = 0; trial < 4; trial++) {
                        List<ResultRange> ranges = randomRanges(random, expected.size());
                        List<Expected> wanted = new ArrayList<>();
                        ranges.forEach(r -> wanted.addAll(expected.subList((int) r.from(), (int) r.to())));
                        RetrievalPlan plan = prepared.plan(ranges);
                        List<Expected> returned = new ArrayList<>();
                        try (SampleStream samples = prepared.read(ranges)) {
                            samples.forEachRemaining(sample -> returned.add(expected(sample)));
                            MetricsSnapshot transfer = samples.stats().transfer();
                            assertThat(transfer.bytesReceived()).as(what + " " + ranges + ": bytes")
                                    .isEqualTo(plan.dataRequests().stream().mapToLong(PlannedRequest::bytes).sum());
                            assertThat(transfer.totalRequests()).as(what + " " + ranges + ": requests")
                                    .isEqualTo(plan.dataRequests().size());
                        }
                        assertThat(returned).as(what + " " + ranges).containsExactlyElementsOf(wanted);
                        assertThat(plan.samples()).as(what + " " + ranges).isEqualTo(wanted.size());
                        // Read part by part as parts of one read: the same samples, about that read's requests.
                        PreparedQuery parts = prepared.asPartsOf(ranges);
                        List<Expected> partwise = new ArrayList<>();
                        long partRequests = 0;
                        for (ResultRange range : ranges) {
                            partRequests += parts.plan(List.of(range)).dataRequests().size();
                            try (SampleStream samples = parts.read(List.of(range))) {
                                samples.forEachRemaining(sample -> partwise.add(expected(sample)));
                            }
                        }
                        assertThat(partwise).as(what + " " + ranges + " part by part").isEqualTo(wanted);
                        if (mode == RetrievalMode.OPTIMIZED) {   // paper mode reads a whole row group per read
                            assertThat(partRequests).as(what + " " + ranges + " part by part")
                                    .isLessThanOrEqualTo(plan.dataRequests().size() + ranges.size());
                        }
                        assertThat(plan.payloadBytes()).as(what + " " + ranges)
                                .isEqualTo(wanted.stream().mapToLong(Expected::size).sum());
                    }
                    assertThatThrownBy(() -> prepared.read(List.of(new ResultRange(0, prepared.samples() + 1))))
                            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ends past");
                }
            }
        }
    }

    /** Up to three ascending, apart ranges of a result of {@code samples}, or none of an empty one. */
    private static List<ResultRange> randomRanges(Random random, int samples) {
        List<ResultRange> ranges = new ArrayList<>();
        int position = 0;
        for (int i = 0; i < 3 && position < samples; i++) {
            int from = position + random.nextInt(Math.max(1, (samples - position) / 2));
            int to = Math.min(samples, from + 1 + random.nextInt(Math.max(1, samples / 3)));
            ranges.add(new ResultRange(from, to));
            position = to + 1;
        }
        return ranges;
    }

    @Test
    void aDamagedObjectIsNamedOrRepairedNeverReturned() {
        try (ObjectBackend backend = newBackend()) {
            // Samples of 16 to 64 KB: the largest object of the dataset holds sample bytes in any layout.
            List<Expected> written = write(backend, "damaged", CUSTOM, largeSamples().iterator());
            ObjectInfo largest;
            try (Stream<ObjectInfo> objects = backend.list("damaged/")) {
                largest = objects.max(Comparator.comparingLong(ObjectInfo::size)).orElseThrow();
            }
            ByteBuffer original = backend.readAll(largest.key());
            byte[] damaged = new byte[original.remaining()];
            original.get(damaged);
            // A byte in every 2 KiB: whatever the object holds, every sample in it is hit.
            for (int i = damaged.length / 3 % 2048; i < damaged.length; i += 2048) {
                damaged[i] ^= 0x5a;
            }
            backend.put(largest.key(), damaged);
            Query all = Query.of(Expressions.alwaysTrue());
            List<Expected> returned = new ArrayList<>();
            Throwable failure = catchThrowable(() -> {
                try (Dataset dataset = layout().open(backend, "damaged")) {
                    returned.addAll(run(dataset, all, RetrievalMode.OPTIMIZED));
                }
            });
            if (reportsDamage()) {
                assertThat(failure).as("reading " + largest.key() + " with a byte in every 2 KiB flipped")
                        .isInstanceOf(LayoutBenchException.class).hasMessageContaining(largest.key());
            } else {
                assertThat(failure).as("a repaired read").isNull();
                assertThat(returned).containsExactlyElementsOf(written);
            }
        }
    }

    @Test
    void theModelPlansWhatTheWrittenDatasetPlans() {
        assumeTrue(layout() instanceof SupportsModelling, layout().name() + " does not model itself");
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
        for (Map<String, String> options : modelSettings()) {
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
            for (long gap : mode == RetrievalMode.PAPER ? List.of(0L) : MODEL_GAPS) {
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
        long bytesPerPage = modelBytesPerPage();
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
                .isCloseTo(coldBytes, within(coldBytes * modelMetadataTolerance()));
    }

    private static long bytes(List<PlannedRequest> requests) {
        return requests.stream().mapToLong(PlannedRequest::bytes).sum();
    }

    /** A sample as a query returns it: its metadata and its bytes' checksum. */
    record Expected(List<Object> metadata, long crc32c, long size) {
    }

    private List<Expected> write(ObjectBackend backend, String prefix, MetadataSchema schema, Iterator<Sample> source) {
        List<Expected> written = new ArrayList<>();
        try (DatasetWriter writer = layout().create(backend, prefix, schema, writeOptions())) {
            while (source.hasNext()) {
                Sample sample = source.next();
                written.add(expected(sample));
                writer.add(sample);
            }
            writer.commit();
        }
        return written;
    }

    private static Expected expected(Sample sample) {
        CRC32C crc = new CRC32C();
        crc.update(sample.data().duplicate());
        return new Expected(sample.metadata().values(), crc.getValue(), sample.size());
    }

    /** The samples a row-at-a-time evaluation selects, in dataset order, LIMIT applied. */
    private static List<Expected> select(List<Expected> samples, Query query, MetadataSchema schema) {
        BoundQuery bound = query.bind(schema);
        List<Expected> selected = new ArrayList<>();
        for (Expected sample : samples) {
            if (selected.size() >= bound.limit().orElse(Long.MAX_VALUE)) {
                break;
            }
            if (bound.test(new MetadataRow(schema, sample.metadata()))) {
                selected.add(sample);
            }
        }
        return selected;
    }

    private static List<Expected> run(Dataset dataset, Query query, RetrievalMode mode) {
        List<Expected> returned = new ArrayList<>();
        try (SampleStream samples = dataset.query(query, options(mode))) {
            samples.forEachRemaining(sample -> returned.add(expected(sample)));
        }
        return returned;
    }

    private static QueryOptions options(RetrievalMode mode) {
        return QueryOptions.defaults().withMode(mode).withNetwork(NetworkProfiles.T3_MEDIUM);
    }

    /** A sample of the ImageNet schema called {@code name}, of {@code size} seeded bytes. */
    static Sample named(String name, int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return new Sample(new MetadataRow(MetadataSchema.imageNet(), Arrays.asList(name, "tench", (long) size, 4L,
                3L)), ByteBuffer.wrap(bytes));
    }

    /** {@link #CUSTOM} with three WebDataset-style payload fields. */
    static final MetadataSchema FIELDS = CUSTOM.withPayloadFields(List.of("jpg", "seg.png", "json"));

    @Test
    void severalPayloadFieldsRoundTripAndAQueryReadsTheFieldsItAsksFor() {
        assumeTrue(storesSeveralFields(), "the layout stores one payload field");
        Random random = new Random(13);
        List<Sample> samples = new ArrayList<>();
        for (Sample plain : customSamples().subList(0, 60)) {
            Map<String, Blob> fields = new LinkedHashMap<>();
            fields.put("jpg", Blob.of(bytes(random, 2000 + random.nextInt(4000))));
            if (random.nextInt(4) != 0) {
                fields.put("seg.png", Blob.of(bytes(random, random.nextInt(3000))));   // some samples lack it
            }
            fields.put("json", Blob.of(("{\"i\": " + samples.size() + "}").getBytes(StandardCharsets.UTF_8)));
            samples.add(new Sample(new MetadataRow(FIELDS, plain.metadata().values()), fields));
        }
        try (ObjectBackend backend = newBackend()) {
            try (DatasetWriter writer = layout().create(backend, "fields", FIELDS, writeOptions())) {
                samples.forEach(writer::add);
                writer.commit();
            }
            try (Dataset dataset = layout().open(backend, "fields")) {
                assertThat(dataset.schema()).isEqualTo(FIELDS);
                for (RetrievalMode mode : RetrievalMode.values()) {
                    QueryOptions options = QueryOptions.defaults().withMode(mode);
                    assertThat(fieldBytes(dataset, "TRUE", options)).as("every field, %s", mode)
                            .isEqualTo(fieldBytes(samples, List.of()));
                    List<String> some = List.of("json", "seg.png");
                    try (SampleStream stream = dataset.query(Query.parse("TRUE"), options.withFields(some))) {
                        List<Map<String, String>> got = new ArrayList<>();
                        stream.forEachRemaining(sample -> got.add(bytesOf(sample)));
                        assertThat(got).as("json and seg.png, %s", mode).isEqualTo(fieldBytes(samples, some));
                        long asked = samples.stream().mapToLong(sample -> sample.fields().entrySet().stream()
                                .filter(f -> some.contains(f.getKey())).mapToLong(f -> f.getValue().size()).sum())
                                .sum();
                        RetrievalPlan plan;
                        try (Dataset planned = layout().open(backend, "fields")) {
                            plan = planned.plan(Query.parse("TRUE"), options.withFields(some));
                        }
                        try (Dataset cold = layout().open(backend, "fields");
                                SampleStream coldStream = cold.query(Query.parse("TRUE"), options.withFields(some))) {
                            coldStream.forEachRemaining(sample -> { });
                            assertThat(coldStream.stats().transfer().bytesReceived()).as("planned bytes, %s", mode)
                                    .isEqualTo(plan.totalBytes());
                            assertThat(coldStream.stats().transfer().totalRequests()).as("planned requests, %s", mode)
                                    .isEqualTo(plan.totalRequests());
                        }
                        if (mode == RetrievalMode.OPTIMIZED) {
                            // Warm (the first query loaded the metadata): the fields' bytes, within the read budget
                            // and a page header or so a sample; none of the jpg bytes.
                            assertThat(stream.stats().transfer().bytesReceived()).as("bytes of the fields asked for")
                                    .isBetween(asked, (long) (asked * 1.1) + 100L * samples.size());
                        }
                    }
                }
                assertThatThrownBy(() -> dataset.query(Query.parse("TRUE"),
                        QueryOptions.defaults().withFields(List.of("mp4"))))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mp4")
                        .hasMessageContaining("[jpg, seg.png, json]");
            }
            try (DatasetWriter writer = layout().create(backend, "bad", FIELDS, writeOptions())) {
                Sample wrong = new Sample(samples.get(0).metadata(), Map.of("wav", Blob.of(new byte[3])));
                assertThatThrownBy(() -> writer.add(wrong)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("wav").hasMessageContaining("[jpg, seg.png, json]");
            }
        }
    }

    @Test
    void aLargeFieldComesBackLazilyAndAPartOfItCostsAboutItsBytes() {
        assumeTrue(storesSeveralFields(), "the layout stores one payload field");
        Random random = new Random(17);
        byte[] large = bytes(random, 3 << 20);
        MetadataSchema schema = CUSTOM.withPayloadFields(List.of("mp4", "txt"));
        List<Sample> samples = new ArrayList<>();
        for (Sample plain : customSamples().subList(0, 3)) {
            samples.add(new Sample(new MetadataRow(schema, plain.metadata().values()), Map.of(
                    "mp4", Blob.of(large), "txt", Blob.of("caption".getBytes(StandardCharsets.UTF_8)))));
        }
        try (ObjectBackend backend = newBackend()) {
            try (DatasetWriter writer = layout().create(backend, "large", schema, writeOptions())) {
                samples.forEach(writer::add);
                writer.commit();
            }
            QueryMetrics later = new QueryMetrics();
            try (Dataset dataset = layout().open(backend.withMetrics(later), "large");
                    SampleStream stream = dataset.query(Query.parse("TRUE"),
                            QueryOptions.defaults().withLazyFieldBytes(1 << 20))) {
                List<Sample> got = new ArrayList<>();
                stream.forEachRemaining(got::add);
                long queried = stream.stats().transfer().bytesReceived();
                assertThat(queried).as("the query reads no byte of the 3 MiB fields").isLessThan(1 << 20);
                Blob video = got.get(1).field("mp4");
                assertThat(video.inMemory()).isFalse();
                assertThat(video.size()).isEqualTo(large.length);
                long before = later.snapshot().bytesReceived();
                long counted = stream.stats().transfer().bytesReceived();
                ByteBuffer part = video.read(1_000_000, 100_000);
                // The query counts the read into its own metrics view of the backend, not into later (which then
                // sees it only below that view, as FAC's nodes do): its statistics must show the read.
                assertThat(stream.stats().transfer().bytesReceived() - counted)
                        .as("bytes of a 100 KB read in the query's statistics")
                        .isBetween(100_000L, 110_000 + partialReadSlackBytes());
                assertThat(later.snapshot().bytesReceived() - before).as("bytes moved by a 100 KB read")
                        .isLessThanOrEqualTo(110_000 + partialReadSlackBytes());
                assertThat(toBytes(part)).isEqualTo(Arrays.copyOfRange(large, 1_000_000, 1_100_000));
                assertThat(got.get(1).field("txt").toByteArray())
                        .isEqualTo("caption".getBytes(StandardCharsets.UTF_8));
                try (java.io.InputStream in = video.openStream()) {
                    assertThat(in.readAllBytes()).isEqualTo(large);
                }
                assertThatThrownBy(() -> video.read(large.length - 10, 11))
                        .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("mp4");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static byte[] bytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] toBytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /** A sample's fields, each as Base64 text so that lists of them compare by content. */
    private static Map<String, String> bytesOf(Sample sample) {
        Map<String, String> fields = new LinkedHashMap<>();
        sample.fields().forEach((name, blob) -> fields.put(name,
                Base64.getEncoder().encodeToString(blob.toByteArray())));
        return fields;
    }

    private static List<Map<String, String>> fieldBytes(List<Sample> samples, List<String> only) {
        List<Map<String, String>> all = new ArrayList<>();
        for (Sample sample : samples) {
            Map<String, String> fields = bytesOf(sample);
            if (!only.isEmpty()) {
                fields.keySet().retainAll(only);
            }
            all.add(fields);
        }
        return all;
    }

    private static List<Map<String, String>> fieldBytes(Dataset dataset, String where, QueryOptions options) {
        List<Map<String, String>> got = new ArrayList<>();
        try (SampleStream stream = dataset.query(Query.parse(where), options)) {
            stream.forEachRemaining(sample -> got.add(bytesOf(sample)));
        }
        return got;
    }

    /** Forty samples of {@link #CUSTOM} of 16 to 64 KB. */
    static List<Sample> largeSamples() {
        Random random = new Random(7);
        List<Sample> samples = new ArrayList<>();
        for (Sample small : customSamples().subList(0, 40)) {
            byte[] bytes = new byte[(16 << 10) + random.nextInt(48 << 10)];
            random.nextBytes(bytes);
            samples.add(new Sample(small.metadata(), ByteBuffer.wrap(bytes)));
        }
        return samples;
    }

    /** The contract's own dataset: seeded, sizes from 0 to 6 KB, NULLs in three of four columns. */
    static List<Sample> customSamples() {
        Random random = new Random(20261201);
        String[] speakers = {"alice", "bob", "bea", "carol", "dan"};
        List<Sample> samples = new ArrayList<>(CUSTOM_SAMPLES);
        for (int i = 0; i < CUSTOM_SAMPLES; i++) {
            byte[] bytes = new byte[i == 7 ? 0 : random.nextInt(6000)];
            random.nextBytes(bytes);
            MetadataRow row = new MetadataRow(CUSTOM, Arrays.asList(
                    random.nextInt(10) == 0 ? null : speakers[random.nextInt(speakers.length)],
                    random.nextInt(9) == 0 ? null : Math.round(random.nextDouble() * 600) / 100.0,
                    (long) random.nextInt(800),
                    random.nextInt(7) == 0 ? null : random.nextBoolean()));
            samples.add(new Sample(row, ByteBuffer.wrap(bytes)));
        }
        return samples;
    }
}
