package io.layoutbench.spark;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.SupportsDistributedWrites;
import io.layoutbench.api.layout.WriteJob;
import io.layoutbench.api.layout.WrittenPart;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A DataFrame written as a layoutbench dataset: the driver starts a distributed write job of the layout
 * ({@link SupportsDistributedWrites}), every task writes its partition as a part (shards or files of its own), and
 * the driver commits the parts its tasks reported once all succeeded, writing the manifest; if the job fails, the
 * driver aborts it and what the tasks wrote is deleted. Spark's commit coordinator lets one attempt of each partition
 * commit, and the layout commits only the parts reported, so a retried or speculative task never duplicates a
 * sample.
 *
 * <p>A dataset is written whole: {@code mode("overwrite")} replaces the dataset at the path (its readers finish on
 * it), {@code mode("append")} writes one where there is none and refuses to add to one. Spark refuses the default
 * mode, {@code errorifexists}, for a source without a catalog, so say which.
 */
final class LayoutbenchWrite implements WriteBuilder, SupportsTruncate, Write, BatchWrite {

    private static final Logger LOG = LoggerFactory.getLogger(LayoutbenchWrite.class);

    private final SourceOptions options;
    private final StructType schema;
    private boolean overwrite;
    private WriteJob job;

    LayoutbenchWrite(SourceOptions options, StructType schema) {
        this.options = options;
        this.schema = schema;
    }

    @Override
    public WriteBuilder truncate() {
        overwrite = true;
        return this;
    }

    @Override
    public Write build() {
        return this;
    }

    @Override
    public String description() {
        return "layoutbench " + options.layout() + " " + options.prefix();
    }

    @Override
    public BatchWrite toBatch() {
        MetadataSchema metadata = SparkSchemas.toMetadata(schema);
        try (ObjectBackend backend = options.openBackend()) {
            job = layout().startJob(backend, options.prefix(), metadata, options.layoutOptions());
        }
        // The job knows what it would replace, as of its start: an append refuses to replace anything.
        if (!overwrite && !job.replacing().isEmpty()) {
            throw new IllegalStateException("A " + options.layout() + " dataset exists at '" + options.prefix()
                    + "' in " + options.backend() + ": a layoutbench dataset is written whole, not appended to. "
                    + "Write with mode(\"overwrite\") to replace it");
        }
        LOG.info("Writing a {} dataset to '{}' in {} as generation {}", options.layout(), options.prefix(),
                options.backend(), job.generation());
        return this;
    }

    private SupportsDistributedWrites layout() {
        if (options.layoutOf() instanceof SupportsDistributedWrites distributed) {
            return distributed;
        }
        throw new UnsupportedOperationException("The " + options.layout() + " layout cannot be written by several "
                + "tasks at once (it does not implement SupportsDistributedWrites)");
    }

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        return new LayoutbenchDataWriter.Factory(options, job, schema);
    }

    @Override
    public void commit(WriterCommitMessage[] messages) {
        List<WrittenPart> parts = new ArrayList<>(messages.length);
        for (WriterCommitMessage message : messages) {
            parts.add(((LayoutbenchDataWriter.Committed) message).part());
        }
        // A commit that throws is aborted by Spark (V2TableWriteExec), and the abort keeps a job that did commit.
        try (ObjectBackend backend = options.openBackend()) {
            DatasetSummary summary = layout().commitJob(backend, job, parts);
            LOG.info("Committed {} samples ({} payload bytes) from {} parts as the {} dataset at '{}'",
                    summary.sampleCount(), summary.payloadBytes(), parts.size(), options.layout(), options.prefix());
        }
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        try (ObjectBackend backend = options.openBackend()) {
            layout().abortJob(backend, job);
            LOG.info("Aborted the write of a {} dataset to '{}' (generation {}): deleted what its tasks wrote, unless "
                    + "it had committed", options.layout(), options.prefix(), job.generation());
        }
    }
}
