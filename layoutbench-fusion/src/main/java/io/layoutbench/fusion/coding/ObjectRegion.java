package io.layoutbench.fusion.coding;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

/**
 * A byte range of an object and what it holds. FAC keeps every region whole in one data block.
 *
 * @param range where the region lies in the object; never empty
 * @param kind  what it is
 * @param label for reports: {@code row group 3, column l_comment}, {@code footer}
 */
public record ObjectRegion(ByteRange range, RegionKind kind, String label) {
    public ObjectRegion {
        requireNonNull(range, "range is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(label, "label is null");
        if (range.length() == 0) {
            throw new IllegalArgumentException("A region is never empty: " + label + " at " + range);
        }
    }

    /** Whether this is a column chunk. */
    public boolean isChunk() {
        return kind == RegionKind.COLUMN_CHUNK;
    }
}
