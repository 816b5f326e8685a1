package io.layoutbench.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The evaluator's innermost loops, scalar and (when this JVM has {@code jdk.incubator.vector}) Vector API, against
 * one-row-at-a-time reference loops written from the language's semantics ({@link Scalars#compareDoubles}): every
 * operator and wanted truth value, NaN, signed zeros and infinities, extreme longs, and ranges that start and end
 * inside a vector and are shorter than one.
 */
class ScansTest {
    private static final boolean VECTOR_API =
            ModuleLayer.boot().findModule(Scans.VECTOR_MODULE).isPresent();
    private static final double[] ODD_DOUBLES = {Double.NaN, 0.0, -0.0, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, 1.5, -1.5, Double.MIN_VALUE, Double.MAX_VALUE};
    private static final long[] ODD_LONGS = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, 1023, 1024, 1025, 1L << 51,
            (1L << 51) - 1, -(1L << 51), -(1L << 51) - 1, (1L << 53) + 1};

    /** The scalar scans, plus the vector scans when they can run here. */
    private static List<Scans> implementations() {
        List<Scans> all = new ArrayList<>(List.of(ScalarScans.INSTANCE));
        if (Scans.vector() != null) {
            all.add(Scans.vector());
        }
        return all;
    }

    @Test
    void vectorScansRunWhenTheModuleIsThere() {
        if (VECTOR_API) {
            assertThat(Scans.vectorUnavailableReason()).isNull();
            assertThat(Scans.best()).isSameAs(Scans.vector());
        } else {
            assertThat(Scans.vector()).isNull();
            assertThat(Scans.vectorUnavailableReason()).contains("--add-modules jdk.incubator.vector");
            assertThat(Scans.best()).isSameAs(ScalarScans.INSTANCE);
        }
    }

    @Test
    void longsBetweenSelectsTheInclusiveRange() {
        Random random = new Random(1);
        long[][] bounds = {{1024, Long.MAX_VALUE}, {Long.MIN_VALUE, -1}, {0, 0}, {5, 4}, {Long.MIN_VALUE,
                Long.MAX_VALUE}, {-3, 3}};
        for (int trial = 0; trial < 400; trial++) {
            long[] v = new long[random.nextInt(70)];
            for (int i = 0; i < v.length; i++) {
                v[i] = random.nextInt(4) == 0 ? ODD_LONGS[random.nextInt(ODD_LONGS.length)] : random.nextInt(9) - 4;
            }
            int from = v.length == 0 ? 0 : random.nextInt(v.length);
            int to = from + random.nextInt(v.length - from + 1);
            long[] b = bounds[trial % bounds.length];
            List<Integer> expected = new ArrayList<>();
            for (int r = from; r < to; r++) {
                if (v[r] >= b[0] && v[r] <= b[1]) {
                    expected.add(r);
                }
            }
            for (Scans scans : implementations()) {
                int[] out = new int[v.length + 3];
                out[0] = -7;
                int n = scans.longsBetween(v, from, to, b[0], b[1], out, 1);
                assertThat(ids(out, 1, n)).as("%s %s in [%d, %d)", scans.description(), Arrays.toString(v), from, to)
                        .isEqualTo(expected);
                assertThat(out[0]).as("earlier output is kept").isEqualTo(-7);
            }
        }
    }

    @Test
    void intsInSelectsRowsWithOneOfTheIds() {
        Random random = new Random(2);
        for (int trial = 0; trial < 400; trial++) {
            int[] ids = random.ints(random.nextInt(70), -1, 20).toArray();
            int from = ids.length == 0 ? 0 : random.nextInt(ids.length);
            int to = from + random.nextInt(ids.length - from + 1);
            for (Scans scans : implementations()) {
                int[] values = random.ints(1 + random.nextInt(scans.maxInValues()), 0, 20).distinct().toArray();
                List<Integer> expected = new ArrayList<>();
                for (int r = from; r < to; r++) {
                    int id = ids[r];
                    if (Arrays.stream(values).anyMatch(x -> x == id)) {
                        expected.add(r);
                    }
                }
                int[] out = new int[ids.length];
                int n = scans.intsIn(ids, from, to, values, out, 0);
                assertThat(ids(out, 0, n)).as("%s %s in %s", scans.description(), Arrays.toString(values),
                        Arrays.toString(ids)).isEqualTo(expected);
            }
        }
    }

    @Test
    void compareFollowsTheLanguagesOrderOfDoubles() {
        Random random = new Random(3);
        double[] constants = {1.5, 0.0, -0.0, -1.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int trial = 0; trial < 300; trial++) {
            double[] x = new double[random.nextInt(40)];
            for (int i = 0; i < x.length; i++) {
                x[i] = random.nextBoolean() ? ODD_DOUBLES[random.nextInt(ODD_DOUBLES.length)]
                        : random.nextInt(7) * 0.5 - 1.5;
            }
            int[] rows = random.nextBoolean() ? null : random.ints(x.length, 0, 1000).sorted().toArray();
            int base = random.nextInt(100_000);
            double c = constants[trial % constants.length];
            for (ComparisonOperator op : ComparisonOperator.values()) {
                for (boolean want : new boolean[] {true, false}) {
                    List<Integer> expected = new ArrayList<>();
                    for (int k = 0; k < x.length; k++) {
                        if (op.test(Scalars.compareDoubles(x[k], c)) == want) {
                            expected.add(rows == null ? base + k : rows[k]);
                        }
                    }
                    for (Scans scans : implementations()) {
                        int[] out = new int[x.length + 2];
                        int n = scans.compare(x, x.length, op, c, want, rows, base, out, 2);
                        assertThat(ids(out, 2, n)).as("%s: (x %s %s) == %s for x = %s", scans.description(), op, c,
                                want, Arrays.toString(x)).isEqualTo(expected);
                    }
                }
            }
        }
    }

    /** Long runs whose share of matches changes, so the vector scans switch between skipping and storing. */
    @Test
    void longRunsOfChangingDensityMatchTheReference() {
        Random random = new Random(5);
        int size = 40_000;
        long[] v = new long[size];
        double[] x = new double[size];
        double[] densities = {0, 0.5, 0.01, 1, 0.04, 0.2, 0};
        for (int i = 0; i < size; i++) {
            boolean match = random.nextDouble() < densities[i * densities.length / size];
            v[i] = match ? 1024 + random.nextInt(1000) : random.nextInt(1024) - 500;
            x[i] = match ? 1.5 + random.nextDouble() : random.nextBoolean() ? Double.NaN : random.nextDouble();
        }
        List<Integer> inRange = new ArrayList<>();
        List<Integer> above = new ArrayList<>();
        for (int r = 7; r < size - 3; r++) {
            if (v[r] >= 1024) {
                inRange.add(r);
            }
        }
        for (int k = 0; k < size; k++) {
            if (x[k] > 1.5) {
                above.add(1000 + k);
            }
        }
        for (Scans scans : implementations()) {
            int[] out = new int[size];
            int n = scans.longsBetween(v, 7, size - 3, 1024, Long.MAX_VALUE, out, 0);
            assertThat(ids(out, 0, n)).as(scans.description()).isEqualTo(inRange);
            n = scans.compare(x, size, ComparisonOperator.LESS_THAN_OR_EQUAL, 1.5, false, null, 1000, out, 0);
            List<Integer> notBelow = new ArrayList<>();
            for (int k = 0; k < size; k++) {
                if (!(x[k] <= 1.5)) {
                    notBelow.add(1000 + k);
                }
            }
            assertThat(ids(out, 0, n)).as(scans.description()).isEqualTo(notBelow);
            n = scans.compare(x, size, ComparisonOperator.GREATER_THAN, 1.5, true, null, 1000, out, 0);
            assertThat(ids(out, 0, n)).as(scans.description()).isEqualTo(notBelow);
            n = scans.compare(x, size, ComparisonOperator.GREATER_THAN, 1.5, false, null, 1000, out, 0);
            assertThat(n).as(scans.description()).isEqualTo(size - notBelow.size());
            assertThat(above).isSubsetOf(notBelow);
        }
    }

    @Test
    void anyZeroSeesBothSignedZeros() {
        for (Scans scans : implementations()) {
            for (int len = 0; len < 40; len++) {
                for (int at = 0; at <= len; at++) {
                    double[] y = new double[41];
                    Arrays.fill(y, Double.NaN);
                    if (at < len) {
                        y[at] = at % 2 == 0 ? 0.0 : -0.0;
                    }
                    y[len] = 0.0;
                    assertThat(scans.anyZero(y, len)).as("%s len %d zero at %d", scans.description(), len, at)
                            .isEqualTo(at < len);
                }
            }
        }
    }

    @Test
    void longsToDoublesCastsAsJavaDoes() {
        Random random = new Random(4);
        for (Scans scans : implementations()) {
            for (int len = 0; len < 40; len++) {
                long[] src = new long[len + 5];
                for (int i = 0; i < src.length; i++) {
                    int kind = random.nextInt(20);
                    src[i] = kind == 0 ? random.nextLong() : kind == 1 ? ODD_LONGS[random.nextInt(ODD_LONGS.length)]
                            : random.nextInt() >> random.nextInt(32);
                }
                double[] dst = new double[len + 1];
                dst[len] = -9;
                scans.longsToDoubles(src, 3, dst, len);
                for (int k = 0; k < len; k++) {
                    assertThat(dst[k]).as("%s: %d", scans.description(), src[3 + k]).isEqualTo((double) src[3 + k]);
                }
                assertThat(dst[len]).isEqualTo(-9);
            }
        }
    }

    private static List<Integer> ids(int[] out, int from, int to) {
        return Arrays.stream(out, from, to).boxed().toList();
    }
}
