package io.layoutbench.fusion.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What every {@link ErasureCodec} promises. Each codec's test extends this class and says how to make the codec.
 */
public abstract class ErasureCodecContractTest {

    /** The codec under test. */
    protected abstract ErasureCodec codec();

    @ParameterizedTest(name = "RS({0},{1})")
    @CsvSource({"9, 6", "14, 10", "3, 2", "5, 1"})
    void everyLossOfUpToNMinusKBlocksIsRebuilt(int n, int k) {
        CodeParameters code = CodeParameters.rs(n, k);
        ErasureCoder coder = codec().coder(code);
        byte[][] original = randomStripe(code, 257, new Random(n * 31L + k));
        coder.encode(original, 0, 257);

        int cases = 0;
        for (List<Integer> lost : subsetsUpTo(n, code.parityBlocks())) {
            byte[][] shards = copy(original);
            boolean[] present = new boolean[n];
            java.util.Arrays.fill(present, true);
            for (int b : lost) {
                present[b] = false;
                java.util.Arrays.fill(shards[b], (byte) 0x5a);
            }
            coder.decode(shards, present, 0, 257);
            for (int b = 0; b < n; b++) {
                assertThat(shards[b]).as("block %d after losing %s", b, lost).isEqualTo(original[b]);
            }
            cases++;
        }
        assertThat(cases).isPositive();
    }

    @Test
    void aSubRangeIsEncodedAndRebuiltWithoutTouchingTheRest() {
        CodeParameters code = CodeParameters.rs(9, 6);
        ErasureCoder coder = codec().coder(code);
        byte[][] whole = randomStripe(code, 4096, new Random(7));
        coder.encode(whole, 0, 4096);

        byte[][] partial = copy(whole);
        for (int b = 6; b < 9; b++) {
            java.util.Arrays.fill(partial[b], (byte) 0);
        }
        coder.encode(partial, 1000, 300);
        for (int b = 6; b < 9; b++) {
            assertThat(java.util.Arrays.copyOfRange(partial[b], 1000, 1300))
                    .isEqualTo(java.util.Arrays.copyOfRange(whole[b], 1000, 1300));
            assertThat(partial[b][999]).isZero();
            assertThat(partial[b][1300]).isZero();
        }

        // Rebuild bytes [1000, 1300) of three blocks from a window of just those bytes.
        byte[][] window = new byte[9][300];
        boolean[] present = {true, false, true, true, false, true, true, true, false};
        for (int b = 0; b < 9; b++) {
            if (present[b]) {
                System.arraycopy(whole[b], 1000, window[b], 0, 300);
            }
        }
        coder.decode(window, present, 0, 300);
        for (int b : new int[] {1, 4, 8}) {
            assertThat(window[b]).isEqualTo(java.util.Arrays.copyOfRange(whole[b], 1000, 1300));
        }
    }

    @Test
    void tooFewBlocksFailNamingTheCounts() {
        CodeParameters code = CodeParameters.rs(9, 6);
        ErasureCoder coder = codec().coder(code);
        byte[][] shards = randomStripe(code, 16, new Random(1));
        boolean[] present = {true, true, true, true, true, false, false, false, false};

        assertThatThrownBy(() -> coder.decode(shards, present, 0, 16))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5 of 9").hasMessageContaining("6");
    }

    @Test
    void malformedStripesAreRejected() {
        ErasureCoder coder = codec().coder(CodeParameters.rs(9, 6));

        assertThatThrownBy(() -> coder.encode(new byte[8][10], 0, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9 shards");
        byte[][] ragged = new byte[9][10];
        ragged[3] = new byte[11];
        assertThatThrownBy(() -> coder.encode(ragged, 0, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("differ in length");
        assertThatThrownBy(() -> coder.encode(new byte[9][10], 5, 6)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void coderIsSystematicAndDeterministic() {
        CodeParameters code = CodeParameters.rs(14, 10);
        byte[][] a = randomStripe(code, 100, new Random(3));
        byte[][] b = copy(a);
        byte[][] data = copy(a);
        codec().coder(code).encode(a, 0, 100);
        codec().coder(code).encode(b, 0, 100);

        assertThat(a).isDeepEqualTo(b);
        for (int i = 0; i < 10; i++) {
            assertThat(a[i]).isEqualTo(data[i]);
        }
    }

    static byte[][] randomStripe(CodeParameters code, int length, Random random) {
        byte[][] shards = new byte[code.totalBlocks()][length];
        for (int b = 0; b < code.dataBlocks(); b++) {
            random.nextBytes(shards[b]);
        }
        return shards;
    }

    static byte[][] copy(byte[][] shards) {
        byte[][] copy = new byte[shards.length][];
        for (int i = 0; i < shards.length; i++) {
            copy[i] = shards[i].clone();
        }
        return copy;
    }

    /** All subsets of {0..n-1} with 1 to max elements. */
    static List<List<Integer>> subsetsUpTo(int n, int max) {
        List<List<Integer>> result = new ArrayList<>();
        for (int mask = 1; mask < 1 << n; mask++) {
            if (Integer.bitCount(mask) <= max) {
                List<Integer> subset = new ArrayList<>();
                for (int b = 0; b < n; b++) {
                    if ((mask & 1 << b) != 0) {
                        subset.add(b);
                    }
                }
                result.add(subset);
            }
        }
        return result;
    }
}
