package io.layoutbench.fusion.pushdown;

/**
 * Fusion's cost equation: push a projection down to the node holding a column chunk only when
 * {@code selectivity × compressibility < 1}, that is when the selected values, uncompressed, are smaller than the
 * compressed chunk the coordinator would fetch instead. Selectivity is exact (the filter bitmaps are known by then);
 * compressibility is the chunk's uncompressed over compressed size from the Parquet footer.
 *
 * <pre>{@code
 * CostEquation.pushesProjection(0.01, 3.2);   // true: 0.032 < 1
 * CostEquation.pushesProjection(0.5, 2.0);    // false: 1.0 is not < 1
 * }</pre>
 */
public final class CostEquation {

    private CostEquation() {
    }

    /**
     * Whether to push the projection of a chunk down.
     *
     * @param selectivity     fraction of the chunk's rows selected, in [0, 1]
     * @param compressibility uncompressed over compressed size, positive
     * @throws IllegalArgumentException if either is out of range
     */
    public static boolean pushesProjection(double selectivity, double compressibility) {
        return product(selectivity, compressibility) < 1.0;
    }

    /** {@code selectivity × compressibility}, checked. */
    public static double product(double selectivity, double compressibility) {
        if (!(selectivity >= 0 && selectivity <= 1)) {
            throw new IllegalArgumentException("selectivity must be in [0, 1], got " + selectivity);
        }
        if (!(compressibility > 0) || Double.isInfinite(compressibility)) {
            throw new IllegalArgumentException("compressibility must be a positive number, got " + compressibility);
        }
        return selectivity * compressibility;
    }
}
