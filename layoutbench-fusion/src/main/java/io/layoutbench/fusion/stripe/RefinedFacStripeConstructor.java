package io.layoutbench.fusion.stripe;

/** Placeholder: replaced below. */
public final class RefinedFacStripeConstructor implements StripeConstructor {
    public static final String NAME = "fac-refined";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public StripeAssignment construct(long[] sizes, int dataBlocks) {
        return StripeConstructors.fac().construct(sizes, dataBlocks);
    }
}
