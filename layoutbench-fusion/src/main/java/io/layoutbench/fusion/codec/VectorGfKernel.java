package io.layoutbench.fusion.codec;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The {@link GfKernel} on the Java Vector API ({@code jdk.incubator.vector}): each byte is split into its low and
 * high nibble, each nibble picks one of 16 products from a table held in a vector register (a byte shuffle:
 * {@code pshufb}/{@code vpermb} on x86, {@code tbl} on ARM), and the two are XORed. A whole vector of bytes (64 with
 * AVX-512) is multiplied by a coefficient in a handful of instructions.
 *
 * <p>Only {@link GfKernels} may load this class, and only after checking that the module is resolved: without
 * {@code --add-modules jdk.incubator.vector} loading it throws {@link NoClassDefFoundError}.
 *
 * <pre>{@code
 * GfKernel kernel = new VectorGfKernel();   // throws UnsupportedOperationException if vectors are too short
 * kernel.prepare(parityRows).multiply(data, parity, 0, blockSize);
 * }</pre>
 *
 * <p>Stateless; its products are immutable and thread-safe.
 */
final class VectorGfKernel implements GfKernel {

    /**
     * System property: the vector width in bits (128, 256 or 512) instead of the JVM's preferred one, for machines
     * where the widest byte shuffle is slow (such as AVX-512 without VBMI).
     */
    static final String BITS_PROPERTY = "layoutbench.codec.fast-rs.vector-bits";

    /** A constant, as the JIT needs it to be to compile vector operations to instructions. */
    private static final VectorSpecies<Byte> SPECIES = species();
    private static final int LANES = SPECIES.length();
    /**
     * Outputs computed per pass over the inputs: each input vector is loaded and split into nibbles once for up to
     * this many; four accumulators, the inputs and their nibbles, and two tables fit in 16 vector registers (AVX2).
     */
    private static final int GROUP = 4;

    /**
     * @throws UnsupportedOperationException if the vectors cannot hold a 16-entry nibble table
     */
    VectorGfKernel() {
        if (LANES < 16) {
            throw new UnsupportedOperationException("the preferred vector holds " + LANES + " bytes, the nibble "
                    + "tables need 16 (no 128-bit SIMD on this machine?)");
        }
    }

    private static VectorSpecies<Byte> species() {
        String bits = System.getProperty(BITS_PROPERTY);
        if (bits == null || bits.isBlank()) {
            return ByteVector.SPECIES_PREFERRED;
        }
        try {
            return VectorSpecies.of(byte.class, VectorShape.forBitSize(Integer.parseInt(bits.trim())));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("System property " + BITS_PROPERTY + " must be 128, 256 or 512, got '"
                    + bits + "'", e);
        }
    }

    @Override
    public String description() {
        return "Vector API, " + SPECIES.vectorBitSize() + "-bit ByteVector nibble tables";
    }

    @Override
    public Product prepare(byte[][] coefficients) {
        return new NibbleProduct(coefficients);
    }

    @Override
    public String toString() {
        return description();
    }

    private static final class NibbleProduct implements Product {
        private final int rows;
        private final int columns;
        /** Products of coefficient (r, i) with 0..15, repeated to fill a vector, at (r * columns + i) * LANES. */
        private final byte[] lowTables;
        /** Products of coefficient (r, i) with 0x00, 0x10, ..., 0xF0, laid out as {@link #lowTables}. */
        private final byte[] highTables;
        /** The bytes after the last whole vector. */
        private final Product tail;

        NibbleProduct(byte[][] coefficients) {
            this.rows = coefficients.length;
            this.columns = coefficients[0].length;
            this.lowTables = new byte[rows * columns * LANES];
            this.highTables = new byte[rows * columns * LANES];
            for (int r = 0; r < rows; r++) {
                for (int i = 0; i < columns; i++) {
                    int c = coefficients[r][i] & 0xFF;
                    int base = (r * columns + i) * LANES;
                    for (int lane = 0; lane < LANES; lane++) {
                        // Repeated per 16 lanes: a shuffle confined to 128-bit lanes (AVX2 vpshufb) still finds it.
                        lowTables[base + lane] = (byte) GaloisField.multiply(c, lane & 0x0F);
                        highTables[base + lane] = (byte) GaloisField.multiply(c, (lane & 0x0F) << 4);
                    }
                }
            }
            this.tail = new ScalarGfKernel.TableProduct(coefficients);
        }

        @Override
        public void multiply(byte[][] inputs, byte[][] outputs, int offset, int length) {
            int end = offset + length - length % LANES;
            for (int first = 0; first < rows; first += GROUP) {
                int table = first * columns * LANES;
                switch (Math.min(GROUP, rows - first)) {
                    case 1 -> rows1(inputs, outputs[first], table, offset, end);
                    case 2 -> rows2(inputs, outputs[first], outputs[first + 1], table, offset, end);
                    case 3 -> rows3(inputs, outputs[first], outputs[first + 1], outputs[first + 2], table, offset,
                            end);
                    default -> rows4(inputs, outputs[first], outputs[first + 1], outputs[first + 2],
                            outputs[first + 3], table, offset, end);
                }
            }
            if (end < offset + length) {
                tail.multiply(inputs, outputs, end, offset + length - end);
            }
        }

