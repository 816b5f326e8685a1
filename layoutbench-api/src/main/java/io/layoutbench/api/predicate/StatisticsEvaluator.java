package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Decides from a group's statistics whether any of its rows can satisfy a bound predicate.
 *
 * <p>Every predicate node is mapped to two answers: can some row make it TRUE, and can some row make it FALSE.
 * NOT swaps them, which is what keeps NOT sound: {@code NOT (x > 5)} over a group with {@code x} in [1, 9] can be
 * TRUE because {@code x > 5} can be FALSE, not because {@code x > 5} "might match". AND can be TRUE only if every
 * operand can; it can be FALSE if any can; OR dually. The group is skipped only when the root cannot be TRUE.
 *
 * <p>Leaves use value ranges: a column's range is its [min, max] (empty when every value is NULL), a constant is
 * a point, and arithmetic and casts get interval arithmetic where it is exact or monotone (BIGINT with overflow
 * checks, DOUBLE only over finite bounds and with a divisor range that excludes zero); anything else is an unbounded
 * range, so the answer degrades to "might match". When a column's complete set of distinct values is known,
 * comparisons, IN and LIKE against constants are decided exactly on that set. LIKE uses its literal prefix: every
 * match of {@code 'abc%'} lies in the range of strings starting with {@code abc}.
 *
 * <p>Immutable and thread-safe.
 */
final class StatisticsEvaluator {
    private static final double MAX_FINITE = Double.MAX_VALUE;

    private final Expression root;
    private final MetadataSchema schema;
    /** Node types from binding; read-only after construction. */
    private final Map<Expression, ColumnType> types;
    private final Map<Expression, Integer> columns;

    /** Whether a predicate can be TRUE for some row, and whether it can be FALSE for some row. */
    private record Truth(boolean canBeTrue, boolean canBeFalse) {
        static final Truth NEVER = new Truth(false, false);
        static final Truth UNKNOWN = new Truth(true, true);

        Truth negate() {
            return new Truth(canBeFalse, canBeTrue);
        }

        Truth and(Truth other) {
            return new Truth(canBeTrue && other.canBeTrue, canBeFalse && other.canBeFalse);
        }
    }

    /**
     * Bounds on the non-null values of an expression over the group; null bounds are unbounded. {@code empty}
     * means every value is NULL, so no comparison with it can be TRUE or FALSE.
     */
    private record Range(boolean empty, Object lo, Object hi) {
        static final Range EMPTY = new Range(true, null, null);
        static final Range UNKNOWN = new Range(false, null, null);

        static Range point(Object value) {
            return new Range(false, value, value);
        }

        boolean isPoint() {
            return !empty && lo != null && hi != null && Scalars.compare(lo, hi) == 0;
        }
    }

    /** The statistics of one group, by column position. */
    private record Group(long rowCount, ColumnStatistics[] columns) {
    }

    StatisticsEvaluator(Expression root, Binder binder) {
        this.root = root;
        this.schema = binder.schema();
        Map<Expression, ColumnType> typeMap = new IdentityHashMap<>();
        Map<Expression, Integer> columnMap = new IdentityHashMap<>();
        root.accept(new ExpressionVisitor.Walker() {
            @Override
            public Void visitColumn(ColumnRef column) {
                columnMap.put(column, binder.columnIndex(column));
                typeMap.put(column, binder.typeOf(column));
                return null;
            }

            @Override
            public Void visitArithmetic(Arithmetic arithmetic) {
                typeMap.put(arithmetic, binder.typeOf(arithmetic));
                return super.visitArithmetic(arithmetic);
            }

            @Override
            public Void visitNegate(Negate negate) {
                typeMap.put(negate, binder.typeOf(negate));
                return super.visitNegate(negate);
            }

            @Override
            public Void visitCast(Cast cast) {
                typeMap.put(cast, binder.typeOf(cast));
                return super.visitCast(cast);
            }
        });
        this.types = typeMap;
        this.columns = columnMap;
    }

