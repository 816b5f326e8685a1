package io.layoutbench.fusion.codec;

/**
 * Encodes and decodes stripes of one {@link CodeParameters shape}. A stripe is an array of n equally long byte
 * arrays ("shards"): data in {@code shards[0 .. k)}, parity in {@code shards[k .. n)}. Both operations work on the
 * byte range {@code [offset, offset + length)} of every shard and touch nothing outside it: the code works byte
 * position by byte position, so a part of a stripe can be encoded or rebuilt without the rest.
 *
 * <p>Thread-safe: one coder may encode and decode many stripes at once.
 *
 * <pre>{@code
 * ErasureCoder rs = ErasureCodecs.defaultCodec().coder(CodeParameters.rs(9, 6));
 * byte[][] shards = new byte[9][blockSize];      // fill shards[0..6) with data
 * rs.encode(shards, 0, blockSize);               // shards[6..9) now hold parity
 * boolean[] present = {false, true, true, false, true, true, true, false, true};
 * rs.decode(shards, present, 100, 50);           // bytes [100, 150) of shards 0, 3 and 7 rebuilt
 * }</pre>
 */
public interface ErasureCoder {

    /** The code's shape. */
    CodeParameters parameters();

    /**
     * Computes the parity shards' bytes in {@code [offset, offset + length)} from the data shards' bytes there.
     *
     * @throws IllegalArgumentException if there are not n shards, they differ in length, or the range does not fit
     */
    void encode(byte[][] shards, int offset, int length);

    /**
     * Rebuilds, in {@code [offset, offset + length)}, every shard whose {@code present} flag is false, from those
     * whose flag is true. Missing shards must be allocated arrays of the common length; their bytes in the range are
     * overwritten.
     *
     * @throws IllegalArgumentException if fewer than k shards are present, or the shards or range are malformed
     */
    void decode(byte[][] shards, boolean[] present, int offset, int length);
}
