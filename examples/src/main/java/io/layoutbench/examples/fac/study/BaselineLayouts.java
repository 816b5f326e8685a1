package io.layoutbench.examples.fac.study;

import io.layoutbench.fusion.coding.ChunkMap;
import io.layoutbench.fusion.coding.ObjectRegion;

/**
 * The layouts FAC is compared with, on an object's chunk map.
 *
 * <ul>
 *   <li><b>Fixed-size blocks</b> (MinIO, Ceph and the paper's baseline): the object is cut every {@code B} bytes, and
 *       a chunk is split when it crosses a cut.</li>
 *   <li><b>Padding</b> (Adams et al., the paper's reference [36]): regions are laid out in object order; a chunk that
 *       would cross a cut is moved to the next block and the rest of the current block is padding (stored, and
 *       coded). A chunk larger than a block starts a block and spans several: it cannot be kept whole. Regions that
 *       are not chunks (magic, page indexes, footer) are never moved.</li>
 * </ul>
 */
public final class BaselineLayouts {

    private BaselineLayouts() {
    }

    /** The fraction of the chunks of {@code map} that fixed blocks of {@code blockSize} bytes split. */
    public static double splitFraction(ChunkMap map, long blockSize) {
        int chunks = 0;
        int split = 0;
        for (ObjectRegion chunk : map.chunks()) {
            chunks++;
            if (chunk.range().offset() / blockSize != (chunk.range().end() - 1) / blockSize) {
                split++;
            }
        }
        return chunks == 0 ? 0 : (double) split / chunks;
    }

    /** The object's length once padded so that chunks do not cross blocks of {@code blockSize} bytes. */
    public static long paddedLength(ChunkMap map, long blockSize) {
        long position = 0;
        for (ObjectRegion region : map.regions()) {
            long length = region.range().length();
            long used = position % blockSize;
            if (region.isChunk() && used != 0 && (length > blockSize || used + length > blockSize)) {
                position += blockSize - used;
            }
            position += length;
        }
        return position;
    }
}
