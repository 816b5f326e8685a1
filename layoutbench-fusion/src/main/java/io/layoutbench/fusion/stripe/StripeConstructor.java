package io.layoutbench.fusion.stripe;

/**
 * Packs items (the byte sizes of column chunks) into stripes of {@code k} data blocks, never splitting an item,
 * so that the sum over stripes of their largest data block (and so the parity stored) is small. No data block may
 * be larger than the largest item. Implementations are stateless and thread-safe.
 *
 * <pre>{@code
 * StripeAssignment stripes = StripeConstructors.fac().construct(new long[] {30, 10, 10, 5, 5}, 2);
 * }</pre>
 */
public interface StripeConstructor {

    /** A short name for reports: {@code fac}, {@code fac-refined}, {@code optimal}. */
    String name();

    /**
     * Assigns every item to one data block of one stripe.
     *
     * @param sizes      item sizes in bytes, each at least 0; item {@code i} is index {@code i} in the result
     * @param dataBlocks k, data blocks per stripe
     */
    StripeAssignment construct(long[] sizes, int dataBlocks);
}
