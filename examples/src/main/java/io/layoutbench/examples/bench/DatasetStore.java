package io.layoutbench.examples.bench;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.cost.CostBreakdown;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.datasets.SampleSource;
import io.layoutbench.layouts.manifest.UnverifiedDatasetException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where the benchmark keeps its datasets in a backend, and how it writes them: each (dataset, layout, options)
 * lives under its own prefix ({@code imagenet-mini-seed42/l2.shard-size=64MB}), so a dataset already committed
 * there from the same source is reused instead of written again. What each ingest measured, the dataset's name and
 * a {@link SourceFingerprint} of its source are kept next to the datasets, under {@value #RECORDS}: a reused dataset
 * still reports its ingest, a source whose files changed is ingested again, and two names that share a prefix are
 * told apart.
 *
 * <p>Ingest writes to the backend directly, without network simulation: its time is the local machine's,
 * generating or reading the samples included.
 *
 * <pre>{@code
 * DatasetStore store = new DatasetStore(backend, "file");
 * IngestRow row = store.ensure(DatasetSource.synthetic(ImageNetScale.TINY, 42, false), StorageLayouts.get("l2"),
 *         Map.of("shard-size", "64MB"), false, costModel, Progress.Factory.NONE);
 * }</pre>
 */
public final class DatasetStore {

    /** Key prefix of the ingest records. */
    public static final String RECORDS = "_layoutbench/ingest/";

    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final ObjectBackend backend;
    private final String backendLabel;

    /**
     * @param backend      where the datasets live; not closed by this store
     * @param backendLabel how reports name the backend
     */
    public DatasetStore(ObjectBackend backend, String backendLabel) {
        this.backend = requireNonNull(backend, "backend is null");
        this.backendLabel = requireNonNull(backendLabel, "backendLabel is null");
    }

    /** The prefix of {@code layout} with {@code options} of dataset {@code datasetId}. */
    public static String prefix(String datasetId, String layout, Map<String, String> options) {
        String describedOptions = LayoutSettings.describe(options).replace(',', '.');
        String variant = describedOptions.isEmpty() ? layout : layout + "." + describedOptions;
        return datasetId + "/" + variant.replaceAll("[^A-Za-z0-9._=-]", "_");
    }

    /**
     * {@link #ensure(DatasetSource, StorageLayout, Map, boolean, CostModel, Progress.Factory, Consumer)} without
     * being told why a dataset is ingested again.
     */
    public IngestRow ensure(DatasetSource source, StorageLayout layout, Map<String, String> options, boolean force,
            CostModel costModel, Progress.Factory progress) {
        return ensure(source, layout, options, force, costModel, progress, why -> { });
    }

    /**
     * The dataset at the prefix for these settings if it is committed there from the same source with the same
     * contents (its ingest record's {@link SourceFingerprint} is the source's now, and it holds the expected number
     * of samples), else ingests it, telling {@code notes} why in one line
     * ({@code re-ingesting pets/l1: 3 more files in image folder /data/pets than at the last ingest (120 then, 123
     * now)}). The first ingest at a prefix gets no note.
     *
     * @param force ingest even if a committed dataset from the same source is there
     * @throws NameTakenException if the prefix holds a dataset of another name (two names with one id), unless
     *                            {@code force}
     */
    public IngestRow ensure(DatasetSource source, StorageLayout layout, Map<String, String> options, boolean force,
            CostModel costModel, Progress.Factory progress, Consumer<String> notes) {
        String prefix = prefix(source.id(), layout.name(), options);
        DatasetSummary summary;
        try (Dataset dataset = layout.open(backend, prefix)) {
            summary = dataset.summary();
        } catch (ObjectNotFoundException notThere) {
            return ingest(source, layout, options, costModel, progress);
        } catch (UnverifiedDatasetException tooOld) {
            notes.accept("re-ingesting " + prefix + ": it was written before manifests recorded checksums");
            return ingest(source, layout, options, costModel, progress);
        }
        Optional<IngestRecord> record = readRecord(prefix);
        Optional<String> held = record.map(IngestRecord::datasetName).filter(name -> !name.equals(source.name()));
        if (held.isPresent()) {
            if (!force) {
                throw new NameTakenException(source.name(), prefix, held.get(), record.get().fingerprint());
            }
            notes.accept("replacing " + prefix + ", which held dataset '" + held.get() + "'");
            return ingest(source, layout, options, costModel, progress);
        }
        if (force) {
            return ingest(source, layout, options, costModel, progress);
        }
        Optional<String> change = change(source, summary, record);
        if (change.isPresent()) {
            notes.accept("re-ingesting " + prefix + ": " + change.get());
            return ingest(source, layout, options, costModel, progress);
        }
        return record.get().row().asReused(backendLabel, costModel.network().name(),
                costModel.network().hourlyPriceUsd());
    }

    /** Why the dataset at a prefix, with this summary and record, is not the source's now; empty if it is. */
    private static Optional<String> change(DatasetSource source, DatasetSummary summary,
            Optional<IngestRecord> record) {
        if (record.isEmpty() || record.get().fingerprint() == null) {
            return Optional.of("its ingest record " + (record.isEmpty() ? "is missing" : "has no source fingerprint")
                    + " (written by an older version, or the ingest stopped before writing it)");
        }
        Optional<String> change = source.fingerprint().get().changeSince(record.get().fingerprint());
        if (change.isPresent()) {
            return change;
        }
        if (source.expectedSamples() >= 0 && summary.sampleCount() != source.expectedSamples()) {
            return Optional.of(String.format(Locale.ROOT, "it holds %,d samples, not %,d", summary.sampleCount(),
                    source.expectedSamples()));
        }
        return Optional.empty();
    }

    /**
     * The name of the dataset whose ingest record is at {@code prefix}, if recorded: a command given a name whose id
     * leads to a prefix holding another name's dataset says so instead of reading it.
     */
    public Optional<String> datasetName(String prefix) {
        return readRecord(prefix).map(IngestRecord::datasetName);
    }

    /** Writes the dataset into {@code layout} at its prefix, replacing anything there, and measures the ingest. */
    public IngestRow ingest(DatasetSource source, StorageLayout layout, Map<String, String> options,
            CostModel costModel, Progress.Factory progress) {
        String prefix = prefix(source.id(), layout.name(), options);
        QueryMetrics metrics = new QueryMetrics();
        ObjectBackend counted = backend.withMetrics(metrics);
        // Before reading the samples: a file changed during the ingest then shows as a change next time.
        SourceFingerprint fingerprint = source.fingerprint().get();
        // The old record goes first: an ingest that stops after its commit then leaves new data with no record (so
        // the next run ingests again), never beside the record of what it replaced (which would be reused as it).
        backend.delete(recordKey(prefix));
        DatasetSummary summary;
        MemoryPeaks peaks;
        try (MemorySampler.Measurement memory = MemorySampler.start();
                Progress bar = progress.start("Ingest " + layout.name(), source.expectedSamples(), "samples")) {
            metrics.start();
            SampleSource samplesSource = source.source().get();
            try (DatasetWriter writer = layout.create(counted, prefix, samplesSource.schema(), options);
                    Stream<Sample> samples = samplesSource.samples()) {
                Iterator<Sample> iterator = samples.iterator();
                while (iterator.hasNext()) {
                    writer.add(iterator.next());
                    bar.step(1);
                }
                summary = writer.commit();
            }
            metrics.stop();
            peaks = memory.peaks();
        }
        MetricsSnapshot measured = metrics.snapshot();
        // Transfer into S3 is free: an ingest pays for its requests and for the client's time.
        CostBreakdown cost = costModel.cost(0, measured.getClassRequests(), measured.putClassRequests(),
                measured.wallTime());
        IngestRow row = new IngestRow(layout.name(), source.id(), source.description(), backendLabel, prefix,
                LayoutSettings.describe(options), costModel.network().name(), false, summary.sampleCount(),
                summary.payloadBytes(), summary.storedBytes(), summary.objectCount(), seconds(measured.wallTime()),
                measured.bytesSent() + measured.bytesReceived(), measured.totalRequests(),
                measured.putClassRequests(), cost.requestUsd(), cost.computeUsd(), cost.total(),
                costModel.prices().storageDollars(summary.storedBytes(), 1), peaks.heapBytes(), peaks.directBytes(),
                peaks.mappedBytes(), peaks.residentBytes());
        writeRecord(prefix, new IngestRecord(row, source.name(), fingerprint));
        return row;
    }

    private Optional<IngestRecord> readRecord(String prefix) {
        String key = recordKey(prefix);
        try {
            ByteBuffer data = backend.readAll(key);
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            return Optional.of(IngestRecord.fromJson(JSON.readTree(bytes)));
        } catch (ObjectNotFoundException notThere) {
            return Optional.empty();
        } catch (java.io.IOException | IllegalArgumentException unreadable) {
            // A record from another version of this tool: the dataset is ingested again.
            return Optional.empty();
        }
    }

    private void writeRecord(String prefix, IngestRecord record) {
        try {
            backend.put(recordKey(prefix), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(record.toJson())
                    .getBytes(StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write the ingest record of " + prefix + " as JSON", e);
        }
    }

    private static String recordKey(String prefix) {
        return RECORDS + prefix + ".json";
    }

    /**
     * An ingest record: what the ingest measured (the {@link IngestRow}'s fields, as bench reports them), and two
     * fields beside them: {@code dataset_name} and {@code source_fingerprint}. Either is null in a record written
     * before they were kept.
     */
    record IngestRecord(IngestRow row, String datasetName, SourceFingerprint fingerprint) {

        private static final String NAME = "dataset_name";
        private static final String FINGERPRINT = "source_fingerprint";

        IngestRecord {
            requireNonNull(row, "row is null");
        }

        ObjectNode toJson() {
            ObjectNode json = JSON.valueToTree(row);
            json.put(NAME, datasetName);
            json.set(FINGERPRINT, JSON.valueToTree(fingerprint));
            return json;
        }

        static IngestRecord fromJson(JsonNode json) throws JsonProcessingException {
            JsonNode name = json.path(NAME);
            JsonNode fingerprint = json.path(FINGERPRINT);
            return new IngestRecord(JSON.treeToValue(json, IngestRow.class), name.isTextual() ? name.asText() : null,
                    fingerprint.isObject() ? JSON.treeToValue(fingerprint, SourceFingerprint.class) : null);
        }
    }

    /**
     * A dataset's prefix holds another dataset: names that differ only in characters a prefix cannot hold
     * ({@code a/b} and {@code a_b}) have one prefix, and one must not be read or replaced as the other.
     */
    public static final class NameTakenException extends LayoutBenchException {
        private static final long serialVersionUID = 1L;

        NameTakenException(String name, String prefix, String held, SourceFingerprint heldSource) {
            super("Dataset name '" + name + "' is stored at " + prefix + ", which holds dataset '" + held + "'"
                    + (heldSource == null ? "" : " (from " + heldSource.source() + ")") + ": in a prefix, "
                    + "characters other than letters, digits, '.', '_' and '-' become '_'");
        }
    }

    static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
