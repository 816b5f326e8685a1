package io.layoutbench.fusion.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.Test;

class RefinedFacStripeConstructorTest {

    @Test
    void improvesTheWorkedExampleToTheOptimum() {
        // Algorithm 1 makes stripes of block sizes 10, 6 and 3 (see FacStripeConstructorTest). Repacking the last two
        // together gives one stripe [6], [5, 2], [4, 3] of block size 7: 17 in all, which is the data (50) over k.
        long[] sizes = {10, 9, 8, 6, 5, 4, 3, 2, 2, 1};

        StripeAssignment refined = StripeConstructors.facRefined().construct(sizes, 3);

        assertThat(refined.blockSizeSum()).isEqualTo(17);
        FacStripeConstructorTest.assertValid(refined, sizes);
    }

    @Test
    void isNeverWorseThanAlgorithm1AndKeepsTheBinCapacity() {
        Random random = new Random(11);
        int better = 0;
        for (int trial = 0; trial < 300; trial++) {
            int k = 1 + random.nextInt(10);
            long[] sizes = random.longs(random.nextInt(120), 1, 100_000_000).toArray();

            StripeAssignment fac = StripeConstructors.fac().construct(sizes, k);
            StripeAssignment refined = StripeConstructors.facRefined().construct(sizes, k);

            FacStripeConstructorTest.assertValid(refined, sizes);
            assertThat(refined.blockSizeSum()).isLessThanOrEqualTo(fac.blockSizeSum());
            better += refined.blockSizeSum() < fac.blockSizeSum() ? 1 : 0;
        }
        assertThat(better).as("trials where the refinement helped").isGreaterThan(100);
    }

    @Test
    void isDeterministic() {
        long[] sizes = new Random(5).longs(300, 1 << 20, 100 << 20).toArray();
        assertThat(StripeConstructors.facRefined().construct(sizes, 6).toString())
                .isEqualTo(StripeConstructors.facRefined().construct(sizes, 6).toString());
    }
}