    PruneResult prune(GroupStatistics statistics) {
        if (statistics.rowCount() == 0) {
            return PruneResult.ROWS_CANNOT_MATCH;
        }
        Group group = new Group(statistics.rowCount(), resolve(statistics));
        return truth(root, group).canBeTrue() ? PruneResult.ROWS_MIGHT_MATCH : PruneResult.ROWS_CANNOT_MATCH;
    }

    private ColumnStatistics[] resolve(GroupStatistics statistics) {
        ColumnStatistics[] byIndex = new ColumnStatistics[schema.size()];
        String[] keys = new String[schema.size()];
        for (Map.Entry<String, ColumnStatistics> entry : statistics.columns().entrySet()) {
            OptionalInt index = schema.indexOf(entry.getKey());
            if (index.isEmpty()) {
                continue; // Statistics of columns the predicate language does not see (a blob column, say).
            }
            int i = index.getAsInt();
            Column column = schema.columns().get(i);
            if (keys[i] != null) {
                throw new PredicateException("Invalid statistics: column '" + column.name() + "' is listed twice,"
                        + " as '" + keys[i] + "' and as '" + entry.getKey() + "'");
            }
            keys[i] = entry.getKey();
            ColumnStatistics stats = entry.getValue();
            checkType(column, stats.min());
            if (stats.distinctValues() != null) {
                for (Object value : stats.distinctValues()) {
                    checkType(column, value);
                }
            }
            byIndex[i] = stats;
        }
        return byIndex;
    }

