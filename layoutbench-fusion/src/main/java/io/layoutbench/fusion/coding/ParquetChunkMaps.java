package io.layoutbench.fusion.coding;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.parquet.ParquetChunkLayout;
import io.layoutbench.parquet.ParquetFormatException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads the {@link ChunkMap} of a Parquet object from its footer: where every column chunk lies, its dictionary page
 * included. Works for any Parquet file, nested schemas and compressed pages too, since only the chunks' offsets and
 * sizes are read, with layoutbench-parquet's footer reader ({@link ParquetChunkLayout}). An object that is not
 * Parquet, or whose footer is encrypted, truncated or describes overlapping chunks, gets an
 * {@link ChunkMap#opaque opaque} map saying why; FAC then stores it in fixed-size blocks.
 *
 * <pre>{@code
 * ChunkMap map = ParquetChunkMaps.read(ObjectSource.of(bytes));
 * map.chunks().size();   // row groups x columns
 * }</pre>
 */
public final class ParquetChunkMaps {

    /** How the object is named in the reasons of opaque maps: a source has no key. */
    private static final String OBJECT = "the object";

    private ParquetChunkMaps() {
    }

    /** The chunk map of {@code source}, or an opaque map when it is not a Parquet file this can read. */
    public static ChunkMap read(ObjectSource source) {
        requireNonNull(source, "source is null");
        long size = source.size();
        ParquetChunkLayout layout;
        try {
            layout = ParquetChunkLayout.read(OBJECT, size, range -> bytes(source, range));
        } catch (ParquetFormatException e) {
            return ChunkMap.opaque(size, e.getMessage());
        }
        List<ObjectRegion> chunks = new ArrayList<>();
        for (ParquetChunkLayout.Chunk chunk : layout.chunks()) {
            chunks.add(new ObjectRegion(chunk.byteRange(), RegionKind.COLUMN_CHUNK, chunk.label()));
        }
        // A region is an item coding keeps whole, so chunks must not share bytes.
        chunks.sort(Comparator.comparingLong(r -> r.range().offset()));
        for (int i = 1; i < chunks.size(); i++) {
            if (chunks.get(i).range().offset() < chunks.get(i - 1).range().end()) {
                return ChunkMap.opaque(size, chunks.get(i - 1).label() + " and " + chunks.get(i).label()
                        + " overlap");
            }
        }
        return ChunkMap.fromChunks(size, chunks, layout.footerRange().offset());
    }

    private static ByteBuffer bytes(ObjectSource source, ByteRange range) {
        byte[] bytes = new byte[Math.toIntExact(range.length())];
        source.read(range.offset(), bytes, 0, bytes.length);
        return ByteBuffer.wrap(bytes);
    }
}
