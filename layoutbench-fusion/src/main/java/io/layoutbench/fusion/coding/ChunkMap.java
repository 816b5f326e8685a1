package io.layoutbench.fusion.coding;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An object cut into regions that FAC must not split: every column chunk of a Parquet file, dictionary page
 * included, and the regions that are not chunks (leading magic, page indexes, footer, gaps). The regions are in
 * object order and cover {@code [0, objectSize)} exactly. Immutable and thread-safe.
 *
 * <pre>{@code
 * ChunkMap map = ParquetChunkMaps.read(ObjectSource.of(Files.readAllBytes(file)));
 * long[] sizes = map.regions().stream().mapToLong(r -> r.range().length()).toArray();
 * }</pre>
 *
 * @param objectSize  the object's length
 * @param regions     the regions in object order
 * @param opaqueCause why the object is one opaque region (not Parquet, an unreadable footer), when it is
 */
public record ChunkMap(long objectSize, List<ObjectRegion> regions, Optional<String> opaqueCause) {

    public ChunkMap {
        regions = List.copyOf(requireNonNull(regions, "regions is null"));
        requireNonNull(opaqueCause, "opaqueCause is null");
        long position = 0;
        for (ObjectRegion region : regions) {
            if (region.range().offset() != position) {
                throw new IllegalArgumentException("Regions must cover the object in order: " + region.label() + " at "
                        + region.range() + " should start at " + position);
            }
            position = region.range().end();
        }
        if (position != objectSize) {
            throw new IllegalArgumentException("Regions cover [0, " + position + ") but the object is " + objectSize
                    + " bytes");
        }
    }

    /** An object of {@code size} bytes with no structure FAC can use, for {@code cause}. */
    public static ChunkMap opaque(long size, String cause) {
        List<ObjectRegion> regions = size == 0 ? List.of()
                : List.of(new ObjectRegion(ByteRange.of(0, size), RegionKind.OPAQUE, "whole object"));
        return new ChunkMap(size, regions, Optional.of(cause));
    }

    /** The column chunks, in object order. */
    public List<ObjectRegion> chunks() {
        return regions.stream().filter(ObjectRegion::isChunk).toList();
    }

    /** Whether the object has column chunks. */
    public boolean hasChunks() {
        return regions.stream().anyMatch(ObjectRegion::isChunk);
    }

    /** The regions' sizes, in order: the items a stripe constructor packs. */
    public long[] regionSizes() {
        return regions.stream().mapToLong(r -> r.range().length()).toArray();
    }

    /** The chunks' sizes, in order. */
    public long[] chunkSizes() {
        return chunks().stream().mapToLong(r -> r.range().length()).toArray();
    }

    /** Builds a map from chunk ranges (sorted, non-overlapping, inside the object), filling the rest. */
    static ChunkMap fromChunks(long objectSize, List<ObjectRegion> chunks, long footerStart) {
        List<ObjectRegion> regions = new ArrayList<>();
        long position = 0;
        if (objectSize >= 4) {
            regions.add(new ObjectRegion(ByteRange.of(0, 4), RegionKind.MAGIC, "leading magic"));
            position = 4;
        }
        for (ObjectRegion chunk : chunks) {
            if (chunk.range().offset() > position) {
                regions.add(new ObjectRegion(ByteRange.between(position, chunk.range().offset()), RegionKind.GAP,
                        "gap before " + chunk.label()));
            }
            regions.add(chunk);
            position = chunk.range().end();
        }
        if (footerStart > position) {
            regions.add(new ObjectRegion(ByteRange.between(position, footerStart), RegionKind.PAGE_INDEX,
                    "page indexes"));
            position = footerStart;
        }
        if (objectSize > position) {
            regions.add(new ObjectRegion(ByteRange.between(position, objectSize), RegionKind.FOOTER, "footer"));
        }
        return new ChunkMap(objectSize, regions, Optional.empty());
    }
}
