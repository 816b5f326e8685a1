package io.layoutbench.examples.bench;

import static java.util.Objects.requireNonNull;

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

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;

/**
 * Where the benchmark keeps its datasets in a backend, and how it writes them: each (dataset, layout, options)
 * lives under its own prefix ({@code imagenet-mini-seed42/l2.shard-size=64MB}), so a dataset already committed
 * there for the same scale, seed and options is reused instead of written again. What each ingest measured is
 * kept next to the datasets, under {@value #RECORDS}, so a reused dataset still reports its ingest.
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
     * The dataset at the prefix for these settings if it is committed (and holds the expected number of samples),
     * else ingests it.
     *
     * @param force ingest even if a committed dataset is there
     */
    public IngestRow ensure(DatasetSource source, StorageLayout layout, Map<String, String> options, boolean force,
            CostModel costModel, Progress.Factory progress) {
        if (!force) {
            Optional<IngestRow> existing = existing(source, layout, options, costModel);
            if (existing.isPresent()) {
                return existing.get();
            }
        }
        return ingest(source, layout, options, costModel, progress);
    }

    /** The ingest of these settings if a committed dataset with the expected sample count is there. */
    public Optional<IngestRow> existing(DatasetSource source, StorageLayout layout, Map<String, String> options,
            CostModel costModel) {
        String prefix = prefix(source.id(), layout.name(), options);
        DatasetSummary summary;
        try (Dataset dataset = layout.open(backend, prefix)) {
            summary = dataset.summary();
        } catch (ObjectNotFoundException notThere) {
            return Optional.empty();
        }
        if (source.expectedSamples() >= 0 && summary.sampleCount() != source.expectedSamples()) {
            return Optional.empty();
        }
        IngestRow recorded = readRecord(prefix).orElseGet(() -> new IngestRow(layout.name(), source.id(),
                "(ingested earlier; no ingest record)", backendLabel, prefix, LayoutSettings.describe(options),
                costModel.network().name(), true, summary.sampleCount(), summary.payloadBytes(),
                summary.storedBytes(), summary.objectCount(), 0, 0, 0, 0, 0, 0, 0,
                costModel.prices().storageDollars(summary.storedBytes(), 1), 0, 0, 0, 0));
        return Optional.of(recorded.asReused(backendLabel, costModel.network().name(),
                costModel.network().hourlyPriceUsd()));
    }

    /** Writes the dataset into {@code layout} at its prefix, replacing anything there, and measures the ingest. */
    public IngestRow ingest(DatasetSource source, StorageLayout layout, Map<String, String> options,
            CostModel costModel, Progress.Factory progress) {
        String prefix = prefix(source.id(), layout.name(), options);
        QueryMetrics metrics = new QueryMetrics();
        ObjectBackend counted = backend.withMetrics(metrics);
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
        writeRecord(prefix, row);
        return row;
    }

    private Optional<IngestRow> readRecord(String prefix) {
        String key = recordKey(prefix);
        try {
            ByteBuffer data = backend.readAll(key);
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            return Optional.of(JSON.readValue(bytes, IngestRow.class));
        } catch (ObjectNotFoundException notThere) {
            return Optional.empty();
        } catch (java.io.IOException unreadable) {
            // A record from another version of this tool: report the dataset without it.
            return Optional.empty();
        }
    }

    private void writeRecord(String prefix, IngestRow row) {
        try {
            backend.put(recordKey(prefix), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(row)
                    .getBytes(StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write the ingest record of " + prefix + " as JSON", e);
        }
    }

    private static String recordKey(String prefix) {
        return RECORDS + prefix + ".json";
    }

    static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
