package io.layoutbench.spark;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.StorageLayouts;
import java.io.Serializable;
import java.util.Locale;
import java.util.Map;

/**
 * Where a dataset is and how to read it, from the options of {@code spark.read().format("layoutbench")}: the
 * {@code backend} URI, the {@code layout}, the prefix (the path given to {@code load}), the retrieval {@code mode}
 * and the bytes a partition reads ({@code partition-bytes}). Serializable: executors open the dataset from it.
 *
 * @param backend        the backend's URI ({@code file:/data/objects}, {@code s3://bucket/prefix} ...)
 * @param layout         the layout's name
 * @param prefix         the dataset's prefix in the backend
 * @param mode           retrieval mode
 * @param partitionBytes bytes of reads a partition gets, at least
 */
record SourceOptions(String backend, String layout, String prefix, RetrievalMode mode, long partitionBytes)
        implements Serializable {

    /** Default partition size: 128 MiB of reads, Spark's own default for files. */
    static final long DEFAULT_PARTITION_BYTES = 128L << 20;

    /** The options Spark hands over (keys case-insensitive). */
    static SourceOptions of(Map<String, String> options) {
        Map<String, String> lower = new java.util.HashMap<>();
        options.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
        String backend = required(lower, "backend");
        String layout = required(lower, "layout");
        String prefix = required(lower, "path");
        RetrievalMode mode = switch (lower.getOrDefault("mode", "optimized").toLowerCase(Locale.ROOT)) {
            case "optimized" -> RetrievalMode.OPTIMIZED;
            case "paper" -> RetrievalMode.PAPER;
            default -> throw new IllegalArgumentException("Option 'mode' must be optimized or paper, got '"
                    + lower.get("mode") + "'");
        };
        long partitionBytes = Long.parseLong(lower.getOrDefault("partition-bytes", "" + DEFAULT_PARTITION_BYTES));
        return new SourceOptions(backend, layout, prefix, mode, partitionBytes);
    }

    private static String required(Map<String, String> options, String key) {
        String value = options.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("The layoutbench data source needs option '" + key + "'"
                    + (key.equals("path") ? " (the dataset's prefix: load(\"imagenet/l2\"))" : ""));
        }
        return value;
    }

    /** Opens the backend and the dataset; close both. */
    Opened open() {
        ObjectBackend opened = ObjectBackends.open(backend);
        try {
            return new Opened(opened, StorageLayouts.get(layout).open(opened, prefix));
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
