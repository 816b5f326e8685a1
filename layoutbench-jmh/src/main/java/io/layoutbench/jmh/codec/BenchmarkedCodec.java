package io.layoutbench.jmh.codec;

import io.layoutbench.fusion.codec.BackblazeReedSolomonCodec;
import io.layoutbench.fusion.codec.ErasureCodec;
import io.layoutbench.fusion.codec.ErasureCodecs;
import io.layoutbench.fusion.codec.FastReedSolomonCodec;
import io.layoutbench.fusion.codec.FastReedSolomonCodec.Kernel;

import java.util.Arrays;
import java.util.Locale;

/**
 * The codecs the codec benchmarks compare, by the {@code codec} parameter's value. The two fast-rs kernels are forced
 * explicitly, so a run shows both whatever the JVM would pick by itself.
 *
 * <pre>{@code
 * ErasureCodec codec = BenchmarkedCodec.of("fast-vector").codec();
 * }</pre>
 */
enum BenchmarkedCodec {
    /** Backblaze JavaReedSolomon ({@code backblaze-rs}). */
    BACKBLAZE,
    /** fast-rs on its Vector API kernel; the forked JVM must have {@code --add-modules jdk.incubator.vector}. */
    FAST_VECTOR,
    /** fast-rs on its scalar kernel. */
    FAST_SCALAR;

    /**
     * @throws IllegalArgumentException naming the known values if {@code parameter} is none of them
     */
    static BenchmarkedCodec of(String parameter) {
        for (BenchmarkedCodec codec : values()) {
            if (codec.parameter().equals(parameter)) {
                return codec;
            }
        }
        throw new IllegalArgumentException("Unknown codec parameter '" + parameter + "'; known: "
                + Arrays.toString(Arrays.stream(values()).map(BenchmarkedCodec::parameter).toArray()));
    }

    /** The {@code @Param} value: {@code backblaze}, {@code fast-vector}, {@code fast-scalar}. */
    String parameter() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @throws IllegalStateException for {@link #FAST_VECTOR} in a JVM without the Vector API, saying why
     */
    ErasureCodec codec() {
        switch (this) {
            case BACKBLAZE:
                return ErasureCodecs.get(BackblazeReedSolomonCodec.NAME);
            case FAST_VECTOR:
                return FastReedSolomonCodec.withKernel(Kernel.VECTOR);
            case FAST_SCALAR:
                return FastReedSolomonCodec.withKernel(Kernel.SCALAR);
            default:
                throw new AssertionError(this);
        }
    }
}
