package io.layoutbench.fusion.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class ExactStripeSolverTest {

    private final ExactStripeSolver solver = new ExactStripeSolver(ExactStripeSolver.DEFAULT_NODE_BUDGET);

    @Test
    void matchesExhaustiveSearchOnTinyInputs() {
        Random random = new Random(3);
        for (int trial = 0; trial < 150; trial++) {
            int k = 2 + random.nextInt(2);
            long[] sizes = random.longs(1 + random.nextInt(7), 1, 20).toArray();

            ExactStripeSolver.Result result = solver.solve(sizes, k);

            assertThat(result.optimal()).isTrue();
            FacStripeConstructorTest.assertValid(result.best(), sizes);
            assertThat(result.best().blockSizeSum()).as("sizes %s, k %d", Arrays.toString(sizes), k)
                    .isEqualTo(bruteForce(sizes, k));
            assertThat(result.lowerBound()).isEqualTo(result.best().blockSizeSum());
        }
    }

    @Test
    void solvesTheWorkedExample() {
        ExactStripeSolver.Result result = solver.solve(new long[] {10, 9, 8, 6, 5, 4, 3, 2, 2, 1}, 3);
        assertThat(result.optimal()).isTrue();
        assertThat(result.best().blockSizeSum()).isEqualTo(17);
    }

    @Test
    void aBudgetTooSmallStillGivesAValidBoundAndAnswer() {
        long[] sizes = new Random(9).longs(22, 1 << 20, 100 << 20).toArray();
        ExactStripeSolver.Result exact = solver.solve(sizes, 6);
        ExactStripeSolver.Result limited = new ExactStripeSolver(50).solve(sizes, 6);

        assertThat(exact.optimal()).isTrue();
        assertThat(limited.lowerBound()).isLessThanOrEqualTo(exact.best().blockSizeSum());
        assertThat(limited.best().blockSizeSum()).isGreaterThanOrEqualTo(exact.best().blockSizeSum());
        assertThat(exact.best().blockSizeSum())
                .isLessThanOrEqualTo(StripeConstructors.facRefined().construct(sizes, 6).blockSizeSum());
    }

    /** The optimum by enumerating every partition of the items into stripes and every packing of each stripe. */
    static long bruteForce(long[] sizes, int k) {
        long capacity = Arrays.stream(sizes).max().orElse(0);
        return partitions(sizes, k, capacity, 0, new ArrayList<>());
    }

    private static long partitions(long[] sizes, int k, long capacity, int item, List<List<Integer>> stripes) {
        if (item == sizes.length) {
            long total = 0;
            for (List<Integer> stripe : stripes) {
                long best = bestStripe(sizes, k, capacity, stripe, 0, new long[k]);
                if (best == Long.MAX_VALUE) {
                    return Long.MAX_VALUE;
                }
                total += best;
            }
            return total;
        }
        long best = Long.MAX_VALUE;
        for (int s = 0; s < stripes.size(); s++) {
            List<Integer> stripe = stripes.get(s);
            stripe.add(item);
            best = Math.min(best, partitions(sizes, k, capacity, item + 1, stripes));
            stripe.remove(stripe.size() - 1);
        }
        List<Integer> fresh = new ArrayList<>(List.of(item));
        stripes.add(fresh);
        best = Math.min(best, partitions(sizes, k, capacity, item + 1, stripes));
        stripes.remove(stripes.size() - 1);
        return best;
    }

    private static long bestStripe(long[] sizes, int k, long capacity, List<Integer> items, int i, long[] loads) {
        if (i == items.size()) {
            return Arrays.stream(loads).max().orElse(0);
        }
        long best = Long.MAX_VALUE;
        for (int b = 0; b < k; b++) {
            loads[b] += sizes[items.get(i)];
            if (loads[b] <= capacity) {
                best = Math.min(best, bestStripe(sizes, k, capacity, items, i + 1, loads));
            }
            loads[b] -= sizes[items.get(i)];
        }
        return best;
    }
}
