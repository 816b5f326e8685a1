package io.layoutbench.spark;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.layouts.common.LayoutOptions;
import java.io.Serializable;
import java.util.Locale;
import java.util.Map;

/**
 * Where a dataset is and how to read it, from the options of {@code spark.read().format("layoutbench")}: the
 * {@code backend} URI, the {@code layout}, the prefix (the path given to {@code load}), the retrieval {@code mode}
 * and the bytes a partition reads ({@code partition-bytes}). Serializable: executors open the dataset from it.
 *
 * @param backend        the backend's URI ({@code file:/data/objects}, {@code s3://bucket/prefix} ...)
 * @param backendProperties the backend provider's properties, from the options {@code backend.<name>}
 * @param layout         the layout's name
 * @param prefix         the dataset's prefix in the backend
 * @param mode           retrieval mode
 * @param partitionBytes bytes of reads a partition gets, at least (a size: {@code 134217728}, {@code 128MB})
 * @param layoutOptions  every other option: the layout's, for a write ({@code shard-size}, {@code file-size} ...)
 */
record SourceOptions(String backend, Map<String, String> backendProperties, String layout, String prefix,
        RetrievalMode mode, long partitionBytes, Map<String, String> layoutOptions) implements Serializable {

    /** The options the source reads itself; every other one is a layout option. */
    private static final java.util.Set<String> OWN = java.util.Set.of("backend", "layout", "path", "mode",
            "partition-bytes");

    /** Options starting with this are the backend's properties ({@code backend.endpoint}, {@code backend.region}). */
    static final String BACKEND_PROPERTY = "backend.";

    /** Default partition size: 128 MiB of reads, Spark's own default for files. */
    static final long DEFAULT_PARTITION_BYTES = 128L << 20;

    /** The options Spark hands over (keys case-insensitive). */
    static SourceOptions of(Map<String, String> options) {
        Map<String, String> lower = new java.util.HashMap<>();
        Map<String, String> backendProperties = new java.util.TreeMap<>();
        options.forEach((k, v) -> {
            if (k.toLowerCase(Locale.ROOT).startsWith(BACKEND_PROPERTY)) {
                backendProperties.put(k.substring(BACKEND_PROPERTY.length()), v);   // the provider's own case
            } else {
                lower.put(k.toLowerCase(Locale.ROOT), v);
            }
        });
        String backend = required(lower, "backend");
        String layout = required(lower, "layout");
        String prefix = required(lower, "path");
        RetrievalMode mode = switch (lower.getOrDefault("mode", "optimized").toLowerCase(Locale.ROOT)) {
            case "optimized" -> RetrievalMode.OPTIMIZED;
            case "paper" -> RetrievalMode.PAPER;
            default -> throw new IllegalArgumentException("Option 'mode' must be optimized or paper, got '"
                    + lower.get("mode") + "'");
        };
        long partitionBytes = lower.containsKey("partition-bytes")
                ? LayoutOptions.parseSize("Option 'partition-bytes'", lower.get("partition-bytes"))
                : DEFAULT_PARTITION_BYTES;
        Map<String, String> layoutOptions = new java.util.TreeMap<>(lower);
        layoutOptions.keySet().removeAll(OWN);
        return new SourceOptions(backend, Map.copyOf(backendProperties), layout, prefix, mode, partitionBytes,
                Map.copyOf(layoutOptions));
    }

    private static String required(Map<String, String> options, String key) {
        String value = options.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("The layoutbench data source needs option '" + key + "'"
                    + (key.equals("path") ? " (the dataset's prefix: load(\"imagenet/l2\"))" : ""));
        }
        return value;
    }

    /** The options without the backend's properties' values, which may be credentials. */
    @Override
    public String toString() {
        return "SourceOptions[backend=" + backend + ", backendProperties=" + backendProperties.keySet() + ", layout="
                + layout + ", prefix=" + prefix + ", mode=" + mode + ", partitionBytes=" + partitionBytes
                + ", layoutOptions=" + layoutOptions + "]";
    }

    /** Opens the backend; close it. */
    ObjectBackend openBackend() {
        return openBackend(RequestMetrics.NONE);
    }

    /** Opens the backend counting every request into {@code metrics}, the dataset's query views' too; close it. */
    ObjectBackend openBackend(RequestMetrics metrics) {
        ObjectBackend opened = ObjectBackends.open(backend, backendProperties, RequestMetrics.NONE);
        return metrics == RequestMetrics.NONE ? opened : MeteredBackend.over(opened, metrics);
    }

    /** The layout. */
    StorageLayout layoutOf() {
        return StorageLayouts.get(layout);
    }

    /** Opens the backend and the dataset; close both. */
    Opened open() {
        return open(RequestMetrics.NONE);
    }

    /** Opens the backend, counting its requests into {@code metrics}, and the dataset; close both. */
    Opened open(RequestMetrics metrics) {
        ObjectBackend opened = openBackend(metrics);
        try {
            return new Opened(opened, layoutOf().open(opened, prefix));
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    /** A dataset and its backend. */
    record Opened(ObjectBackend backend, Dataset dataset) implements AutoCloseable {
        @Override
        public void close() {
            try (ObjectBackend b = backend) {
                dataset.close();
            }
        }
    }
}
