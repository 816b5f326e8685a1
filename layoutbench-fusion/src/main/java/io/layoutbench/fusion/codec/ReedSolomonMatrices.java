package io.layoutbench.fusion.codec;

import java.util.Arrays;

/**
 * The matrices of a systematic Reed-Solomon code over {@link GaloisField}, built the way Backblaze JavaReedSolomon
 * builds them so that the parity is byte-identical: an n x k Vandermonde matrix (entry (r, c) = r^c) multiplied by
 * the inverse of its top k x k square, which turns the top into the identity (data blocks are stored as they are)
 * and keeps every k x k selection of rows invertible (any k blocks rebuild the stripe).
 *
 * <pre>{@code
 * byte[][] e = ReedSolomonMatrices.encodingMatrix(CodeParameters.rs(9, 6));   // 9 rows of 6
 * byte[][] parityRows = Arrays.copyOfRange(e, 6, 9);
 * }</pre>
 *
 * <p>Matrices are {@code byte[rows][columns]}; nothing here keeps state.
 */
final class ReedSolomonMatrices {

    private ReedSolomonMatrices() {
    }

    /** The n x k encoding matrix of {@code code}: identity on top, parity rows below. */
    static byte[][] encodingMatrix(CodeParameters code) {
        int n = code.totalBlocks();
        int k = code.dataBlocks();
        byte[][] vandermonde = new byte[n][k];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < k; c++) {
                vandermonde[r][c] = (byte) GaloisField.power(r, c);
            }
        }
        return multiply(vandermonde, invert(Arrays.copyOf(vandermonde, k)));
    }

    /**
     * The rows that rebuild the blocks {@code missing} of a stripe from the blocks {@code sources}: row j times the
     * source blocks is block {@code missing[j]}. {@code sources} must be k distinct blocks.
     */
    static byte[][] decodingMatrix(byte[][] encoding, int[] sources, int[] missing) {
        int k = encoding[0].length;
        if (sources.length != k) {
            throw new IllegalArgumentException("Decoding needs " + k + " source blocks, got " + sources.length);
        }
        byte[][] sourceRows = new byte[k][];
        for (int j = 0; j < k; j++) {
            sourceRows[j] = encoding[sources[j]];
        }
        // Source blocks = sourceRows x data, so data = inverse x sources and block b = encoding[b] x inverse x sources.
        byte[][] inverse = invert(sourceRows);
        byte[][] missingRows = new byte[missing.length][];
        for (int j = 0; j < missing.length; j++) {
            missingRows[j] = encoding[missing[j]];
        }
        return multiply(missingRows, inverse);
    }

    /** a x b. */
    static byte[][] multiply(byte[][] a, byte[][] b) {
        int inner = b.length;
        int columns = b[0].length;
        byte[][] product = new byte[a.length][columns];
        for (int r = 0; r < a.length; r++) {
            for (int c = 0; c < columns; c++) {
                int sum = 0;
                for (int i = 0; i < inner; i++) {
                    sum ^= GaloisField.multiply(a[r][i] & 0xFF, b[i][c] & 0xFF);
                }
                product[r][c] = (byte) sum;
            }
        }
        return product;
    }

    /**
     * The inverse of a square matrix, by Gauss-Jordan elimination; {@code square} is left as it was.
     *
     * @throws IllegalArgumentException if the matrix is singular (no k rows of an encoding matrix are)
     */
    static byte[][] invert(byte[][] square) {
        int size = square.length;
        // Work on [square | identity]; when the left half is the identity, the right half is the inverse.
        int[][] work = new int[size][2 * size];
        for (int r = 0; r < size; r++) {
            if (square[r].length != size) {
                throw new IllegalArgumentException("Cannot invert a " + size + " x " + square[r].length + " matrix");
            }
            for (int c = 0; c < size; c++) {
                work[r][c] = square[r][c] & 0xFF;
            }
            work[r][size + r] = 1;
        }
        for (int c = 0; c < size; c++) {
            int pivot = c;
            while (pivot < size && work[pivot][c] == 0) {
                pivot++;
            }
            if (pivot == size) {
                throw new IllegalArgumentException("A " + size + " x " + size + " matrix over GF(2^8) is singular: "
                        + "column " + c + " has no pivot");
            }
            int[] swap = work[c];
            work[c] = work[pivot];
            work[pivot] = swap;
            int scale = GaloisField.inverse(work[c][c]);
            for (int j = 0; j < 2 * size; j++) {
                work[c][j] = GaloisField.multiply(work[c][j], scale);
            }
            for (int r = 0; r < size; r++) {
                int factor = work[r][c];
                if (r != c && factor != 0) {
                    for (int j = 0; j < 2 * size; j++) {
                        work[r][j] ^= GaloisField.multiply(factor, work[c][j]);
                    }
                }
            }
        }
        byte[][] inverse = new byte[size][size];
        for (int r = 0; r < size; r++) {
            for (int c = 0; c < size; c++) {
                inverse[r][c] = (byte) work[r][size + c];
            }
        }
        return inverse;
    }
}
