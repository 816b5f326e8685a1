package io.layoutbench.fusion.coding;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.fusion.codec.CodeParameters;

import java.util.List;

/**
 * How an object is cut into stripes: which object bytes each data block holds. Built by {@link CodingPlanner}.
 *
 * @param code        the erasure code
 * @param strategy    FAC (regions kept whole), fixed-size blocks, or one block for a small object
 * @param constructor the stripe constructor FAC used ({@code fac}, {@code fac-refined}), or {@code fixed}
 * @param objectSize  the object's length
 * @param stripes     the stripes, in order
 */
public record CodingPlan(CodeParameters code, Strategy strategy, String constructor, long objectSize,
        List<StripePlan> stripes) {

    /** How the data blocks were cut. */
    public enum Strategy {
        /** File-format-aware: every region of the chunk map whole in one data block, blocks of varying sizes. */
        FAC,
        /** Fixed-size blocks cut at every {@code block size} bytes, which may split chunks. */
        FIXED_BLOCKS,
        /**
         * A small object whole in the first data block, the others empty: read whole with one node read instead of
         * k, for n - k times its size in parity. (Last, so that the manifests' ordinals of the others keep.)
         */
        SINGLE_BLOCK
    }

    public CodingPlan {
        requireNonNull(code, "code is null");
        requireNonNull(strategy, "strategy is null");
        requireNonNull(constructor, "constructor is null");
        stripes = List.copyOf(requireNonNull(stripes, "stripes is null"));
        long covered = 0;
        for (StripePlan stripe : stripes) {
            if (stripe.dataBlocks().size() != code.dataBlocks()) {
                throw new IllegalArgumentException("A stripe of " + code + " has " + code.dataBlocks()
                        + " data blocks, got " + stripe.dataBlocks().size());
            }
            covered += stripe.dataBytes();
        }
        if (covered != objectSize) {
            throw new IllegalArgumentException("The stripes hold " + covered + " bytes but the object is " + objectSize);
        }
    }

    /** The sum over stripes of their block size. */
    public long blockSizeSum() {
        return stripes.stream().mapToLong(StripePlan::blockSize).sum();
    }

    /** Bytes of parity: (n - k) x {@link #blockSizeSum()}. */
    public long parityBytes() {
        return code.parityBlocks() * blockSizeSum();
    }

    /** Bytes stored: the object (never padded) plus parity. */
    public long storedBytes() {
        return objectSize + parityBytes();
    }

    /** Parity beyond the code's optimum of (n - k) / k of the data, as a fraction of that optimum. */
    public double extraOverhead() {
        return objectSize == 0 ? 0 : (double) code.dataBlocks() * blockSizeSum() / objectSize - 1;
    }

    /** How many regions of {@code map} lie in more than one data block. */
    public int splitRegions(ChunkMap map, boolean chunksOnly) {
        int split = 0;
        for (ObjectRegion region : map.regions()) {
            if (chunksOnly && !region.isChunk()) {
                continue;
            }
            if (!heldByOneBlock(region.range())) {
                split++;
            }
        }
        return split;
    }

    private boolean heldByOneBlock(ByteRange range) {
        for (StripePlan stripe : stripes) {
            for (BlockPlan block : stripe.dataBlocks()) {
                for (ByteRange segment : block.segments()) {
                    if (segment.contains(range)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return describe(strategy, constructor) + " " + code + ": "
                + stripes.size() + " stripes, " + objectSize + " data bytes, " + parityBytes() + " parity bytes ("
                + String.format("%+.2f%%", 100 * extraOverhead()) + " over the optimum)";
    }

    /** "FAC (fac-refined)", "fixed blocks" or "one block": how {@code strategy} cut an object, for people. */
    public static String describe(Strategy strategy, String constructor) {
        return switch (strategy) {
            case FAC -> "FAC (" + constructor + ")";
            case FIXED_BLOCKS -> "fixed blocks";
            case SINGLE_BLOCK -> "one block";
        };
    }
}
