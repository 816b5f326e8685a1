package io.layoutbench.fusion.codec;

/**
 * Arithmetic in GF(2^8) exactly as Backblaze JavaReedSolomon's {@code Galois} does it: the field polynomial
 * x^8 + x^4 + x^3 + x^2 + 1 ({@code 0x11D}) with generator 2. Codes built on it produce the same parity bytes as
 * Backblaze's, which is what lets {@code fast-rs} and {@code backblaze-rs} decode each other's stripes.
 *
 * <pre>{@code
 * GaloisField.multiply(3, 7);    // 9
 * GaloisField.power(2, 8);       // 0x1D: x^8 reduced by the field polynomial
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 */
final class GaloisField {

    /** The field polynomial, as Backblaze's {@code Galois.GENERATING_POLYNOMIAL} (29) with the x^8 bit. */
    static final int POLYNOMIAL = 0x11D;

    private static final int[] LOG = new int[256];
    /** Twice the cycle of 255, so a sum of two logarithms indexes it without a modulo. */
    private static final int[] EXP = new int[510];

    static {
        int x = 1;
        for (int i = 0; i < 255; i++) {
            EXP[i] = x;
            EXP[i + 255] = x;
            LOG[x] = i;
            x <<= 1;
            if (x >= 256) {
                x ^= POLYNOMIAL;
            }
        }
    }

    private GaloisField() {
    }

    /** a * b, both in [0, 256). */
    static int multiply(int a, int b) {
        return a == 0 || b == 0 ? 0 : EXP[LOG[a] + LOG[b]];
    }

    /** The a with a * inverse(a) = 1. */
    static int inverse(int a) {
        if (a == 0) {
            throw new ArithmeticException("0 has no inverse in GF(2^8)");
        }
        return EXP[255 - LOG[a]];
    }

    /** a^n for n >= 0, with 0^0 = 1 as Backblaze's {@code Galois.exp} has it. */
    static int power(int a, int n) {
        if (n == 0) {
            return 1;
        }
        return a == 0 ? 0 : EXP[(int) ((long) LOG[a] * n % 255)];
    }

    /** The 256 products c * x, indexed by x. */
    static byte[] productTable(int c) {
        byte[] table = new byte[256];
        for (int x = 0; x < 256; x++) {
            table[x] = (byte) multiply(c, x);
        }
        return table;
    }
}
