package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

/**
 * What the coordinator did with one column chunk, and why.
 *
 * <pre>{@code
 * report.decisions().stream().filter(d -> !d.pushedDown()).forEach(System.out::println);
 * }</pre>
 *
 * @param rowGroup        the chunk's row group
 * @param column          its column
 * @param operation       {@code filter}, {@code project} or {@code aggregate}
 * @param selectivity     fraction of the row group's rows selected when the decision was made (1 for filters)
 * @param compressibility the chunk's uncompressed over compressed size, from the footer
 * @param pushedDown      whether the operation ran on the node holding the chunk (else the chunk was fetched)
 * @param bytesMoved      bytes that crossed the network for it: the reply (and bitmap sent) or the chunk fetched
 */
public record ChunkDecision(int rowGroup, String column, String operation, double selectivity,
        double compressibility, boolean pushedDown, long bytesMoved) {

    public ChunkDecision {
        requireNonNull(column, "column is null");
        requireNonNull(operation, "operation is null");
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "row group %d %s %s: selectivity %.4f x compressibility %.2f = "
                + "%.4f -> %s (%d bytes)", rowGroup, column, operation, selectivity, compressibility,
                selectivity * compressibility, pushedDown ? "pushed down" : "fetched", bytesMoved);
    }
}
