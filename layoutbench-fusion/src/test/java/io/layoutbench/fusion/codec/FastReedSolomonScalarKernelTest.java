package io.layoutbench.fusion.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.fusion.codec.FastReedSolomonCodec.Kernel;

import org.junit.jupiter.api.Test;

/** fast-rs forced onto its scalar kernel, in the same JVM as the vector one. */
class FastReedSolomonScalarKernelTest extends ErasureCodecContractTest {

    @Override
    protected ErasureCodec codec() {
        return FastReedSolomonCodec.withKernel(Kernel.SCALAR);
    }

    @Test
    void runsTheScalarKernel() {
        assertThat(((FastReedSolomonCodec) codec()).kernel()).isEqualTo(Kernel.SCALAR);
        assertThat(codec().toString()).contains("scalar");
    }
}
