package io.layoutbench.api.layout;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a layout turns matching samples into requests.
 *
 * <pre>{@code
 * QueryOptions paper = QueryOptions.defaults().withMode(RetrievalMode.PAPER);
 * }</pre>
 */
public enum RetrievalMode {
    /**
     * What the LayoutBench paper did: L1 one GET per sample, L2 one ranged GET per sample, L3 every row group that
     * may match read whole (as DuckDB does). For side-by-side comparison.
     */
    PAPER,
    /**
     * Plan the byte ranges first and read close to the bytes needed: merged ranges where a merged read is cheaper,
     * page-index pruning for Parquet. The default.
     */
    OPTIMIZED;

    /** The mode named {@code name}, ignoring case. */
    public static RetrievalMode fromName(String name) {
        for (RetrievalMode mode : values()) {
            if (mode.name().equalsIgnoreCase(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("Unknown retrieval mode '" + name + "'; known modes: "
                + Arrays.stream(values()).map(RetrievalMode::label).collect(Collectors.joining(", ")));
    }

    /** Lower-case name, as used on the command line and in reports. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
