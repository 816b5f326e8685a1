package io.layoutbench.api.predicate;

import java.util.Arrays;
import java.util.Random;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The innermost loops of {@link ColumnarEvaluator}: scans of a primitive array that append the ids of the matching
 * rows to an {@code int[]}. Two implementations return the same rows: {@link ScalarScans}, plain loops that run
 * anywhere, and {@code VectorScans} on the Java Vector API, used when the JVM resolves {@value #VECTOR_MODULE}
 * (started with {@code --add-modules jdk.incubator.vector}) and a self-check against the scalar loops passes. The
 * vector class names types of that module, so it is loaded reflectively and every {@link LinkageError} is caught:
 * without the module the evaluator runs the scalar loops, it does not fail.
 *
 * <p>Every scan writes its matches at {@code out[n], out[n + 1], ...} in ascending row order and returns the new
 * count; the caller guarantees room for one entry per scanned row. Stateless and thread-safe.
 */
abstract class Scans {
    static final String VECTOR_MODULE = "jdk.incubator.vector";

    private static final Logger LOG = LoggerFactory.getLogger(Scans.class);

    /** Rows {@code r} in {@code [from, to)} with {@code lo <= v[r] <= hi}. */
    abstract int longsBetween(long[] v, int from, int to, long lo, long hi, int[] out, int n);

    /** Rows {@code r} in {@code [from, to)} whose {@code ids[r]} is one of {@code values} ({@link #maxInValues}). */
    abstract int intsIn(int[] ids, int from, int to, int[] values, int[] out, int n);

    /** How many values {@link #intsIn} takes and is still faster than a lookup table per row. */
    abstract int maxInValues();

    /** {@code dst[k] = (double) src[from + k]} for {@code k < len}: {@code CAST(x AS DOUBLE)} of a BIGINT column. */
    abstract void longsToDoubles(long[] src, int from, double[] dst, int len);

    /** Whether any of {@code y[0, len)} is zero (of either sign). */
    abstract boolean anyZero(double[] y, int len);

    /**
     * Positions {@code k < len} where {@code (x[k] op c) == want} in the language's order of doubles (NaN equal to
     * itself and above every number), for a {@code c} that is not NaN; appends {@code rows[k]}, or {@code base + k}
     * when {@code rows} is null.
     */
    abstract int compare(double[] x, int len, ComparisonOperator op, double c, boolean want, int[] rows, int base,
            int[] out, int n);

    /** What these loops are, for the log. */
    abstract String description();

    /** The fastest scans that run here; the first call logs which they are. */
    static Scans best() {
        return Probe.BEST;
    }

    /** The Vector API scans, or null when they cannot run in this JVM. */
    static Scans vector() {
        return Probe.VECTOR;
    }

    /** Why the Vector API scans cannot run, or null if they can. */
    static String vectorUnavailableReason() {
        return Probe.REASON;
    }

    /**
     * {@code x op c} as {@link #compare} tests it, written as one of three IEEE tests, possibly negated: GREATER_THAN
     * is {@code !(x <= c)}, which is also TRUE for NaN, as the language's order wants; likewise GREATER_THAN_OR_EQUAL
     * is {@code !(x < c)} and NOT_EQUAL {@code !(x == c)}.
     */
    static ComparisonOperator ieeeTest(ComparisonOperator op) {
        return switch (op) {
            case LESS_THAN, GREATER_THAN_OR_EQUAL -> ComparisonOperator.LESS_THAN;
            case LESS_THAN_OR_EQUAL, GREATER_THAN -> ComparisonOperator.LESS_THAN_OR_EQUAL;
            case EQUAL, NOT_EQUAL -> ComparisonOperator.EQUAL;
        };
    }

    /** Whether {@link #ieeeTest} negates its test for {@code op}. */
    static boolean ieeeTestNegated(ComparisonOperator op) {
        return op == ComparisonOperator.GREATER_THAN || op == ComparisonOperator.GREATER_THAN_OR_EQUAL
                || op == ComparisonOperator.NOT_EQUAL;
    }

    /** Holds the probe's outcome; initialised (and logged) on first use only. */
    private static final class Probe {
        static final Scans VECTOR;
        static final String REASON;
        static final Scans BEST;

        static {
            Scans vector = null;
            String reason;
            if (ModuleLayer.boot().findModule(VECTOR_MODULE).isEmpty()) {
                reason = "the module " + VECTOR_MODULE + " is not resolved (start the JVM with --add-modules "
                        + VECTOR_MODULE + " for the vector scans)";
            } else {
                try {
                    vector = (Scans) Class.forName(Scans.class.getPackageName() + ".VectorScans")
                            .getDeclaredConstructor().newInstance();
                    reason = selfCheck(vector);
                } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                    Throwable cause = e.getCause() != null ? e.getCause() : e;
                    reason = "they failed to load: " + cause;
                }
                if (reason != null) {
                    vector = null;
                }
            }
            VECTOR = vector;
            REASON = reason;
            BEST = vector != null ? vector : ScalarScans.INSTANCE;
            if (vector != null) {
                LOG.debug("Predicate evaluator scans: {}", vector.description());
            } else {
                LOG.debug("Predicate evaluator scans: {}, as the vector scans cannot run: {}",
                        ScalarScans.INSTANCE.description(), reason);
            }
        }

        /** Null if {@code vector} selects the rows the scalar scans select, else what differs. */
        private static String selfCheck(Scans vector) {
            Random random = new Random(42);
            Scans scalar = ScalarScans.INSTANCE;
            int size = 1000;
            long[] longs = random.longs(size, -5, 5).toArray();
            int[] ids = random.ints(size, -1, 8).toArray();
            double[] doubles = random.doubles(size, -2, 2).toArray();
            doubles[7] = Double.NaN;
            doubles[8] = 0.0;
            int[] expected = new int[size];
            int[] actual = new int[size];
            int e = scalar.longsBetween(longs, 3, 990, -1, 2, expected, 0);
            int a = vector.longsBetween(longs, 3, 990, -1, 2, actual, 0);
            boolean same = e == a && Arrays.equals(expected, 0, e, actual, 0, a);
            e = scalar.intsIn(ids, 5, 997, new int[] {-1, 3}, expected, 0);
            a = vector.intsIn(ids, 5, 997, new int[] {-1, 3}, actual, 0);
            same &= e == a && Arrays.equals(expected, 0, e, actual, 0, a);
            for (ComparisonOperator op : ComparisonOperator.values()) {
                e = scalar.compare(doubles, 999, op, 0.5, true, null, 11, expected, 0);
                a = vector.compare(doubles, 999, op, 0.5, true, null, 11, actual, 0);
                same &= e == a && Arrays.equals(expected, 0, e, actual, 0, a);
            }
            same &= vector.anyZero(doubles, size) && !vector.anyZero(doubles, 8);
            double[] converted = new double[size];
            vector.longsToDoubles(new long[] {Long.MIN_VALUE, -1, (1L << 53) + 1, Long.MAX_VALUE}, 0, converted, 4);
            same &= Arrays.equals(converted, 0, 4,
                    new double[] {Long.MIN_VALUE, -1, (1L << 53) + 1, Long.MAX_VALUE}, 0, 4);
            return same ? null : "their self-check selects other rows than the scalar scans";
        }
    }
}
