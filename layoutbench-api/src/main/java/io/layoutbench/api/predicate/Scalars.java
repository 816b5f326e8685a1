package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.ColumnType;

import java.util.Arrays;

/**
 * The value semantics of the language, shared by constant folding and every evaluator so they cannot disagree.
 * Values are {@code Long}, {@code Double}, {@code String} or {@code Boolean}; a {@code null} result means SQL NULL.
 */
final class Scalars {
    /** 2^63 as a double: the first double above the BIGINT range. */
    private static final double TWO_POW_63 = 0x1p63;

    private Scalars() {
    }

    /**
     * Orders doubles as PostgreSQL and DuckDB do: numerically, with {@code -0.0 == 0.0}, and NaN equal to itself
     * and greater than everything else. Unlike the IEEE operators this is a total order, which keeps min/max
     * statistics and NOT sound in the presence of NaN.
     */
    static int compareDoubles(double a, double b) {
        if (a < b) {
            return -1;
        } else if (a > b) {
            return 1;
        } else if (a == b) {
            return 0;
        }
        boolean aNaN = Double.isNaN(a);
        boolean bNaN = Double.isNaN(b);
        return aNaN == bNaN ? 0 : aNaN ? 1 : -1;
    }

    /**
     * Three-way comparison of two non-null values of comparable types: two numbers (BIGINT pairs exactly, anything
     * with a DOUBLE as doubles), two strings, or two booleans.
     */
    static int compare(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        } else if (a instanceof Number x && b instanceof Number y) {
            return compareDoubles(x.doubleValue(), y.doubleValue());
        } else if (a instanceof String x && b instanceof String y) {
            return x.compareTo(y);
        } else if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        throw new IllegalStateException("Cannot compare " + describe(a) + " with " + describe(b));
    }

    /**
     * The sign of {@code a[from, to).compareTo(b)} for well-formed UTF-8, as {@link String#compareTo} orders the
     * decoded strings (by UTF-16 code unit). Byte order is code point order, which agrees except that UTF-16 puts
     * the supplementary characters (4-byte forms, lead byte F0..F4) before U+E000..U+FFFF (lead byte EE or EF);
     * the first differing bytes are both lead bytes whenever that case arises.
     */
    static int compareUtf8(byte[] a, int from, int to, byte[] b) {
        int length = to - from;
        int common = Math.min(length, b.length);
        int i = Arrays.mismatch(a, from, from + common, b, 0, common);
        if (i < 0) {
            return Integer.compare(length, b.length);
        }
        int x = a[from + i] & 0xFF;
        int y = b[i] & 0xFF;
        if (x >= 0xF0 && (y == 0xEE || y == 0xEF)) {
            return -1;
        }
        if (y >= 0xF0 && (x == 0xEE || x == 0xEF)) {
            return 1;
        }
        return Integer.compare(x, y);
    }

    /** Whether {@code s} holds a surrogate char, paired or not. */
    static boolean hasSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** {@code a op b} for non-null numbers; null (SQL NULL) on BIGINT overflow or division by zero. */
    static Object arithmetic(ArithmeticOperator op, Object a, Object b) {
        if (op != ArithmeticOperator.DIVIDE && a instanceof Long x && b instanceof Long y) {
            long l = x;
            long r = y;
            return switch (op) {
                case ADD -> {
                    long sum = l + r;
                    yield ((l ^ sum) & (r ^ sum)) < 0 ? null : (Object) sum;
                }
                case SUBTRACT -> {
                    long difference = l - r;
                    yield ((l ^ r) & (l ^ difference)) < 0 ? null : (Object) difference;
                }
                case MULTIPLY -> multiplyOrNull(l, r);
                case DIVIDE -> throw new AssertionError("handled below");
            };
        }
        double l = ((Number) a).doubleValue();
        double r = ((Number) b).doubleValue();
        return switch (op) {
            case ADD -> l + r;
            case SUBTRACT -> l - r;
            case MULTIPLY -> l * r;
            case DIVIDE -> r == 0 ? null : (Object) (l / r);
        };
    }

    private static Object multiplyOrNull(long l, long r) {
        long high = Math.multiplyHigh(l, r);
        long low = l * r;
        // The product fits in a long exactly when the high half is the sign extension of the low half.
        return (high == 0 && low >= 0) || (high == -1 && low < 0) ? (Object) low : null;
    }

    /** {@code -a} for a non-null number; null on BIGINT overflow. */
    static Object negate(Object a) {
        if (a instanceof Long x) {
            return x == Long.MIN_VALUE ? null : (Object) (-x);
        }
        return -((Double) a);
    }

    /** {@code CAST(a AS target)} for a non-null number; null when a DOUBLE does not fit a BIGINT. */
    static Object cast(Object a, ColumnType target) {
        if (target == ColumnType.DOUBLE) {
            return ((Number) a).doubleValue();
        }
        if (a instanceof Long) {
            return a;
        }
        double d = (Double) a;
        return fitsBigint(d) ? (Object) (long) roundHalfAwayFromZero(d) : null;
    }

    /** Whether {@code CAST(d AS BIGINT)} is defined: d is not NaN and rounds into the BIGINT range. */
    static boolean fitsBigint(double d) {
        double r = roundHalfAwayFromZero(d);
        return r >= -TWO_POW_63 && r < TWO_POW_63;
    }

    /** Rounds half away from zero (2.5 to 3, -2.5 to -3) as DuckDB's DOUBLE to BIGINT cast does. NaN stays NaN. */
    static double roundHalfAwayFromZero(double d) {
        double magnitude = Math.abs(d);
        double floor = Math.floor(magnitude);
        // magnitude - floor is exact (both are within a factor of two once magnitude >= 1), unlike floor(d + 0.5)
        // which rounds 0.49999999999999994 up.
        if (magnitude - floor >= 0.5) {
            floor += 1;
        }
        return Math.copySign(floor, d);
    }

    /** Whether a non-null number is zero (either sign for DOUBLE). */
    static boolean isZero(Object value) {
        return value instanceof Long l ? l == 0 : ((Double) value) == 0;
    }

    static String describe(Object value) {
        return value == null ? "NULL" : value.getClass().getSimpleName() + " " + value;
    }
}
