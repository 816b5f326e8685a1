/**
 * Real data as {@link io.layoutbench.datasets.SampleSource}s: image folders laid out as {@code label/file}
 * ({@link io.layoutbench.datasets.ingest.ImageFolderSource}), folders of any media laid out the same way
 * ({@link io.layoutbench.datasets.ingest.MediaFolderSource}) and CSV manifests
 * ({@link io.layoutbench.datasets.ingest.CsvManifestSource}).
 */
package io.layoutbench.datasets.ingest;
