package io.layoutbench.fusion.codec;

/**
 * Multiplies a matrix over {@link GaloisField} by stripes of blocks, byte position by byte position: the loop that
 * both encoding (parity rows x data blocks) and decoding (rebuild rows x surviving blocks) spend their time in.
 * {@link ScalarGfKernel} runs anywhere; {@code VectorGfKernel} needs {@code jdk.incubator.vector} and is chosen by
 * {@link GfKernels}.
 *
 * <pre>{@code
 * GfKernel.Product parity = kernel.prepare(parityRows);          // m rows of k coefficients
 * parity.multiply(dataBlocks, parityBlocks, 0, blockSize);       // k inputs, m outputs
 * }</pre>
 *
 * <p>Kernels and products are immutable and thread-safe.
 */
interface GfKernel {

    /** What the kernel is, for logs ({@code Vector API, 512-bit ByteVector}). */
    String description();

    /** A product with {@code coefficients} (rows x columns), its lookup tables built once for many calls. */
    Product prepare(byte[][] coefficients);

    /** A matrix ready to be multiplied by blocks. */
    interface Product {

        /**
         * Sets {@code outputs[r][offset, offset + length)} to the XOR over i of coefficient (r, i) times
         * {@code inputs[i][offset, offset + length)}. There is one input per column and one output per row; outputs
         * must not be inputs. Arguments are checked by the caller.
         */
        void multiply(byte[][] inputs, byte[][] outputs, int offset, int length);
    }
}
