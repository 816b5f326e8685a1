/**
 * Datasets to store in a layout: {@link io.layoutbench.datasets.SampleSource} and its implementations, a
 * deterministic synthetic ImageNet-1K ({@code synthetic}), header readers for image dimensions ({@code image}) and
 * ingestion of real image folders and CSV manifests ({@code ingest}).
 */
package io.layoutbench.datasets;
