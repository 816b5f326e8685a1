package io.layoutbench.fusion.stripe;

import static java.util.Objects.requireNonNull;

import io.layoutbench.fusion.codec.CodeParameters;

import java.util.Arrays;

/**
 * Items (column chunks) assigned to the data blocks of stripes: stripe {@code s} has {@code k} data blocks ("bins"),
 * bin {@code b} holds the items {@link #items(int, int)}, whose sizes add up to {@link #load(int, int)}. The data
 * blocks of a stripe are zero-padded, implicitly, to its largest, {@link #blockSize(int)}, and each of its n - k
 * parity blocks is that long; so the parity an assignment costs is (n - k) times {@link #blockSizeSum()}.
 *
 * <p>Immutable and thread-safe. Built by a {@link StripeConstructor} or {@link #of}, which checks that every item is
 * in exactly one bin.
 *
 * <pre>{@code
 * StripeAssignment stripes = StripeConstructors.fac().construct(chunkSizes, 6);
 * long parity = stripes.parityBytes(CodeParameters.rs(9, 6));
 * double extra = stripes.extraOverhead();   // 0.012: 1.2% more parity than the (n - k) / k optimum
 * }</pre>
 */
public final class StripeAssignment {

    private final long[] sizes;
    private final int dataBlocks;
    private final int[][][] bins;
    private final long[][] loads;
    private final long[] blockSizes;
    private final long blockSizeSum;
    private final long dataBytes;

    private StripeAssignment(long[] sizes, int dataBlocks, int[][][] bins) {
        this.sizes = sizes;
        this.dataBlocks = dataBlocks;
        this.bins = bins;
        this.loads = new long[bins.length][dataBlocks];
        this.blockSizes = new long[bins.length];
        long sum = 0;
        for (int s = 0; s < bins.length; s++) {
            long max = 0;
            for (int b = 0; b < dataBlocks; b++) {
                long load = 0;
                for (int item : bins[s][b]) {
                    load += sizes[item];
                }
                loads[s][b] = load;
                max = Math.max(max, load);
            }
            blockSizes[s] = max;
            sum += max;
        }
        this.blockSizeSum = sum;
        this.dataBytes = Arrays.stream(sizes).sum();
    }

    /**
     * An assignment of the items {@code 0 .. sizes.length) to {@code bins[stripe][bin]}.
     *
     * @throws IllegalArgumentException if a stripe does not have {@code dataBlocks} bins, or an item is in no bin,
     *                                  in two, or does not exist
     */
    public static StripeAssignment of(long[] sizes, int dataBlocks, int[][][] bins) {
        requireNonNull(sizes, "sizes is null");
        requireNonNull(bins, "bins is null");
        if (dataBlocks < 1) {
            throw new IllegalArgumentException("A stripe needs at least one data block, got " + dataBlocks);
        }
        int[] seen = new int[sizes.length];
        int[][][] copy = new int[bins.length][][];
        for (int s = 0; s < bins.length; s++) {
            if (bins[s].length != dataBlocks) {
                throw new IllegalArgumentException("Stripe " + s + " has " + bins[s].length + " data blocks, expected "
                        + dataBlocks);
            }
            copy[s] = new int[dataBlocks][];
            for (int b = 0; b < dataBlocks; b++) {
                copy[s][b] = bins[s][b].clone();
                for (int item : copy[s][b]) {
                    if (item < 0 || item >= sizes.length) {
                        throw new IllegalArgumentException("Stripe " + s + " block " + b + " holds item " + item
                                + " but there are " + sizes.length + " items");
                    }
                    if (seen[item]++ > 0) {
                        throw new IllegalArgumentException("Item " + item + " is in two data blocks");
                    }
                }
            }
        }
        for (int i = 0; i < sizes.length; i++) {
            if (seen[i] == 0) {
                throw new IllegalArgumentException("Item " + i + " (" + sizes[i] + " bytes) is in no data block");
            }
            if (sizes[i] < 0) {
                throw new IllegalArgumentException("Item " + i + " has a negative size " + sizes[i]);
            }
        }
        return new StripeAssignment(sizes.clone(), dataBlocks, copy);
    }

    /** Trusted constructor for the package's algorithms, which build valid, private arrays. */
    static StripeAssignment trusted(long[] sizes, int dataBlocks, int[][][] bins) {
        return new StripeAssignment(sizes, dataBlocks, bins);
    }

    /** Number of items. */
    public int itemCount() {
        return sizes.length;
    }

    /** Size of item {@code item}. */
    public long size(int item) {
        return sizes[item];
    }

    /** k, the data blocks per stripe. */
    public int dataBlocks() {
        return dataBlocks;
    }

    /** Number of stripes. */
    public int stripeCount() {
        return bins.length;
    }

    /** The items in data block {@code bin} of stripe {@code stripe}, in the order the algorithm placed them. */
    public int[] items(int stripe, int bin) {
        return bins[stripe][bin].clone();
    }

    /** Bytes of data in data block {@code bin} of stripe {@code stripe}. */
    public long load(int stripe, int bin) {
        return loads[stripe][bin];
    }

    /** The largest data block of stripe {@code stripe}: the size of its parity blocks. */
    public long blockSize(int stripe) {
        return blockSizes[stripe];
    }

    /** The sum over stripes of their largest data block: what a stripe constructor minimises. */
    public long blockSizeSum() {
        return blockSizeSum;
    }

    /** The largest data block of all. */
    public long largestBlock() {
        return Arrays.stream(blockSizes).max().orElse(0);
    }

    /** Total bytes of the items. */
    public long dataBytes() {
        return dataBytes;
    }

    /** Bytes of parity under {@code code}: (n - k) times {@link #blockSizeSum()}. */
    public long parityBytes(CodeParameters code) {
        checkCode(code);
        return code.parityBlocks() * blockSizeSum;
    }

    /** Bytes stored under {@code code}: data (never padded) plus parity. */
    public long storedBytes(CodeParameters code) {
        return dataBytes + parityBytes(code);
    }

    /**
     * How much more parity this assignment costs than the optimum of the code, (n - k) / k of the data, as a
     * fraction: {@code k * blockSizeSum / dataBytes - 1}, which does not depend on n. This is the paper's "storage
     * overhead relative to the optimal" (its optimum for RS(9,6) is 0.5x).
     */
    public double extraOverhead() {
        return dataBytes == 0 ? 0 : (double) dataBlocks * blockSizeSum / dataBytes - 1;
    }

    private void checkCode(CodeParameters code) {
        if (code.dataBlocks() != dataBlocks) {
            throw new IllegalArgumentException("This assignment has " + dataBlocks + " data blocks per stripe but "
                    + code + " has " + code.dataBlocks());
        }
    }

    @Override
    public String toString() {
        return itemCount() + " items in " + stripeCount() + " stripes of " + dataBlocks + " data blocks, block sizes "
                + "summing to " + blockSizeSum + " (" + String.format("%+.3f%%", 100 * extraOverhead())
                + " parity over the optimum)";
    }
}
