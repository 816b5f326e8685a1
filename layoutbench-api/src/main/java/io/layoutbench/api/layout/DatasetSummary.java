package io.layoutbench.api.layout;

import static java.util.Objects.requireNonNull;

/**
 * What a committed dataset holds.
 *
 * <pre>{@code
 * DatasetSummary summary = writer.commit();
 * System.out.printf("%d samples in %d objects%n", summary.sampleCount(), summary.objectCount());
 * }</pre>
 *
 * @param layout      the layout's name
 * @param prefix      where the dataset lives in its backend
 * @param sampleCount samples written
 * @param payloadBytes sum of the samples' sizes
 * @param objectCount objects written, manifest and metadata included
 * @param storedBytes bytes stored, manifest and metadata included
 */
public record DatasetSummary(String layout, String prefix, long sampleCount, long payloadBytes, long objectCount,
        long storedBytes) {
    public DatasetSummary {
        requireNonNull(layout, "layout is null");
        requireNonNull(prefix, "prefix is null");
        if (sampleCount < 0 || payloadBytes < 0 || objectCount < 0 || storedBytes < 0) {
            throw new IllegalArgumentException("Dataset counts must be >= 0: samples=" + sampleCount + ", payload="
                    + payloadBytes + ", objects=" + objectCount + ", stored=" + storedBytes);
        }
    }
}
