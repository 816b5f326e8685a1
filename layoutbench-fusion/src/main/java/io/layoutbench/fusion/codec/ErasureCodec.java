package io.layoutbench.fusion.codec;

/**
 * A family of erasure codes, such as Reed-Solomon over GF(2^8), from one implementation. Implementations are found
 * with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/io.layoutbench.fusion.codec.ErasureCodec}; it needs a public no-arg constructor and is
 * stateless and thread-safe. Look one up with {@link ErasureCodecs#get(String)}.
 *
 * <p>A codec's {@link #name()} is written into every object it encoded, and the same name must decode it again, so
 * two codecs share a name only if their parity bytes are identical.
 *
 * <pre>{@code
 * ErasureCodec rs = ErasureCodecs.get("backblaze-rs");
 * ErasureCoder rs96 = rs.coder(CodeParameters.rs(9, 6));
 * }</pre>
 */
public interface ErasureCodec {

    /** The stable name of the codec, lower case ({@code backblaze-rs}). */
    String name();

    /**
     * A coder for stripes of shape {@code parameters}; coders may be cached and shared.
     *
     * @throws IllegalArgumentException if this codec cannot make such a code, saying why
     */
    ErasureCoder coder(CodeParameters parameters);
}
