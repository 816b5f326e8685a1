package io.layoutbench.layouts.l1;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.PartWriter;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.SupportsDistributedWrites;
import io.layoutbench.api.layout.WriteJob;
import io.layoutbench.api.layout.WrittenPart;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.LayoutModel;
import io.layoutbench.api.model.SupportsModelling;
import io.layoutbench.layouts.common.JobCommit;
import io.layoutbench.layouts.common.LayoutOptions;
import io.layoutbench.layouts.common.PayloadColumns;
import io.layoutbench.layouts.common.WriteTarget;
import io.layoutbench.layouts.manifest.DatasetManifest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Layout L1: one object per sample, at {@code <prefix>/<generation>/samples/<key>} (the sample's {@code filename},
 * or its position for a schema without one), plus a metadata table in Parquet (the metadata columns, {@code label}
 * written as the paper's {@code human_label}, then {@code crc32c}, and {@code data_size} when the schema has no
 * {@code filesize_bytes}) that the client loads once and caches. A query reads the table, evaluates the predicate
 * locally, then sends one GET per matching sample (in both modes: there is nothing to merge). The table is checked
 * as it loads against the checksums the manifest records for it, and each sample against its CRC32C.
 *
 * <pre>{@code
 * StorageLayout l1 = StorageLayouts.get("l1");
 * try (DatasetWriter writer = l1.create(backend, "mini/l1", MetadataSchema.imageNet(), Map.of())) {
 *     ... writer.commit();
 * }
 * }</pre>
 */
public final class L1Layout implements StorageLayout, SupportsModelling, SupportsDistributedWrites {

    /** The layout's name. */
    public static final String NAME = "l1";
    static final int FORMAT_VERSION = 1;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "one object per sample plus a Parquet metadata table (the paper's L1)";
    }

    @Override
    public DatasetWriter create(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        LayoutOptions.of(NAME, options, Set.of());
        return new L1Writer(backend, WriteTarget.dataset(backend, NAME, prefix), schema);
    }

    @Override
    public WriteJob startJob(ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        LayoutOptions.of(NAME, options, Set.of());
        return JobCommit.start(NAME, backend, prefix, schema, options);
    }

    @Override
    public PartWriter openPart(ObjectBackend backend, WriteJob job, int part, String attempt) {
        return new L1Writer(backend, WriteTarget.part(JobCommit.check(job, NAME), part, attempt), job.schema())
                .asPartWriter();
    }

    /**
     * Merges the parts' metadata tables into one, and records where each part's sample objects are: a part's objects
     * stay in its directory, named as the part named them ({@link L1Dataset}).
     */
    @Override
    public DatasetSummary commitJob(ObjectBackend backend, WriteJob job, List<WrittenPart> parts) {
        JobCommit commit = JobCommit.of(backend, JobCommit.check(job, NAME), FORMAT_VERSION, parts);
        Map<String, String> properties = new HashMap<>();
        properties.put(L1Dataset.METADATA_KEY, commit.mergeTables(L1Writer.METADATA, L1Dataset.METADATA_KEY,
                L1Writer.tableSchema(job.schema())));
        long start = 0;
        int index = 0;
        for (DatasetManifest part : commit.parts()) {
            if (part.sampleCount() > 0) {
                properties.put(L1Dataset.partPrefix(index), commit.property(part, L1Dataset.SAMPLES_PREFIX));
                properties.put(L1Dataset.partStart(index), Long.toString(start));
                index++;
            }
            start += part.sampleCount();
        }
        properties.put(L1Dataset.SAMPLE_PARTS, Integer.toString(index));
        return commit.publish(properties);
    }

    @Override
    public void abortJob(ObjectBackend backend, WriteJob job) {
        JobCommit.abort(backend, JobCommit.check(job, NAME));
    }

    @Override
    public Dataset open(ObjectBackend backend, String prefix) {
        return new L1Dataset(backend, prefix);
    }

    @Override
    public LayoutModel model(DatasetMetadata data, Map<String, String> options) {
        LayoutOptions.of(NAME, options, Set.of());
        PayloadColumns.requireSingleField(data.schema(), NAME);
        return new L1Model(data);
    }
}