    private static void checkType(Column column, Object value) {
        if (value != null && !column.type().javaType().isInstance(value)) {
            throw new PredicateException("Invalid statistics: column '" + column.name() + "' is " + column.type()
                    + " but its statistics hold " + Scalars.describe(value));
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Predicates

    private Truth truth(Expression e, Group g) {
        if (e instanceof Literal l) {
            boolean b = (Boolean) l.value();
            return new Truth(b, !b);
        } else if (e instanceof Not not) {
            return truth(not.operand(), g).negate();
        } else if (e instanceof And and) {
            boolean canBeTrue = true;
            boolean canBeFalse = false;
            for (Expression operand : and.operands()) {
                Truth t = truth(operand, g);
                canBeTrue &= t.canBeTrue();
                canBeFalse |= t.canBeFalse();
            }
            return new Truth(canBeTrue, canBeFalse);
        } else if (e instanceof Or or) {
            boolean canBeTrue = false;
            boolean canBeFalse = true;
            for (Expression operand : or.operands()) {
                Truth t = truth(operand, g);
                canBeTrue |= t.canBeTrue();
                canBeFalse &= t.canBeFalse();
            }
            return new Truth(canBeTrue, canBeFalse);
        } else if (e instanceof ColumnRef column) {
            return booleanColumn(column, g);
        } else if (e instanceof Comparison c) {
            return comparison(c, g);
        } else if (e instanceof In in) {
            return in(in, g);
        } else if (e instanceof Like like) {
            return like(like, g);
        } else if (e instanceof IsNull isNull) {
            return isNull(isNull, g);
        }
        return Truth.UNKNOWN;
    }

    private Truth booleanColumn(ColumnRef column, Group g) {
        ColumnStatistics stats = g.columns()[columns.get(column)];
        Set<?> distinct = stats == null ? null : stats.distinctValues();
        if (distinct != null) {
            return new Truth(distinct.contains(Boolean.TRUE), distinct.contains(Boolean.FALSE));
        }
        Range r = range(column, g);
        if (r.empty()) {
            return Truth.NEVER;
        }
        return new Truth(r.hi() == null || (Boolean) r.hi(), r.lo() == null || !(Boolean) r.lo());
    }

    private Truth comparison(Comparison c, Group g) {
        Range l = range(c.left(), g);
        Range r = range(c.right(), g);
        if (l.empty() || r.empty()) {
            return Truth.NEVER;
        }
        ComparisonOperator op = c.operator();
        Truth t = new Truth(possible(op, l, r), possible(op.negate(), l, r));
        // Exact answers on a known dictionary: column op constant, either way round.
        if (c.left() instanceof ColumnRef column && c.right() instanceof Literal literal) {
            t = t.and(onDistinct(column, g, v -> op.test(Scalars.compare(v, literal.value()))));
        } else if (c.right() instanceof ColumnRef column && c.left() instanceof Literal literal) {
            t = t.and(onDistinct(column, g, v -> op.test(Scalars.compare(literal.value(), v))));
        }
        return t;
    }

    private Truth in(In in, Group g) {
        Range r = range(in.operand(), g);
        if (r.empty()) {
            return Truth.NEVER;
        }
        boolean anyInRange = false;
        boolean pointInList = false;
        for (Literal value : in.values()) {
            Object v = value.value();
            anyInRange |= (r.lo() == null || Scalars.compare(r.lo(), v) <= 0)
                    && (r.hi() == null || Scalars.compare(v, r.hi()) <= 0);
            pointInList |= r.isPoint() && Scalars.compare(r.lo(), v) == 0;
        }
        Truth t = new Truth(anyInRange, !pointInList);
        if (in.operand() instanceof ColumnRef column) {
            t = t.and(onDistinct(column, g, v -> {
                for (Literal value : in.values()) {
                    if (Scalars.compare(v, value.value()) == 0) {
                        return true;
                    }
                }
                return false;
            }));
        }
        return in.negated() ? t.negate() : t;
    }

    private Truth like(Like like, Group g) {
        if (!(like.operand() instanceof ColumnRef column)) {
            return Truth.UNKNOWN;
        }
        Range r = range(column, g);
        if (r.empty()) {
            return Truth.NEVER;
        }
        LikePattern pattern = LikePattern.compile(like.pattern());
        String prefix = pattern.literalPrefix();
        String lo = (String) r.lo();
        String hi = (String) r.hi();
        // The strings starting with the prefix are one contiguous run in String.compareTo order; a match needs
        // [lo, hi] to reach into it: hi >= prefix, and lo either starts with the prefix or sorts before it.
        boolean canBeTrue = prefix.isEmpty()
                || ((hi == null || hi.compareTo(prefix) >= 0)
                && (lo == null || lo.startsWith(prefix) || lo.compareTo(prefix) <= 0));
        // If both bounds start with the prefix, so does every value between them; 'prefix%' then matches all.
        boolean allMatch = pattern.matchesEverything() || (pattern.isPrefixOnly() && lo != null && hi != null
                && lo.startsWith(prefix) && hi.startsWith(prefix));
        Truth t = new Truth(canBeTrue, !allMatch).and(onDistinct(column, g, v -> pattern.matches((String) v)));
        return like.negated() ? t.negate() : t;
    }

    private Truth isNull(IsNull isNull, Group g) {
        Truth t;
        if (isNull.operand() instanceof ColumnRef column) {
            ColumnStatistics stats = g.columns()[columns.get(column)];
            long nulls = stats == null ? ColumnStatistics.UNKNOWN_COUNT : stats.nullCount();
            boolean known = nulls != ColumnStatistics.UNKNOWN_COUNT;
            t = new Truth(!known || nulls > 0, !known || nulls < g.rowCount());
        } else {
            // Arithmetic may turn non-null inputs into NULL (overflow, division by zero), so only an operand that
            // is NULL everywhere is decided.
            t = range(isNull.operand(), g).empty() ? new Truth(true, false) : Truth.UNKNOWN;
        }
        return isNull.negated() ? t.negate() : t;
    }

    /** The answers of {@code test} over the column's distinct values, or UNKNOWN when they are not known. */
    private Truth onDistinct(ColumnRef column, Group g, java.util.function.Predicate<Object> test) {
        ColumnStatistics stats = g.columns()[columns.get(column)];
        if (stats == null || stats.distinctValues() == null) {
            return Truth.UNKNOWN;
        }
        boolean canBeTrue = false;
        boolean canBeFalse = false;
        for (Object value : stats.distinctValues()) {
            boolean result = test.test(value);
            canBeTrue |= result;
            canBeFalse |= !result;
            if (canBeTrue && canBeFalse) {
                break;
            }
        }
        return new Truth(canBeTrue, canBeFalse);
    }

    /** Whether some l in L and r in R satisfy {@code l op r} (pairs are treated as independent: sound). */
    private static boolean possible(ComparisonOperator op, Range l, Range r) {
        return switch (op) {
            case EQUAL -> lessOrEqualPossible(l, r) && lessOrEqualPossible(r, l);
            case NOT_EQUAL -> !(l.isPoint() && r.isPoint() && Scalars.compare(l.lo(), r.lo()) == 0);
            case LESS_THAN -> lessPossible(l, r);
            case LESS_THAN_OR_EQUAL -> lessOrEqualPossible(l, r);
            case GREATER_THAN -> lessPossible(r, l);
            case GREATER_THAN_OR_EQUAL -> lessOrEqualPossible(r, l);
        };
    }

    private static boolean lessPossible(Range l, Range r) {
        return l.lo() == null || r.hi() == null || Scalars.compare(l.lo(), r.hi()) < 0;
    }

    private static boolean lessOrEqualPossible(Range l, Range r) {
        return l.lo() == null || r.hi() == null || Scalars.compare(l.lo(), r.hi()) <= 0;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Value ranges

    private Range range(Expression e, Group g) {
        if (e instanceof Literal l) {
            return Range.point(l.value());
        } else if (e instanceof ColumnRef column) {
            return columnRange(column, g);
        } else if (e instanceof Arithmetic a) {
            return arithmetic(a, g);
        } else if (e instanceof Negate n) {
            return negate(n, g);
        } else if (e instanceof Cast c) {
            return cast(c, g);
        }
        // A predicate used as a value: FALSE..TRUE as far as it can be either.
        Truth t = truth(e, g);
        if (!t.canBeTrue() && !t.canBeFalse()) {
            return Range.EMPTY;
        }
        return new Range(false, !t.canBeFalse(), t.canBeTrue());
    }

    private Range columnRange(ColumnRef column, Group g) {
        ColumnStatistics stats = g.columns()[columns.get(column)];
        if (stats == null) {
            return Range.UNKNOWN;
        }
        if (stats.nullCount() == g.rowCount()) {
            return Range.EMPTY;
        }
        Set<?> distinct = stats.distinctValues();
        if (distinct != null) {
            if (distinct.isEmpty()) {
                return Range.EMPTY;
            }
            Object lo = null;
            Object hi = null;
            for (Object value : distinct) {
                lo = lo == null || Scalars.compare(value, lo) < 0 ? value : lo;
                hi = hi == null || Scalars.compare(value, hi) > 0 ? value : hi;
            }
            return new Range(false, lo, hi);
        }
        return new Range(false, stats.min(), stats.max());
    }

    private Range arithmetic(Arithmetic a, Group g) {
        Range l = range(a.left(), g);
        Range r = range(a.right(), g);
        if (l.empty() || r.empty()) {
            return Range.EMPTY;
        }
        if (types.get(a) == ColumnType.BIGINT) {
            return longArithmetic(a.operator(), l, r);
        }
        return doubleArithmetic(a.operator(), l, r);
    }

    /** Exact integer intervals; a bound that would overflow becomes unbounded (overflowing rows are NULL). */
    private static Range longArithmetic(ArithmeticOperator op, Range l, Range r) {
        Long l1 = (Long) l.lo();
        Long l2 = (Long) l.hi();
        Long r1 = (Long) r.lo();
        Long r2 = (Long) r.hi();
        return switch (op) {
            case ADD -> new Range(false, exact(ArithmeticOperator.ADD, l1, r1), exact(ArithmeticOperator.ADD, l2, r2));
            case SUBTRACT -> new Range(false, exact(ArithmeticOperator.SUBTRACT, l1, r2),
                    exact(ArithmeticOperator.SUBTRACT, l2, r1));
            case MULTIPLY -> {
                if (l1 == null || l2 == null || r1 == null || r2 == null) {
                    yield Range.UNKNOWN;
                }
                Object[] corners = {
                        Scalars.arithmetic(op, l1, r1), Scalars.arithmetic(op, l1, r2),
                        Scalars.arithmetic(op, l2, r1), Scalars.arithmetic(op, l2, r2)};
                long lo = Long.MAX_VALUE;
                long hi = Long.MIN_VALUE;
                for (Object corner : corners) {
                    if (corner == null) {
                        yield Range.UNKNOWN;
                    }
                    lo = Math.min(lo, (Long) corner);
                    hi = Math.max(hi, (Long) corner);
                }
                yield new Range(false, lo, hi);
            }
            case DIVIDE -> throw new IllegalStateException("division is DOUBLE");
        };
    }

    private static Long exact(ArithmeticOperator op, Long a, Long b) {
        return a == null || b == null ? null : (Long) Scalars.arithmetic(op, a, b);
    }

    /**
     * Interval arithmetic on doubles. Correctly rounded IEEE operations are monotone in each operand, so the
     * results of values inside the operand ranges lie between the extreme results at the corners. Only finite
     * bounds are used: with infinities, NaN results (greater than everything in our order) could escape the range.
     */
    private static Range doubleArithmetic(ArithmeticOperator op, Range l, Range r) {
        double[] a = finiteBounds(l);
        double[] b = finiteBounds(r);
        if (a == null || b == null) {
            return Range.UNKNOWN;
        }
        if (op == ArithmeticOperator.DIVIDE && !(b[0] > 0 || b[1] < 0)) {
            return Range.UNKNOWN; // The divisor range holds zero: quotients near it are unbounded.
        }
        double[] corners = switch (op) {
            case ADD -> new double[] {a[0] + b[0], a[1] + b[1]};
            case SUBTRACT -> new double[] {a[0] - b[1], a[1] - b[0]};
            case MULTIPLY -> new double[] {a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]};
            case DIVIDE -> new double[] {a[0] / b[0], a[0] / b[1], a[1] / b[0], a[1] / b[1]};
        };
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double corner : corners) {
            if (!(Math.abs(corner) <= MAX_FINITE)) {
                return Range.UNKNOWN; // Overflow to infinity, or NaN.
            }
            lo = Math.min(lo, corner);
            hi = Math.max(hi, corner);
        }
        return new Range(false, lo, hi);
    }

    /** Both bounds as finite doubles, or null if either is unbounded, infinite or NaN. */
    private static double[] finiteBounds(Range r) {
        if (r.lo() == null || r.hi() == null) {
            return null;
        }
        double lo = ((Number) r.lo()).doubleValue();
        double hi = ((Number) r.hi()).doubleValue();
        if (!(Math.abs(lo) <= MAX_FINITE) || !(Math.abs(hi) <= MAX_FINITE)) {
            return null;
        }
        return new double[] {lo, hi};
    }

    private Range negate(Negate n, Group g) {
        Range r = range(n.operand(), g);
        if (r.empty()) {
            return Range.EMPTY;
        }
        if (types.get(n) == ColumnType.BIGINT) {
            // -MIN overflows to NULL, so a MIN bound just becomes unbounded.
            Long lo = r.hi() == null || (Long) r.hi() == Long.MIN_VALUE ? null : -(Long) r.hi();
            Long hi = r.lo() == null || (Long) r.lo() == Long.MIN_VALUE ? null : -(Long) r.lo();
            return new Range(false, lo, hi);
        }
        double[] bounds = finiteBounds(r);
        return bounds == null ? Range.UNKNOWN : new Range(false, -bounds[1], -bounds[0]);
    }

    private Range cast(Cast c, Group g) {
        Range r = range(c.operand(), g);
        if (r.empty()) {
            return Range.EMPTY;
        }
        if (types.get(c.operand()) == c.type()) {
            return r;
        }
        if (c.type() == ColumnType.DOUBLE) {
            // BIGINT to DOUBLE rounds monotonically.
            return new Range(false, r.lo() == null ? null : ((Long) r.lo()).doubleValue(),
                    r.hi() == null ? null : ((Long) r.hi()).doubleValue());
        }
        // DOUBLE to BIGINT rounds monotonically; values outside the BIGINT range become NULL, so a bound that does
        // not fit is just unbounded.
        return new Range(false, bigintBound((Double) r.lo()), bigintBound((Double) r.hi()));
    }

    private static Long bigintBound(Double d) {
        return d == null || !Scalars.fitsBigint(d) ? null : (long) Scalars.roundHalfAwayFromZero(d);
    }
}
