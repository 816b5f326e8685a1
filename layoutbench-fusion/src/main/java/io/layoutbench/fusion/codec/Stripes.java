package io.layoutbench.fusion.codec;

import static java.util.Objects.requireNonNull;

/**
 * The argument checks every {@link ErasureCoder} makes, so that all codecs reject a malformed stripe with the same
 * message.
 *
 * <pre>{@code
 * Stripes.checkRange(parameters, shards, offset, length);              // before encode
 * int present = Stripes.checkPresent(parameters, shards, presentFlags); // before decode
 * }</pre>
 */
final class Stripes {

    private Stripes() {
    }

    /**
     * @throws IllegalArgumentException if there are not n shards, they differ in length, or the range does not fit
     */
    static void checkRange(CodeParameters parameters, byte[][] shards, int offset, int length) {
        requireNonNull(shards, "shards is null");
        if (shards.length != parameters.totalBlocks()) {
            throw new IllegalArgumentException(parameters + " needs " + parameters.totalBlocks() + " shards, got "
                    + shards.length);
        }
        for (int i = 0; i < shards.length; i++) {
            if (shards[i] == null) {
                throw new NullPointerException("Shard " + i + " of a " + parameters + " stripe is null");
            }
        }
        int shardLength = shards[0].length;
        for (byte[] shard : shards) {
            if (shard.length != shardLength) {
                throw new IllegalArgumentException("The shards of a " + parameters + " stripe differ in length: "
                        + shard.length + " and " + shardLength);
            }
        }
        if (offset < 0 || length < 0 || offset + length > shardLength || offset + length < 0) {
            throw new IllegalArgumentException("Range [" + offset + ", " + ((long) offset + length)
                    + ") does not fit shards of " + shardLength + " bytes");
        }
    }

    /**
     * The number of present shards.
     *
     * @throws IllegalArgumentException if there is not one flag per shard or fewer than k shards are present
     */
    static int checkPresent(CodeParameters parameters, byte[][] shards, boolean[] present) {
        requireNonNull(present, "present is null");
        if (present.length != shards.length) {
            throw new IllegalArgumentException("Expected " + shards.length + " present flags, got " + present.length);
        }
        int count = 0;
        for (boolean p : present) {
            count += p ? 1 : 0;
        }
        if (count < parameters.dataBlocks()) {
            throw new IllegalArgumentException("Cannot decode " + parameters + ": " + count + " of " + shards.length
                    + " shards are present, at least " + parameters.dataBlocks() + " are needed");
        }
        return count;
    }
}
