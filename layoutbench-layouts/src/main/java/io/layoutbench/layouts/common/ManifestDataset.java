package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.retrieval.ReadTask;
import io.layoutbench.layouts.retrieval.StreamingRetrieval;

import java.util.List;

/**
 * What every layout's dataset shares: the manifest, binding the query, per-query metrics, and streaming the
 * planned reads. A layout supplies {@link #plan(ObjectBackend, BoundQuery, QueryOptions)}: load (and cache) the
 * metadata it needs through the given backend, select the matching samples, and return the reads.
 *
 * <pre>{@code
 * final class L1Dataset extends ManifestDataset {
 *     protected Planned plan(ObjectBackend backend, BoundQuery query, QueryOptions options) { ... }
 * }
 * }</pre>
 */
public abstract class ManifestDataset implements Dataset {

    protected final ObjectBackend backend;
    protected final String prefix;
    protected final DatasetManifest manifest;
    private final DatasetSummary summary;

    /**
     * Reads the manifest at {@code prefix} and checks that it was written by {@code layout} in a format this
     * version reads.
     */
    protected ManifestDataset(String layout, int formatVersion, ObjectBackend backend, String prefix) {
        this.backend = requireNonNull(backend, "backend is null");
        this.prefix = GenerationalDatasetWriter.checkPrefix(prefix);
        DatasetManifest.Stored stored = DatasetManifest.readStored(backend, prefix);
        this.manifest = stored.manifest();
        if (!manifest.layout().equals(layout)) {
            throw new IllegalArgumentException("The dataset at '" + prefix + "' in " + backend.uri() + " is a '"
                    + manifest.layout() + "' dataset, not '" + layout + "'; open it with StorageLayouts.get(\""
                    + manifest.layout() + "\")");
        }
        if (manifest.formatVersion() != formatVersion) {
            throw new CorruptDataException("The " + layout + " dataset at '" + prefix + "' has format version "
                    + manifest.formatVersion() + "; this version of layoutbench reads version " + formatVersion);
        }
        long objects = manifest.objects().size() + 1L;
        long manifestBytes = stored.size();
        this.summary = new DatasetSummary(layout, prefix, manifest.sampleCount(), manifest.payloadBytes(), objects,
                manifest.storedBytes() + manifestBytes);
    }

    /**
     * The reads of one query.
     *
     * @param coldMetadataRequests the metadata reads a client with empty caches makes for this query
     * @param tasks                the sample reads, in dataset order
     * @param samples              samples the tasks return
     * @param payloadBytes         sum of their sizes
     * @param metadataRounds       round trips the cold metadata reads take one after another
     */
    protected record Planned(List<PlannedRequest> coldMetadataRequests, List<ReadTask> tasks, long samples,
            long payloadBytes, int metadataRounds) {
        public Planned {
            coldMetadataRequests = List.copyOf(coldMetadataRequests);
            tasks = List.copyOf(tasks);
        }

        /** A plan whose metadata reads each wait for the one before. */
        public Planned(List<PlannedRequest> coldMetadataRequests, List<ReadTask> tasks, long samples,
                long payloadBytes) {
            this(coldMetadataRequests, tasks, samples, payloadBytes, coldMetadataRequests.size());
        }
    }

    /**
     * Loads the metadata this query needs (through {@code backend}, so the load is counted to the query), selects
     * the matching samples and plans their reads. Must honour {@code LIMIT} (first n in dataset order).
     */
    protected abstract Planned plan(ObjectBackend backend, BoundQuery query, QueryOptions options);

    @Override
    public MetadataSchema schema() {
        return manifest.schema();
    }

    @Override
    public DatasetSummary summary() {
        return summary;
    }

    @Override
    public SampleStream query(Query query, QueryOptions options) {
        BoundQuery bound = query.bind(schema());
        requireNonNull(options, "options is null");
        QueryMetrics metrics = new QueryMetrics();
        metrics.start();
        ObjectBackend metered = backend.withMetrics(metrics);
        Planned planned = plan(metered, bound, options);
        return StreamingRetrieval.start(metered, planned.tasks(), options, metrics);
    }

    @Override
    public RetrievalPlan plan(Query query, QueryOptions options) {
        BoundQuery bound = query.bind(schema());
        Planned planned = plan(backend, bound, requireNonNull(options, "options is null"));
        List<PlannedRequest> data = planned.tasks().stream().flatMap(t -> t.requests().stream()).toList();
        return new RetrievalPlan(planned.coldMetadataRequests(), data, planned.samples(), planned.payloadBytes(),
                planned.metadataRounds());
    }

    @Override
    public void close() {
        // Caches are plain heap objects; nothing to release. Layouts with resources override.
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + manifest.layout() + " at '" + prefix + "' in " + backend.uri()
                + ", " + manifest.sampleCount() + " samples]";
    }
}
