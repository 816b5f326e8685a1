package io.layoutbench.fusion.codec;

import static java.util.Objects.requireNonNull;

import com.backblaze.erasure.ReedSolomon;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reed-Solomon over GF(2^8) with a Vandermonde-derived systematic matrix, by Backblaze's JavaReedSolomon (the
 * copy published inside {@code com.github.l42111996:kcp-fec}). Only its {@code byte[]} methods are called, so Netty,
 * which its other overloads name, is not needed at run time. Coders are cached per shape; thread-safe.
 */
public final class BackblazeReedSolomonCodec implements ErasureCodec {

    /** This codec's name. */
    public static final String NAME = "backblaze-rs";

    private final Map<CodeParameters, ErasureCoder> coders = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ErasureCoder coder(CodeParameters parameters) {
        requireNonNull(parameters, "parameters is null");
        return coders.computeIfAbsent(parameters, Coder::new);
    }

    @Override
    public String toString() {
        return "Backblaze JavaReedSolomon (" + NAME + ")";
    }

    private static final class Coder implements ErasureCoder {
        private final CodeParameters parameters;
        private final ReedSolomon reedSolomon;

        Coder(CodeParameters parameters) {
            this.parameters = parameters;
            this.reedSolomon = ReedSolomon.create(parameters.dataBlocks(), parameters.parityBlocks());
        }

        @Override
        public CodeParameters parameters() {
            return parameters;
        }

        @Override
        public void encode(byte[][] shards, int offset, int length) {
            check(shards, offset, length);
            reedSolomon.encodeParity(shards, offset, length);
        }

        @Override
        public void decode(byte[][] shards, boolean[] present, int offset, int length) {
            check(shards, offset, length);
            requireNonNull(present, "present is null");
            if (present.length != shards.length) {
                throw new IllegalArgumentException("Expected " + shards.length + " present flags, got "
                        + present.length);
            }
            int count = 0;
            for (boolean p : present) {
                count += p ? 1 : 0;
            }
            if (count < parameters.dataBlocks()) {
                throw new IllegalArgumentException("Cannot decode " + parameters + ": " + count + " of "
                        + shards.length + " shards are present, at least " + parameters.dataBlocks() + " are needed");
            }
            reedSolomon.decodeMissing(shards, present, offset, length);
        }

        private void check(byte[][] shards, int offset, int length) {
            requireNonNull(shards, "shards is null");
            if (shards.length != parameters.totalBlocks()) {
                throw new IllegalArgumentException(parameters + " needs " + parameters.totalBlocks() + " shards, got "
                        + shards.length);
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
    }
}
