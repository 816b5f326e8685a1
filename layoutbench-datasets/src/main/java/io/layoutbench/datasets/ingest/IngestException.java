package io.layoutbench.datasets.ingest;

import io.layoutbench.api.LayoutBenchException;

/**
 * Real data could not be ingested: a manifest is malformed, a listed file is missing or unreadable, a declared value
 * disagrees with the file. The message names the file and, for manifests, the line.
 *
 * <pre>{@code
 * try (Stream<Sample> samples = CsvManifestSource.open(manifest, IngestOptions.defaults()).samples()) {
 *     samples.forEach(writer::add);
 * } catch (IngestException e) {
 *     System.err.println(e.getMessage());   // "train.csv line 12, column path: file images/a.jpg does not exist"
 * }
 * }</pre>
 */
public class IngestException extends LayoutBenchException {
    private static final long serialVersionUID = 1L;

    public IngestException(String message) {
        super(message);
    }

    public IngestException(String message, Throwable cause) {
        super(message, cause);
    }
}
