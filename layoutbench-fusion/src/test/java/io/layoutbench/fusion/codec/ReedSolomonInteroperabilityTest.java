package io.layoutbench.fusion.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.layoutbench.fusion.codec.FastReedSolomonCodec.Kernel;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * fast-rs and backblaze-rs are one code: fast-rs's parity is Backblaze's byte for byte, and each codec rebuilds
 * every erasure pattern of up to n - k blocks from the other's stripes, on both fast-rs kernels.
 */
class ReedSolomonInteroperabilityTest {

    /** (n, k): one parity block, many, more parity than data, the paper's codes. */
    private static final int[][] SHAPES = {{2, 1}, {3, 2}, {5, 1}, {6, 3}, {9, 6}, {10, 4}, {14, 10}};

    private final ErasureCodec backblaze = new BackblazeReedSolomonCodec();

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void parityIsByteIdenticalToBackblaze(Kernel kernel) {
        FastReedSolomonCodec fast = codec(kernel);
        Random random = new Random(17);
        for (int[] shape : SHAPES) {
            for (int length : new int[] {1, 7, 64, 200 + random.nextInt(5000)}) {
                assertSameParity(fast, CodeParameters.rs(shape[0], shape[1]), length, random);
            }
        }
        // The largest codes GF(2^8) allows: Vandermonde rows up to 255, matrices far from the usual sizes.
        assertSameParity(fast, CodeParameters.rs(256, 200), 130, random);
        assertSameParity(fast, CodeParameters.rs(256, 1), 70, random);
        assertSameParity(fast, CodeParameters.rs(20, 17), 1 << 16, random);
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void eachCodecRebuildsEveryErasurePatternOfTheOthersStripes(Kernel kernel) {
        FastReedSolomonCodec fast = codec(kernel);
        Random random = new Random(23);
        for (int[] shape : SHAPES) {
            CodeParameters code = CodeParameters.rs(shape[0], shape[1]);
            // Odd and tiny sizes, one whole vector, and one with whole vectors and a tail, at an odd offset.
            for (int length : new int[] {1, 3, 64, 129 + random.nextInt(300)}) {
                int offset = random.nextInt(3);
                int shardLength = offset + length + random.nextInt(3);
                byte[][] stripe = ErasureCodecContractTest.randomStripe(code, shardLength, random);
                fast.coder(code).encode(stripe, offset, length);
                rebuildEveryPattern(backblaze.coder(code), stripe, offset, length, "backblaze-rs from fast-rs");
                rebuildEveryPattern(fast.coder(code), stripe, offset, length, "fast-rs from backblaze-rs");
            }
        }
    }

    private void assertSameParity(FastReedSolomonCodec fast, CodeParameters code, int length, Random random) {
        byte[][] expected = ErasureCodecContractTest.randomStripe(code, length, random);
        byte[][] actual = ErasureCodecContractTest.copy(expected);
        backblaze.coder(code).encode(expected, 0, length);
        fast.coder(code).encode(actual, 0, length);
        assertThat(actual).as("%s parity of %d-byte blocks", code, length).isDeepEqualTo(expected);
    }

    /** Both codecs encode identically (checked above), so one stripe serves as either codec's output. */
    private static void rebuildEveryPattern(ErasureCoder coder, byte[][] stripe, int offset, int length,
            String what) {
        CodeParameters code = coder.parameters();
        for (List<Integer> lost : ErasureCodecContractTest.subsetsUpTo(code.totalBlocks(), code.parityBlocks())) {
            byte[][] shards = ErasureCodecContractTest.copy(stripe);
            boolean[] present = new boolean[shards.length];
            Arrays.fill(present, true);
            for (int b : lost) {
                present[b] = false;
                Arrays.fill(shards[b], offset, offset + length, (byte) 0xA5);
            }
            coder.decode(shards, present, offset, length);
            for (int b : lost) {
                assertThat(shards[b]).as("%s %s: block %d after losing %s, %d bytes at %d", what, code, b, lost,
                        length, offset).isEqualTo(stripe[b]);
            }
        }
    }

    private static FastReedSolomonCodec codec(Kernel kernel) {
        if (kernel == Kernel.VECTOR) {
            assumeTrue(FastReedSolomonCodec.isVectorKernelAvailable(),
                    () -> "no vector kernel: " + GfKernels.vectorUnavailableReason());
        }
        return FastReedSolomonCodec.withKernel(kernel);
    }
}
