package io.layoutbench.fusion.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** The kernels against the definition of a matrix product over GF(2^8), byte by byte. */
class GfKernelTest {

    private static final int[] LENGTHS = {0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 1000, 4096 + 77};

    @Test
    void scalarKernelMultipliesAsDefined() {
        check(ScalarGfKernel.INSTANCE);
    }

    @Test
    void vectorKernelMultipliesAsDefined() {
        assumeTrue(GfKernels.vector().isPresent(), () -> "no vector kernel: " + GfKernels.vectorUnavailableReason());
        check(GfKernels.vector().orElseThrow());
    }

    @Test
    void fieldMatchesBackblazeGalois() {
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                assertThat(GaloisField.multiply(a, b)).isEqualTo(
                        com.backblaze.erasure.Galois.multiply((byte) a, (byte) b) & 0xFF);
            }
            for (int n = 0; n < 20; n++) {
                assertThat(GaloisField.power(a, n)).isEqualTo(com.backblaze.erasure.Galois.exp((byte) a, n) & 0xFF);
            }
            if (a != 0) {
                assertThat(GaloisField.multiply(a, GaloisField.inverse(a))).isEqualTo(1);
            }
        }
    }

    private static void check(GfKernel kernel) {
        Random random = new Random(11);
        // Up to 9 rows: the vector kernel works in groups of 4 outputs, so 1..9 covers full and partial groups.
        for (int rows = 1; rows <= 9; rows++) {
            for (int columns = 1; columns <= 5; columns += 2) {
                byte[][] coefficients = new byte[rows][columns];
                for (byte[] row : coefficients) {
                    random.nextBytes(row);
                }
                coefficients[0][0] = (byte) (rows % 3);   // 0, 1 and other values take different scalar paths
                GfKernel.Product product = kernel.prepare(coefficients);
                for (int length : LENGTHS) {
                    int offset = random.nextInt(5);
                    byte[][] inputs = new byte[columns][offset + length + 3];
                    for (byte[] input : inputs) {
                        random.nextBytes(input);
                    }
                    byte[][] outputs = new byte[rows][offset + length + 3];
                    for (byte[] output : outputs) {
                        java.util.Arrays.fill(output, (byte) 0x77);
                    }
                    product.multiply(inputs, outputs, offset, length);
                    for (int r = 0; r < rows; r++) {
                        byte[] expected = new byte[outputs[r].length];
                        java.util.Arrays.fill(expected, (byte) 0x77);
                        for (int p = offset; p < offset + length; p++) {
                            int sum = 0;
                            for (int i = 0; i < columns; i++) {
                                sum ^= GaloisField.multiply(coefficients[r][i] & 0xFF, inputs[i][p] & 0xFF);
                            }
                            expected[p] = (byte) sum;
                        }
                        assertThat(outputs[r]).as("%s: %d x %d, length %d, row %d", kernel, rows, columns, length, r)
                                .isEqualTo(expected);
                    }
                }
            }
        }
    }
}
