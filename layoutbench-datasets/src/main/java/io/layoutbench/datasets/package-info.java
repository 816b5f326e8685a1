/**
 * Datasets to store in a layout: {@link io.layoutbench.datasets.SampleSource} and its implementations, a
 * deterministic synthetic ImageNet-1K ({@code synthetic}), header readers for image dimensions ({@code image}) and for
 * the facts of any media ({@code media}), and ingestion of real image and media folders and CSV manifests
 * ({@code ingest}).
 */
package io.layoutbench.datasets;
