package io.layoutbench.fusion.codec;

import static java.util.Objects.requireNonNull;

import com.backblaze.erasure.ReedSolomon;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reed-Solomon over GF(2^8) with a Vandermonde-derived systematic matrix, by Backblaze's JavaReedSolomon (the
 * copy published inside {@code com.github.l42111996:kcp-fec}). Only its {@code byte[]} methods are called, so Netty,
 * which its other overloads name, is not needed at run time. Coders are cached per shape; thread-safe.
 * {@link FastReedSolomonCodec} ({@code fast-rs}) writes the same parity bytes several times faster.
 *
 * <pre>{@code
 * ErasureCoder rs = ErasureCodecs.get(BackblazeReedSolomonCodec.NAME).coder(CodeParameters.rs(9, 6));
 * }</pre>
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
            Stripes.checkRange(parameters, shards, offset, length);
            reedSolomon.encodeParity(shards, offset, length);
        }

        @Override
        public void decode(byte[][] shards, boolean[] present, int offset, int length) {
            Stripes.checkRange(parameters, shards, offset, length);
            Stripes.checkPresent(parameters, shards, present);
            reedSolomon.decodeMissing(shards, present, offset, length);
        }
    }
}
