package io.layoutbench.fusion.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.fusion.codec.CodeParameters;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FacStripeConstructorTest {

    private static final long MB = 1 << 20;
    private final StripeConstructor fac = StripeConstructors.fac();

    /**
     * The Fusion paper's Figure 2 object: 12 MB under RS(9,6) as seven 1 MB chunks, one 3 MB chunk and four of
     * 0.5 MB. By hand, Algorithm 1 puts 3 alone in the first bin (capacity 3), the seven 1s into bins 1..5 and then
     * 1 and 2 again (least occupied, lowest index first), and the four 0.5s into bins 3, 4, 5 and 3: loads
     * 3, 2, 2, 2, 1.5, 1.5 in one stripe, whose three parity blocks are 3 MB each: 9 MB of parity where fixed 1 MB
     * blocks need 6 MB (the figure's 1.5x against 0.5x per stripe).
     */
    @Test
    void paperFigure2ObjectByHand() {
        long[] sizes = {MB, MB, MB, 3 * MB, MB / 2, MB, MB / 2, MB, MB / 2, MB, MB / 2, MB};

        StripeAssignment stripes = fac.construct(sizes, 6);

        assertThat(stripes.stripeCount()).isOne();
        assertThat(loads(stripes, 0)).containsExactly(3 * MB, 2 * MB, 2 * MB, 2 * MB, 3 * MB / 2, 3 * MB / 2);
        assertThat(stripes.items(0, 0)).containsExactly(3);
        assertThat(stripes.items(0, 3)).containsExactly(2, 4, 10);   // the third 1 MB chunk, then two of 0.5 MB
        assertThat(stripes.parityBytes(CodeParameters.rs(9, 6))).isEqualTo(9 * MB);
        assertThat(stripes.extraOverhead()).isEqualTo(0.5);
    }

    /**
     * A worked example over three stripes, RS(5,3), sizes 10, 9, 8, 6, 5, 4, 3, 2, 2, 1. Stripe 1: 10 alone (capacity
     * 10); 9 to bin 1, 8 to bin 2; 6, 5, 4, 3 fit nowhere (bin 2, the least occupied, would pass 10); the first 2
     * fills bin 2 to 10; the second 2 does not fit bin 1 (9); 1 fills bin 1 to 10. Stripe 2: 6 alone; 5 to bin 1, 4 to
     * bin 2; 3 does not fit bin 2 (4 + 3 > 6); 2 fills bin 2 to 6. Stripe 3: 3 alone. Block sizes 10 + 6 + 3 = 19.
     */
    @Test
    void workedExampleOverThreeStripes() {
        long[] sizes = {10, 9, 8, 6, 5, 4, 3, 2, 2, 1};

        StripeAssignment stripes = fac.construct(sizes, 3);

        assertThat(stripes.stripeCount()).isEqualTo(3);
        assertThat(bins(stripes, 0)).isEqualTo(new int[][] {{0}, {1, 9}, {2, 7}});
        assertThat(bins(stripes, 1)).isEqualTo(new int[][] {{3}, {4}, {5, 8}});
        assertThat(bins(stripes, 2)).isEqualTo(new int[][] {{6}, {}, {}});
        assertThat(stripes.blockSizeSum()).isEqualTo(19);
        assertThat(stripes.parityBytes(CodeParameters.rs(5, 3))).isEqualTo(38);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 6, 10})
    void followsAlgorithm1OnRandomInputs(int k) {
        Random random = new Random(k);
        for (int trial = 0; trial < 200; trial++) {
            long[] sizes = random.longs(random.nextInt(60), 0, 1000).toArray();

            StripeAssignment stripes = fac.construct(sizes, k);

            long previousCap = Long.MAX_VALUE;
            int placed = 0;
            for (int s = 0; s < stripes.stripeCount(); s++) {
                int[] first = stripes.items(s, 0);
                assertThat(first).as("the first bin holds one item").hasSize(1);
                long cap = sizes[first[0]];
                assertThat(stripes.blockSize(s)).as("no bin outgrows the first").isEqualTo(cap);
                assertThat(cap).as("stripes open with ever smaller items").isLessThanOrEqualTo(previousCap);
                previousCap = cap;
                for (int b = 0; b < k; b++) {
                    placed += stripes.items(s, b).length;
                }
            }
            assertThat(placed).isEqualTo(sizes.length);
        }
    }

    @Test
    void emptyAndSingleInputs() {
        assertThat(fac.construct(new long[0], 6).stripeCount()).isZero();
        StripeAssignment one = fac.construct(new long[] {42}, 6);
        assertThat(one.stripeCount()).isOne();
        assertThat(one.blockSizeSum()).isEqualTo(42);
        assertThat(one.extraOverhead()).isEqualTo(5.0);   // a single block: parity as large as it, as replication
    }

    static long[] loads(StripeAssignment stripes, int stripe) {
        long[] loads = new long[stripes.dataBlocks()];
        for (int b = 0; b < loads.length; b++) {
            loads[b] = stripes.load(stripe, b);
        }
        return loads;
    }

    static int[][] bins(StripeAssignment stripes, int stripe) {
        int[][] bins = new int[stripes.dataBlocks()][];
        for (int b = 0; b < bins.length; b++) {
            bins[b] = stripes.items(stripe, b);
        }
        return bins;
    }

    static void assertValid(StripeAssignment stripes, long[] sizes) {
        int[] seen = new int[sizes.length];
        long largest = Arrays.stream(sizes).max().orElse(0);
        for (int s = 0; s < stripes.stripeCount(); s++) {
            for (int b = 0; b < stripes.dataBlocks(); b++) {
                for (int item : stripes.items(s, b)) {
                    seen[item]++;
                }
                assertThat(stripes.load(s, b)).as("bin capacity is the largest item").isLessThanOrEqualTo(largest);
            }
        }
        assertThat(Arrays.stream(seen).allMatch(count -> count == 1)).as("every item in exactly one bin").isTrue();
    }
}
