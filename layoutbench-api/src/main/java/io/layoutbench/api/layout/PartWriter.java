package io.layoutbench.api.layout;

import io.layoutbench.api.dataset.Sample;

/**
 * Writes one part of a {@link WriteJob}: samples added in order, objects below the part's own directory of the job's
 * generation, nothing visible until the job commits. Not thread-safe: one thread (one task) adds samples.
 *
 * <pre>{@code
 * try (PartWriter part = layout.openPart(backend, job, partition, "task-" + taskId)) {
 *     rows.forEach(row -> part.add(toSample(row)));
 *     return part.commit();   // the message for the coordinator
 * }
 * }</pre>
 */
public interface PartWriter extends AutoCloseable {

    /** Adds one sample; its metadata must match the job's schema. */
    void add(Sample sample);

    /** Flushes everything, writes the part's manifest and returns what it holds. */
    WrittenPart commit();

    /** Deletes what this writer wrote if it was not committed. */
    @Override
    void close();
}
