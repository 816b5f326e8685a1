/**
 * Real data as {@link io.layoutbench.datasets.SampleSource}s: image folders laid out as {@code label/file}
 * ({@link io.layoutbench.datasets.ingest.ImageFolderSource}), folders of any media laid out the same way
 * ({@link io.layoutbench.datasets.ingest.MediaFolderSource}), manifests with any columns in CSV, JSON Lines or
 * Parquet ({@link io.layoutbench.datasets.ingest.ManifestSource}), and the ImageNet-shaped CSV manifest, a preset of it
 * ({@link io.layoutbench.datasets.ingest.CsvManifestSource}).
 */
package io.layoutbench.datasets.ingest;
