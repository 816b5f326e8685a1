/**
 * Real data as {@link io.layoutbench.dataset.SampleSource}s: image folders laid out as {@code label/file}
 * ({@link io.layoutbench.dataset.ingest.ImageFolderSource}) and CSV manifests
 * ({@link io.layoutbench.dataset.ingest.CsvManifestSource}).
 */
package io.layoutbench.dataset.ingest;
