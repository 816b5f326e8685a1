package io.layoutbench.api.predicate;

import java.util.stream.IntStream;
import java.util.stream.LongStream;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The {@link Scans} on the Java Vector API ({@code jdk.incubator.vector}). A vector of rows (8 longs or doubles with
 * AVX-512, as many as fit in the widest vector; twice as many ints) is compared at once; a vector without a match is
 * skipped with one test, and the matches of any other are written with one vector store, whatever their number: the
 * lanes that match, as a bit set, index a table of their positions, and those positions plus the first row's id are
 * stored at {@code out[n]}, and {@code n} advances by the bit count (Java 17's Vector API has no compress operation;
 * measured, this beats writing the lanes one by one, with or without branches, at 0.6%, 3.5% and 20% matches). The
 * tails are scalar. Loaded reflectively by {@link Scans} only: in a JVM started without
 * {@code --add-modules jdk.incubator.vector} loading it throws {@link NoClassDefFoundError}.
 *
 * <p>The Vector API compiles to vector instructions only when the operator of each operation is a constant, so
 * each comparison has its own branch; and only operations Java 17 compiles to vector code are used (its long to
 * double conversion is not one: {@link #longsToDoubles} adds and subtracts a constant instead).
 */
final class VectorScans extends Scans {
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    /** Lanes per vector, the same for longs, doubles and the ints of row ids below. */
    private static final int LANES = LONGS.length();
    /** Ints with as many lanes as the long vectors: row ids. */
    private static final VectorSpecies<Integer> ROW_IDS =
            VectorSpecies.of(int.class, VectorShape.forBitSize(LANES * Integer.SIZE));
    /** Dictionary ids are compared in the widest vectors, a multiple of {@link #LANES} lanes. */
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    /** Bit {@code j} in lane {@code j}: blended under a mask and OR-reduced, it turns the mask into a bit set. */
    private static final LongVector LANE_BITS =
            LongVector.fromArray(LONGS, LongStream.range(0, LANES).map(j -> 1L << j).toArray(), 0);
    private static final DoubleVector DOUBLE_LANE_BITS = LANE_BITS.reinterpretAsDoubles();
    private static final IntVector INT_LANE_BITS =
            IntVector.fromArray(INTS, IntStream.range(0, INTS.length()).map(j -> 1 << j).toArray(), 0);
    /**
     * Vectors without a match are skipped, with a branch, while fewer than one in {@link #SKIP_BELOW} of the last
     * {@code ADAPT_EVERY} vectors had one; else every vector is stored, without a branch to mispredict. Measured on
     * 1.28 M longs: skipping is 25% faster at 0.6% matching rows, storing 35% faster at 3.5%.
     */
    private static final int ADAPT_EVERY = 128;
    private static final int SKIP_BELOW = 8;
    /** For each bit set {@code b} of lanes, at {@code [b * LANES, (b + 1) * LANES)}: the set lanes in order. */
    private static final int[] POSITIONS = positions();
    /** More values are slower than DictionaryFilter's lookup table (measured: ten LIKE matches). */
    private static final int MAX_IN_VALUES = 4;
    /** 2^52 + 2^51, for {@link #longsToDoubles}, and its bits. */
    private static final double MAGIC = 0x1.8p52;
    private static final long MAGIC_BITS = Double.doubleToRawLongBits(MAGIC);
    private static final long EXACT_LIMIT = 1L << 51;

    /** Public for {@link Scans}'s reflective loading. */
    public VectorScans() {
    }

    private static int[] positions() {
        int[] positions = new int[(1 << LANES) * LANES];
        for (int bits = 0; bits < 1 << LANES; bits++) {
            int i = bits * LANES;
            for (int j = 0; j < LANES; j++) {
                if ((bits & (1 << j)) != 0) {
                    positions[i++] = j;
                }
            }
        }
        return positions;
    }

    /**
     * Appends rows {@code first + j} for the lanes {@code j} in {@code bits}, with one store of {@code LANES} ids:
     * the caller has room for {@code LANES} more.
     */
    private static int store(int bits, int first, int[] out, int n) {
        IntVector.fromArray(ROW_IDS, POSITIONS, bits * LANES).add(first).intoArray(out, n);
        return n + Integer.bitCount(bits);
    }

    @Override
    int longsBetween(long[] v, int from, int to, long lo, long hi, int[] out, int n) {
        int r = from;
        int vectors = 0;
        int withMatches = 0;
        boolean skipEmpty = true;
        for (int bound = to - LANES; r <= bound; r += LANES) {
            LongVector x = LongVector.fromArray(LONGS, v, r);
            VectorMask<Long> m = x.compare(VectorOperators.GE, lo).and(x.compare(VectorOperators.LE, hi));
            if (++vectors == ADAPT_EVERY) {
                skipEmpty = withMatches < ADAPT_EVERY / SKIP_BELOW;
                vectors = 0;
                withMatches = 0;
            }
            if (skipEmpty && !m.anyTrue()) {
                continue;
            }
            int bits = (int) LongVector.zero(LONGS).blend(LANE_BITS, m).reduceLanes(VectorOperators.OR);
            withMatches += bits != 0 ? 1 : 0;
            n = store(bits, r, out, n);
        }
        return ScalarScans.INSTANCE.longsBetween(v, r, to, lo, hi, out, n);
    }

    @Override
    int intsIn(int[] ids, int from, int to, int[] values, int[] out, int n) {
        int step = INTS.length();
        int r = from;
        int first = values[0];
        for (int bound = to - step; r <= bound; r += step) {
            IntVector x = IntVector.fromArray(INTS, ids, r);
            VectorMask<Integer> m = x.compare(VectorOperators.EQ, first);
            for (int i = 1; i < values.length; i++) {
                m = m.or(x.compare(VectorOperators.EQ, values[i]));
            }
            if (m.anyTrue()) {
                int bits = IntVector.zero(INTS).blend(INT_LANE_BITS, m).reduceLanes(VectorOperators.OR);
                for (int part = 0; part < step; part += LANES) {
                    n = store((bits >>> part) & ((1 << LANES) - 1), r + part, out, n);
                }
            }
        }
        return ScalarScans.INSTANCE.intsIn(ids, r, to, values, out, n);
    }

    @Override
    int maxInValues() {
        return MAX_IN_VALUES;
    }

    /**
     * Converts without a conversion instruction: for {@code |x| < 2^51}, the bits of the double {@code 2^52 + 2^51}
     * plus {@code x} are the bits of the double {@code 2^52 + 2^51 + x} (doubles in [2^52, 2^53) are the integers,
     * spaced 1 apart), and subtracting {@code 2^52 + 2^51} again is exact. A vector with a larger value is converted
     * lane by lane.
     */
    @Override
    void longsToDoubles(long[] src, int from, double[] dst, int len) {
        int k = 0;
        for (int bound = len - LANES; k <= bound; k += LANES) {
            LongVector x = LongVector.fromArray(LONGS, src, from + k);
            if (x.compare(VectorOperators.GE, -EXACT_LIMIT).and(x.compare(VectorOperators.LT, EXACT_LIMIT)).allTrue()) {
                x.add(MAGIC_BITS).reinterpretAsDoubles().sub(MAGIC).intoArray(dst, k);
            } else {
                ScalarScans.INSTANCE.longsToDoubles(src, from + k, dst, k, LANES);
            }
        }
        ScalarScans.INSTANCE.longsToDoubles(src, from + k, dst, k, len - k);
    }

    @Override
    boolean anyZero(double[] y, int len) {
        int k = 0;
        for (int bound = len - LANES; k <= bound; k += LANES) {
            if (DoubleVector.fromArray(DOUBLES, y, k).compare(VectorOperators.EQ, 0.0).anyTrue()) {
                return true;
            }
        }
        for (; k < len; k++) {
            if (y[k] == 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    int compare(double[] x, int len, ComparisonOperator op, double c, boolean want, int[] rows, int base, int[] out,
            int n) {
        boolean flip = want == ieeeTestNegated(op);
        ComparisonOperator test = ieeeTest(op);
        int k = 0;
        int vectors = 0;
        int withMatches = 0;
        boolean skipEmpty = true;
        for (int bound = len - LANES; k <= bound; k += LANES) {
            DoubleVector v = DoubleVector.fromArray(DOUBLES, x, k);
            VectorMask<Double> m = switch (test) {
                case LESS_THAN -> v.compare(VectorOperators.LT, c);
                case LESS_THAN_OR_EQUAL -> v.compare(VectorOperators.LE, c);
                default -> v.compare(VectorOperators.EQ, c);
            };
            // The lanes' bits as doubles, reinterpreted as longs: exact, since blending only moves bits.
            long bits = DoubleVector.zero(DOUBLES).blend(DOUBLE_LANE_BITS, m).reinterpretAsLongs()
                    .reduceLanes(VectorOperators.OR);
            if (flip) {
                bits ^= (1L << LANES) - 1;
            }
            if (++vectors == ADAPT_EVERY) {
                skipEmpty = withMatches < ADAPT_EVERY / SKIP_BELOW;
                vectors = 0;
                withMatches = 0;
            }
            if (skipEmpty && bits == 0) {
                continue;
            }
            withMatches += bits != 0 ? 1 : 0;
            if (rows == null) {
                n = store((int) bits, base + k, out, n);
            } else {
                for (int i = (int) bits * LANES, end = i + Long.bitCount(bits); i < end; i++) {
                    out[n++] = rows[k + POSITIONS[i]];
                }
            }
        }
        return ScalarScans.INSTANCE.compareRange(x, k, len, test, c, flip, rows, base, out, n);
    }

    @Override
    String description() {
        return "Vector API, " + LONGS.vectorBitSize() + "-bit vectors";
    }
}
