package io.layoutbench.fusion.coding;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

import java.util.List;

/**
 * What one data block holds: object byte ranges, written one after another. Its length is their sum; an empty data
 * block holds nothing and is never stored (its bytes are the stripe's zero padding).
 *
 * @param segments object ranges in block order
 */
public record BlockPlan(List<ByteRange> segments) {
    public BlockPlan {
        segments = List.copyOf(requireNonNull(segments, "segments is null"));
    }

    /** The block's length in bytes. */
    public long length() {
        long total = 0;
        for (ByteRange segment : segments) {
            total += segment.length();
        }
        return total;
    }
}
