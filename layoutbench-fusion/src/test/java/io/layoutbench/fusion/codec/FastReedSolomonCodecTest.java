package io.layoutbench.fusion.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.layoutbench.fusion.codec.FastReedSolomonCodec.Kernel;

import org.junit.jupiter.api.Test;

/**
 * The default codec as {@link ErasureCodecs} finds it. Surefire runs this class twice: in a JVM with
 * {@code --add-modules jdk.incubator.vector} (vector kernel) and in one without (scalar fallback).
 */
class FastReedSolomonCodecTest extends ErasureCodecContractTest {

    private static final boolean VECTOR_MODULE_RESOLVED =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

    @Override
    protected ErasureCodec codec() {
        return ErasureCodecs.get(FastReedSolomonCodec.NAME);
    }

    @Test
    void isFoundByServiceLoaderAndIsTheDefaultExactlyWhenItsVectorKernelRuns() {
        assertThat(ErasureCodecs.names()).containsExactly("backblaze-rs", "fast-rs");
        assertThat(ErasureCodecs.DEFAULT).isEqualTo(VECTOR_MODULE_RESOLVED ? "fast-rs" : "backblaze-rs");
        assertThat(ErasureCodecs.defaultCodec()).isInstanceOf(VECTOR_MODULE_RESOLVED ? FastReedSolomonCodec.class
                : BackblazeReedSolomonCodec.class);
    }

    @Test
    void runsTheVectorKernelExactlyWhenTheModuleIsResolved() {
        FastReedSolomonCodec codec = (FastReedSolomonCodec) codec();

        assertThat(FastReedSolomonCodec.isVectorKernelAvailable()).isEqualTo(VECTOR_MODULE_RESOLVED);
        assertThat(codec.kernel()).isEqualTo(VECTOR_MODULE_RESOLVED ? Kernel.VECTOR : Kernel.SCALAR);
        assertThat(codec.toString()).startsWith("fast-rs (").contains(VECTOR_MODULE_RESOLVED ? "Vector API" : "scalar");
        if (VECTOR_MODULE_RESOLVED) {
            assertThat(FastReedSolomonCodec.vectorKernelProblem()).isNull();
        } else {
            assertThat(FastReedSolomonCodec.vectorKernelProblem()).contains("--add-modules jdk.incubator.vector");
        }
    }

    @Test
    void withoutTheModuleTheVectorKernelIsRefusedSayingWhy() {
        assumeFalse(VECTOR_MODULE_RESOLVED, "this JVM has the Vector API");

        assertThatThrownBy(() -> FastReedSolomonCodec.withKernel(Kernel.VECTOR))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("vector kernel of fast-rs cannot run")
                .hasMessageContaining("--add-modules jdk.incubator.vector");
    }

    @Test
    void theKernelPropertyForcesTheScalarKernelAndRejectsOtherValues() {
        String previous = System.getProperty(FastReedSolomonCodec.KERNEL_PROPERTY);
        try {
            System.setProperty(FastReedSolomonCodec.KERNEL_PROPERTY, "SCALAR");
            assertThat(new FastReedSolomonCodec().kernel()).isEqualTo(Kernel.SCALAR);

            System.setProperty(FastReedSolomonCodec.KERNEL_PROPERTY, "gpu");
            assertThatThrownBy(FastReedSolomonCodec::new).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(FastReedSolomonCodec.KERNEL_PROPERTY).hasMessageContaining("'gpu'");
        } finally {
            if (previous == null) {
                System.clearProperty(FastReedSolomonCodec.KERNEL_PROPERTY);
            } else {
                System.setProperty(FastReedSolomonCodec.KERNEL_PROPERTY, previous);
            }
        }
    }

    @Test
    void nullShardsAreNamed() {
        byte[][] shards = new byte[9][8];
        shards[4] = null;

        assertThatThrownBy(() -> codec().coder(CodeParameters.rs(9, 6)).encode(shards, 0, 8))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("Shard 4 of a RS(9,6) stripe");
    }
}
