/**
 * Erasure codes for FAC stripes, behind a small SPI. {@link io.layoutbench.fusion.codec.ErasureCodec} is a family of
 * codes found with {@link java.util.ServiceLoader}; {@link io.layoutbench.fusion.codec.ErasureCoder} encodes and
 * decodes stripes of one {@link io.layoutbench.fusion.codec.CodeParameters shape};
 * {@link io.layoutbench.fusion.codec.ErasureCodecs} looks codecs up by name.
 *
 * <p>Two Reed-Solomon codecs ship, with byte-identical parity so that either decodes what the other wrote:
 * {@code fast-rs} ({@link io.layoutbench.fusion.codec.FastReedSolomonCodec}) and {@code backblaze-rs}
 * ({@link io.layoutbench.fusion.codec.BackblazeReedSolomonCodec}). fast-rs runs on the Java Vector API when the JVM
 * is started with {@code --add-modules jdk.incubator.vector}, and is then the default (about ten times faster);
 * otherwise it runs a scalar kernel and backblaze-rs is the default. The log says which.
 *
 * <pre>{@code
 * ErasureCoder rs = ErasureCodecs.defaultCodec().coder(CodeParameters.rs(9, 6));
 * rs.encode(shards, 0, blockSize);
 * }</pre>
 */
package io.layoutbench.fusion.codec;
