package io.layoutbench.api.layout;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;

/**
 * What one writer of a {@link WriteJob} wrote and committed: the message a task sends its coordinator. It names the
 * part's own manifest; the job's commit reads the manifests of the parts it is given and no other, so objects of a
 * failed or duplicate attempt are never part of the dataset.
 *
 * <pre>{@code
 * WrittenPart written = partWriter.commit();   // on the executor
 * layout.commitJob(backend, job, List.of(written, ...));   // on the driver
 * }</pre>
 *
 * @param generation   the job's generation
 * @param part         the part's index: the dataset's samples are the parts' in ascending index order
 * @param attempt      the attempt that wrote it (a Spark task id); attempts of a part write apart
 * @param manifestKey  key of the part's manifest
 * @param samples      samples the part holds
 * @param payloadBytes payload bytes the part holds
 */
public record WrittenPart(String generation, int part, String attempt, String manifestKey, long samples,
        long payloadBytes) implements Serializable {

    private static final long serialVersionUID = 1L;

    public WrittenPart {
        requireNonNull(generation, "generation is null");
        requireNonNull(attempt, "attempt is null");
        requireNonNull(manifestKey, "manifestKey is null");
        if (part < 0 || samples < 0 || payloadBytes < 0) {
            throw new IllegalArgumentException("A written part's index and counts must be >= 0: part " + part
                    + ", samples " + samples + ", payload " + payloadBytes);
        }
    }
}
