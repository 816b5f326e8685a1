package io.layoutbench.api.layout;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import java.util.List;
import java.util.Map;

/**
 * A {@link StorageLayout} whose datasets many writers write at once, each a part, committed once: how a Spark job
 * ingests. The coordinator starts a job; each task writes a part (a retried or speculative task writes its own copy
 * apart); the coordinator commits the parts its tasks reported, in part order, which writes the dataset's manifest
 * once, or aborts the job, which deletes what any part wrote. As with {@link DatasetWriter}, nothing is visible before
 * the commit, and the commit replaces a dataset at the prefix only if it is the one the job started to replace.
 * Every layout shipped with layoutbench supports it.
 *
 * <pre>{@code
 * SupportsDistributedWrites layout = (SupportsDistributedWrites) StorageLayouts.get("l2");
 * WriteJob job = layout.startJob(backend, "imagenet/l2", schema, Map.of());
 * List<WrittenPart> parts = ...;   // each task: try (PartWriter w = layout.openPart(backend, job, p, attempt)) {...}
 * layout.commitJob(backend, job, parts);   // or layout.abortJob(backend, job) if any task failed for good
 * }</pre>
 */
public interface SupportsDistributedWrites {

    /**
     * Starts a distributed write of a dataset of {@code schema} under {@code prefix}; checks the options as
     * {@link StorageLayout#create} does and writes nothing.
     */
    WriteJob startJob(ObjectBackend backend, String prefix, MetadataSchema schema, Map<String, String> options);

    /**
     * Opens a writer of part {@code part} of {@code job}, written by {@code attempt} (a name unique among the
     * attempts of that part: a task id).
     */
    PartWriter openPart(ObjectBackend backend, WriteJob job, int part, String attempt);

    /**
     * Commits {@code parts} (one per part index, any order) as the dataset: its samples are the parts' in ascending
     * index order. Then, as any commit does, deletes what below the prefix neither the new manifest nor the one it
     * replaced lists: failed attempts, dropped duplicates, the parts' own manifests, older or abandoned ingests.
     *
     * @throws IllegalArgumentException naming the parts if two report one index, a part is of another job or
     *         attempt, or a sample name is in two parts
     * @throws io.layoutbench.api.backend.CorruptDataException naming the part if its manifest is not what its writer
     *         reported
     * @throws io.layoutbench.api.backend.StorageException if another ingest committed at the prefix since the job
     *         started (nothing is replaced then)
     */
    DatasetSummary commitJob(ObjectBackend backend, WriteJob job, List<WrittenPart> parts);

    /**
     * Deletes everything the job's writers wrote, unless the job committed (a coordinator may abort after a commit
     * that reported an error: the committed dataset stays). The dataset the job would have replaced is untouched.
     */
    void abortJob(ObjectBackend backend, WriteJob job);
}
