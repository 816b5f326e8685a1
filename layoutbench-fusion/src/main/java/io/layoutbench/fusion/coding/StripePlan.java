package io.layoutbench.fusion.coding;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The k data blocks of one stripe. Its parity blocks are {@link #blockSize()} long: the data blocks are zero-padded to
 * the longest for coding, but the padding is never stored.
 *
 * @param dataBlocks the k data blocks
 */
public record StripePlan(List<BlockPlan> dataBlocks) {
    public StripePlan {
        dataBlocks = List.copyOf(requireNonNull(dataBlocks, "dataBlocks is null"));
        if (dataBlocks.isEmpty()) {
            throw new IllegalArgumentException("A stripe has at least one data block");
        }
    }

    /** The longest data block: the length of every parity block. */
    public long blockSize() {
        long max = 0;
        for (BlockPlan block : dataBlocks) {
            max = Math.max(max, block.length());
        }
        return max;
    }

    /** Bytes of data in the stripe. */
    public long dataBytes() {
        long total = 0;
        for (BlockPlan block : dataBlocks) {
            total += block.length();
        }
        return total;
    }
}
