package io.layoutbench.api.predicate;

import java.util.HashSet;
import java.util.Set;

/**
 * What is known about one column's values in a row group or page, for {@link BoundPredicate#prune pruning}.
 *
 * <p>Bounds are in the language's order: numbers numerically (for DOUBLE, NaN is greater than everything, so a
 * group that may hold NaN must say {@code max = NaN} or leave the bounds unknown; Parquet's own statistics leave NaN
 * out), strings by {@link String#compareTo} (UTF-16 order; it differs from Parquet's unsigned UTF-8 byte order only
 * for characters above U+FFFF against U+E000..U+FFFF), booleans FALSE before TRUE. Bounds may be loose (any
 * {@code min <=} every non-null value, any {@code max >=} every one) but never too tight.
 *
 * <pre>{@code
 * ColumnStatistics width = ColumnStatistics.of(120L, 4000L, 0);
 * ColumnStatistics label = ColumnStatistics.of("bagel", "tench", 0).withDistinctValues(Set.of("bagel", "tench"));
 * ColumnStatistics unknown = ColumnStatistics.unknown();
 * }</pre>
 *
 * @param min            the smallest non-null value, or null if unknown or there is none
 * @param max            the largest non-null value, or null if unknown or there is none; null exactly when
 *                       {@code min} is
 * @param nullCount      how many values are NULL, or {@link #UNKNOWN_COUNT}
 * @param distinctValues every distinct non-null value (a Parquet dictionary page, say), or null if unknown
 */
public record ColumnStatistics(Object min, Object max, long nullCount, Set<?> distinctValues) {

    /** {@link #nullCount()} when the count is not known. */
    public static final long UNKNOWN_COUNT = -1;

    private static final ColumnStatistics UNKNOWN = new ColumnStatistics(null, null, UNKNOWN_COUNT, null);

    public ColumnStatistics {
        min = normalize(min, "min");
        max = normalize(max, "max");
        if ((min == null) != (max == null)) {
            throw new IllegalArgumentException("min and max must both be known or both unknown but got min=" + min
                    + ", max=" + max);
        }
        if (min != null) {
            if (min.getClass() != max.getClass()) {
                throw new IllegalArgumentException("min " + Scalars.describe(min) + " and max "
                        + Scalars.describe(max) + " have different types");
            }
            if (Scalars.compare(min, max) > 0) {
                throw new IllegalArgumentException("min " + min + " is greater than max " + max);
            }
        }
        if (nullCount < UNKNOWN_COUNT) {
            throw new IllegalArgumentException("nullCount must be >= 0 or UNKNOWN_COUNT but got " + nullCount);
        }
        if (distinctValues != null) {
            Set<Object> normalized = new HashSet<>();
            for (Object value : distinctValues) {
                Object v = normalize(value, "distinct value");
                if (v == null) {
                    throw new IllegalArgumentException("distinctValues holds non-null values only; count NULLs in"
                            + " nullCount");
                }
                if (min != null && v.getClass() != min.getClass()) {
                    throw new IllegalArgumentException("distinct value " + Scalars.describe(v)
                            + " has another type than min " + Scalars.describe(min));
                }
                normalized.add(v);
            }
            distinctValues = Set.copyOf(normalized);
        }
    }

    /** Bounds and null count, distinct values unknown. */
    public static ColumnStatistics of(Object min, Object max, long nullCount) {
        return new ColumnStatistics(min, max, nullCount, null);
    }

    /** Nothing known: every question about this column is answered "might match". */
    public static ColumnStatistics unknown() {
        return UNKNOWN;
    }

    /** These statistics with the complete set of distinct non-null values. */
    public ColumnStatistics withDistinctValues(Set<?> values) {
        return new ColumnStatistics(min, max, nullCount, values);
    }

    private static Object normalize(Object value, String what) {
        if (value == null || value instanceof Long || value instanceof Double || value instanceof String
                || value instanceof Boolean) {
            return value;
        } else if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        } else if (value instanceof Float f) {
            return f.doubleValue();
        }
        throw new IllegalArgumentException(what + " must be a Long, Double, String or Boolean but got "
                + Scalars.describe(value));
    }
}
