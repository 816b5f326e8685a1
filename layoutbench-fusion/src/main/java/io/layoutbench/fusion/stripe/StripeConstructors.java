package io.layoutbench.fusion.stripe;

import java.util.Arrays;

/**
 * The stripe constructors of this package, and helpers they share.
 *
 * <pre>{@code
 * StripeAssignment paper = StripeConstructors.fac().construct(sizes, 6);
 * StripeAssignment better = StripeConstructors.facRefined().construct(sizes, 6);
 * }</pre>
 */
public final class StripeConstructors {

    private static final FacStripeConstructor FAC = new FacStripeConstructor();
    private static final RefinedFacStripeConstructor REFINED = new RefinedFacStripeConstructor();
    private static final RefinedFacStripeConstructor THOROUGH = new RefinedFacStripeConstructor(300, 2, 4,
            RefinedFacStripeConstructor.THOROUGH_NAME);

    private StripeConstructors() {
    }

    /** The paper's Algorithm 1. */
    public static StripeConstructor fac() {
        return FAC;
    }

    /** Algorithm 1 followed by this library's refinement; never worse than Algorithm 1. */
    public static StripeConstructor facRefined() {
        return REFINED;
    }

    /**
     * The refinement with a larger search (budget 300 nodes, each stripe paired with the next two, four passes):
     * lower overhead, about ten times slower than {@link #facRefined()}.
     */
    public static StripeConstructor facRefinedThorough() {
        return THOROUGH;
    }

    /**
     * The constructor named {@code name}: {@code fac}, {@code fac-refined}, {@code fac-refined-thorough} or
     * {@code optimal}.
     */
    public static StripeConstructor named(String name) {
        return switch (name) {
            case FacStripeConstructor.NAME -> FAC;
            case RefinedFacStripeConstructor.NAME -> REFINED;
            case RefinedFacStripeConstructor.THOROUGH_NAME -> THOROUGH;
            case ExactStripeSolver.NAME -> new ExactStripeSolver(ExactStripeSolver.DEFAULT_NODE_BUDGET);
            default -> throw new IllegalArgumentException("Unknown stripe constructor '" + name + "'; known: "
                    + FacStripeConstructor.NAME + ", " + RefinedFacStripeConstructor.NAME + ", "
                    + RefinedFacStripeConstructor.THOROUGH_NAME + ", " + ExactStripeSolver.NAME);
        };
    }

    static void checkInput(long[] sizes, int dataBlocks) {
        if (dataBlocks < 1) {
            throw new IllegalArgumentException("A stripe needs at least one data block, got " + dataBlocks);
        }
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] < 0) {
                throw new IllegalArgumentException("Item " + i + " has a negative size " + sizes[i]);
            }
        }
    }

    /** Item indices sorted by size, largest first, equal sizes by index. */
    static int[] bySizeDescending(long[] sizes) {
        // Sort (size, index) pairs packed in longs when they fit, which avoids boxing.
        int n = sizes.length;
        long max = 0;
        for (long size : sizes) {
            max = Math.max(max, size);
        }
        int indexBits = 32 - Integer.numberOfLeadingZeros(Math.max(1, n));
        if (64 - Long.numberOfLeadingZeros(max) + indexBits <= 63) {
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                // Descending size, ascending index: sort ascending on (~size, index).
                keys[i] = ((max - sizes[i]) << indexBits) | i;
            }
            Arrays.sort(keys);
            int[] order = new int[n];
            long mask = (1L << indexBits) - 1;
            for (int i = 0; i < n; i++) {
                order[i] = (int) (keys[i] & mask);
            }
            return order;
        }
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> sizes[a] != sizes[b] ? Long.compare(sizes[b], sizes[a]) : Integer.compare(a, b));
        return Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
    }
}
