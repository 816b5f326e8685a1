package io.layoutbench.parquet;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.predicate.ColumnStatistics;

/**
 * Bounds of the values of a column chunk or of one page, for pruning: every non-null value {@code v} satisfies
 * {@code min <= v <= max}. String bounds of page indexes may be truncated prefixes (and the max incremented), so they
 * are bounds, not values that occur.
 *
 * <pre>{@code
 * ColumnStats widths = rowGroup.column("width").stats().orElseThrow();
 * boolean mayHaveWide = widths.max() != null && (Long) widths.max() > 1000;
 * }</pre>
 *
 * @param type      the metadata type of the values; {@code min} and {@code max} are of its Java type
 * @param min       the lower bound, or null when unknown (no statistics, or only nulls)
 * @param max       the upper bound, or null when unknown
 * @param nullCount the number of nulls, or -1 when unknown
 */
public record ColumnStats(ColumnType type, Object min, Object max, long nullCount) {

    public ColumnStats {
        java.util.Objects.requireNonNull(type, "type is null");
        if ((min == null) != (max == null)) {
            throw new IllegalArgumentException("min and max must both be known or both unknown, got " + min
                    + " and " + max);
        }
        if (min != null && (!type.javaType().isInstance(min) || !type.javaType().isInstance(max))) {
            throw new IllegalArgumentException("Bounds " + min + " and " + max + " are not of type " + type);
        }
        if (nullCount < -1) {
            throw new IllegalArgumentException("nullCount must be >= -1, got " + nullCount);
        }
    }

    /** Whether min and max are known. */
    public boolean hasBounds() {
        return min != null;
    }

    /** Whether the null count is known. */
    public boolean hasNullCount() {
        return nullCount >= 0;
    }

    /**
     * These statistics as the predicate language's pruning reads them, for a chunk of {@code rowCount} rows. The
     * maximum of a DOUBLE chunk is taken as NaN, the largest value there: Parquet statistics leave NaN out.
     */
    public ColumnStatistics toColumnStatistics(long rowCount) {
        long nulls = hasNullCount() ? nullCount : ColumnStatistics.UNKNOWN_COUNT;
        if (hasBounds()) {
            return ColumnStatistics.of(min, type == ColumnType.DOUBLE ? Double.NaN : max, nulls);
        }
        if (nulls == rowCount) {
            return ColumnStatistics.of(null, null, nulls);   // only NULLs
        }
        return ColumnStatistics.unknown();
    }
}