        /*
         * One loop per number of rows computed together, each over [start, end), a whole number of vectors, with its
         * accumulators in registers. A single loop with "if (group > 1)" branches would be shorter, but once one
         * JVM has run it with several group sizes (encode with 3 parity rows, then decode 1 lost block) C2 keeps
         * every branch, the accumulators meet at phis, and the vectors are boxed: decoding ran 3x slower so.
         */

        private void rows1(byte[][] inputs, byte[] out0, int table, int start, int end) {
            for (int position = start; position < end; position += LANES) {
                ByteVector acc0 = ByteVector.zero(SPECIES);
                for (int i = 0; i < columns; i++) {
                    ByteVector in = ByteVector.fromArray(SPECIES, inputs[i], position);
                    ByteVector low = in.and((byte) 0x0F);
                    ByteVector high = in.lanewise(VectorOperators.LSHR, 4);
                    int t = table + i * LANES;
                    acc0 = acc0.lanewise(VectorOperators.XOR, lookup(low, high, t));
                }
                acc0.intoArray(out0, position);
            }
        }

        private void rows2(byte[][] inputs, byte[] out0, byte[] out1, int table, int start, int end) {
            int row = columns * LANES;
            for (int position = start; position < end; position += LANES) {
                ByteVector acc0 = ByteVector.zero(SPECIES);
                ByteVector acc1 = acc0;
                for (int i = 0; i < columns; i++) {
                    ByteVector in = ByteVector.fromArray(SPECIES, inputs[i], position);
                    ByteVector low = in.and((byte) 0x0F);
                    ByteVector high = in.lanewise(VectorOperators.LSHR, 4);
                    int t = table + i * LANES;
                    acc0 = acc0.lanewise(VectorOperators.XOR, lookup(low, high, t));
                    acc1 = acc1.lanewise(VectorOperators.XOR, lookup(low, high, t + row));
                }
                acc0.intoArray(out0, position);
                acc1.intoArray(out1, position);
            }
        }

        private void rows3(byte[][] inputs, byte[] out0, byte[] out1, byte[] out2, int table, int start, int end) {
            int row = columns * LANES;
            for (int position = start; position < end; position += LANES) {
                ByteVector acc0 = ByteVector.zero(SPECIES);
                ByteVector acc1 = acc0;
                ByteVector acc2 = acc0;
                for (int i = 0; i < columns; i++) {
                    ByteVector in = ByteVector.fromArray(SPECIES, inputs[i], position);
                    ByteVector low = in.and((byte) 0x0F);
                    ByteVector high = in.lanewise(VectorOperators.LSHR, 4);
                    int t = table + i * LANES;
                    acc0 = acc0.lanewise(VectorOperators.XOR, lookup(low, high, t));
                    acc1 = acc1.lanewise(VectorOperators.XOR, lookup(low, high, t + row));
                    acc2 = acc2.lanewise(VectorOperators.XOR, lookup(low, high, t + 2 * row));
                }
                acc0.intoArray(out0, position);
                acc1.intoArray(out1, position);
                acc2.intoArray(out2, position);
            }
        }

        private void rows4(byte[][] inputs, byte[] out0, byte[] out1, byte[] out2, byte[] out3, int table, int start,
                int end) {
            int row = columns * LANES;
            for (int position = start; position < end; position += LANES) {
                ByteVector acc0 = ByteVector.zero(SPECIES);
                ByteVector acc1 = acc0;
                ByteVector acc2 = acc0;
                ByteVector acc3 = acc0;
                for (int i = 0; i < columns; i++) {
                    ByteVector in = ByteVector.fromArray(SPECIES, inputs[i], position);
                    ByteVector low = in.and((byte) 0x0F);
                    ByteVector high = in.lanewise(VectorOperators.LSHR, 4);
                    int t = table + i * LANES;
                    acc0 = acc0.lanewise(VectorOperators.XOR, lookup(low, high, t));
                    acc1 = acc1.lanewise(VectorOperators.XOR, lookup(low, high, t + row));
                    acc2 = acc2.lanewise(VectorOperators.XOR, lookup(low, high, t + 2 * row));
                    acc3 = acc3.lanewise(VectorOperators.XOR, lookup(low, high, t + 3 * row));
                }
                acc0.intoArray(out0, position);
                acc1.intoArray(out1, position);
                acc2.intoArray(out2, position);
                acc3.intoArray(out3, position);
            }
        }

        /** c * x for the 16 products of c's tables at {@code table}, x given as its two nibbles. */
        private ByteVector lookup(ByteVector low, ByteVector high, int table) {
            return low.selectFrom(ByteVector.fromArray(SPECIES, lowTables, table))
                    .lanewise(VectorOperators.XOR, high.selectFrom(ByteVector.fromArray(SPECIES, highTables, table)));
        }
    }
}
