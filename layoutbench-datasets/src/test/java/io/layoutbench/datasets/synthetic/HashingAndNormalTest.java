package io.layoutbench.datasets.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.BitSet;

import org.junit.jupiter.api.Test;

class HashingAndNormalTest {

    @Test
    void permuteIsABijectionOfTheRange() {
        for (int n : new int[] {1, 2, 3, 4, 5, 7, 13, 64, 130, 1000, 1300, 4097, 12_756}) {
            for (long key : new long[] {0L, 1L, -7L, 0x1234_5678_9ABCL}) {
                BitSet seen = new BitSet(n);
                for (int i = 0; i < n; i++) {
                    long image = Hashing.permute(i, n, key);
                    assertThat(image).isBetween(0L, n - 1L);
                    seen.set((int) image);
                }
                assertThat(seen.cardinality()).as("n=%d key=%d", n, key).isEqualTo(n);
            }
        }
    }

    @Test
    void permuteDependsOnTheKey() {
        int moved = 0;
        for (int i = 0; i < 1000; i++) {
            if (Hashing.permute(i, 1000, 1L) != Hashing.permute(i, 1000, 2L)) {
                moved++;
            }
        }
        assertThat(moved).isGreaterThan(900);
        assertThatThrownBy(() -> Hashing.permute(10, 10, 0L)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void normalCdfAndQuantileAgreeWithTables() {
        assertThat(Normal.cdf(0)).isCloseTo(0.5, within(1e-7));
        assertThat(Normal.cdf(1.959963985)).isCloseTo(0.975, within(1e-7));
        assertThat(Normal.cdf(-3)).isCloseTo(0.001349898, within(1e-7));
        assertThat(Normal.quantile(0.975)).isCloseTo(1.959963985, within(1e-8));
        assertThat(Normal.quantile(1e-6)).isCloseTo(-4.753424309, within(1e-7));
        for (double p = 0.001; p < 1; p += 0.01) {
            assertThat(Normal.cdf(Normal.quantile(p))).isCloseTo(p, within(2e-7));
        }
    }

    @Test
    void carriedRoundingKeepsRunningTotalsClose() {
        double[] carry = new double[3];
        long[] given = new long[3];
        double[] expected = new double[3];
        for (int step = 1; step <= 1000; step++) {
            double[] e = {13 * 0.8, 13 * 0.19, 13 * 0.01};
            int[] out = SyntheticPlan.roundWithCarry(e, 13, carry);
            assertThat(out[0] + out[1] + out[2]).isEqualTo(13);
            for (int k = 0; k < 3; k++) {
                given[k] += out[k];
                expected[k] += e[k];
                assertThat((double) given[k]).isCloseTo(expected[k], within(1.0));
            }
        }
        assertThat(given[2]).isEqualTo(130);
    }

    @Test
    void apportionGivesExactTotals() {
        int[] shares = SyntheticPlan.apportion(10, new double[] {1, 1, 1});
        assertThat(shares).containsExactly(4, 3, 3);
        assertThat(SyntheticPlan.apportion(12_500, new double[] {1300, 732, 1299, 1000})).satisfies(s ->
                assertThat(s[0] + s[1] + s[2] + s[3]).isEqualTo(12_500));
    }
}
