package io.layoutbench.fusion.codec;

import java.util.Arrays;

/**
 * The portable {@link GfKernel}: one 256-entry product table per coefficient, applied a cache-sized chunk at a time
 * so each output chunk stays in L1 while every input streams past it once. Coefficients 0 and 1, common in decoding
 * matrices, skip the tables (1 is a plain XOR, which the JIT vectorizes).
 *
 * <pre>{@code
 * GfKernel.Product p = ScalarGfKernel.INSTANCE.prepare(new byte[][] {{1, 2}});
 * p.multiply(new byte[][] {a, b}, new byte[][] {out}, 0, out.length);   // out = a ^ 2b
 * }</pre>
 *
 * <p>Stateless; its products are immutable and thread-safe.
 */
final class ScalarGfKernel implements GfKernel {

    static final ScalarGfKernel INSTANCE = new ScalarGfKernel();

    /** Bytes per output chunk: a stripe's chunks (up to ~16 blocks) fit in a 64 KiB L1/L2 working set. */
    private static final int CHUNK = 4096;

    private ScalarGfKernel() {
    }

    @Override
    public String description() {
        return "scalar, 256-entry product tables";
    }

    @Override
    public Product prepare(byte[][] coefficients) {
        return new TableProduct(coefficients);
    }

    @Override
    public String toString() {
        return description();
    }

    /** Products by table lookup; also the vector kernel's tail, where fewer bytes than a vector remain. */
    static final class TableProduct implements Product {
        private final int[][] coefficients;
        private final byte[][][] tables;

        TableProduct(byte[][] coefficients) {
            int rows = coefficients.length;
            this.coefficients = new int[rows][];
            this.tables = new byte[rows][][];
            for (int r = 0; r < rows; r++) {
                int columns = coefficients[r].length;
                this.coefficients[r] = new int[columns];
                this.tables[r] = new byte[columns][];
                for (int i = 0; i < columns; i++) {
                    int c = coefficients[r][i] & 0xFF;
                    this.coefficients[r][i] = c;
                    this.tables[r][i] = GaloisField.productTable(c);
                }
            }
        }

        @Override
        public void multiply(byte[][] inputs, byte[][] outputs, int offset, int length) {
            int end = offset + length;
            for (int start = offset; start < end; start += CHUNK) {
                int stop = Math.min(end, start + CHUNK);
                for (int i = 0; i < inputs.length; i++) {
                    byte[] input = inputs[i];
                    for (int r = 0; r < outputs.length; r++) {
                        if (i == 0) {
                            set(coefficients[r][0], tables[r][0], input, outputs[r], start, stop);
                        } else {
                            add(coefficients[r][i], tables[r][i], input, outputs[r], start, stop);
                        }
                    }
                }
            }
        }

        private static void set(int c, byte[] table, byte[] input, byte[] output, int start, int stop) {
            if (c == 0) {
                Arrays.fill(output, start, stop, (byte) 0);
            } else if (c == 1) {
                System.arraycopy(input, start, output, start, stop - start);
            } else {
                for (int j = start; j < stop; j++) {
                    output[j] = table[input[j] & 0xFF];
                }
            }
        }

        private static void add(int c, byte[] table, byte[] input, byte[] output, int start, int stop) {
            if (c == 1) {
                for (int j = start; j < stop; j++) {
                    output[j] ^= input[j];
                }
            } else if (c != 0) {
                for (int j = start; j < stop; j++) {
                    output[j] ^= table[input[j] & 0xFF];
                }
            }
        }
    }
}
