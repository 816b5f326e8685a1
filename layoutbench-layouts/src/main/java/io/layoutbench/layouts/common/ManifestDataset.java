package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.PreparedQuery;
import io.layoutbench.api.layout.SupportsPreparedQueries;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.retrieval.RacedReads;

import java.util.List;

/**
 * What every layout's dataset shares: the manifest, binding the query, per-query metrics, and streaming the
 * planned reads. A layout supplies {@link #prepare(ObjectBackend, BoundQuery, QueryOptions)}: load (and cache) the
 * metadata it needs through the given backend, select the matching samples, and plan the reads of any ranges of
 * them; a plain query reads the whole result.
 *
 * <pre>{@code
 * final class L1Dataset extends ManifestDataset {
 *     protected PreparedResult prepare(ObjectBackend backend, BoundQuery query, QueryOptions options) { ... }
 * }
 * }</pre>
 */
public abstract class ManifestDataset implements Dataset, SupportsPreparedQueries {

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
     * Loads the metadata this query needs (through {@code backend}, so the load is counted to whoever counts its
     * requests), finds the matching samples and keeps them for reads of any part of the result. Must honour
     * {@code LIMIT} (first n in dataset order).
     */
    protected abstract PreparedResult prepare(ObjectBackend backend, BoundQuery query, QueryOptions options);

    /**
     * The id of {@code query}'s result on this dataset ({@link PreparedQuery#resultId()}): layout, prefix,
     * generation, the query and the fields read.
     */
    protected final String resultId(BoundQuery query, QueryOptions options) {
        return manifest.layout() + ":" + prefix + ":" + manifest.generation() + ":" + query.query() + " :fields "
                + String.join(",", options.fieldsOf(schema()));
    }

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
        // A cold client's metadata reads are round trips one after another: each is raced (RacedReads).
        PreparedResult prepared = prepare(RacedReads.of(metered, options, metrics), bound, options);
        return prepared.run(metered, prepared.samples() == 0 ? List.of() : prepared.allTasks(), metrics);
    }

    @Override
    public RetrievalPlan plan(Query query, QueryOptions options) {
        BoundQuery bound = query.bind(schema());
        PreparedResult prepared = prepare(backend, bound, requireNonNull(options, "options is null"));
        return prepared.plan(prepared.all());
    }

    /**
     * Prepares on a view of the backend made for this prepared query ({@code withMetrics}, counting nothing), as
     * {@link #query} plans and reads on one made for its query: a backend may share work among the requests of one
     * unit of work (the FAC store shares the checked units of its small reads), and a prepared query and the reads of
     * it are one.
     */
    @Override
    public PreparedQuery prepare(Query query, QueryOptions options) {
        requireNonNull(options, "options is null");
        return prepare(RacedReads.of(backend.withMetrics(RequestMetrics.NONE), options, RequestMetrics.NONE),
                query.bind(schema()), options);
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
