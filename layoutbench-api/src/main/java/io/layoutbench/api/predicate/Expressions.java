package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.predicate.TypeRules.Kind;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Factories for {@link Expression}s. They simplify as they build, so equal predicates have equal trees and
 * {@code toString()} re-parses to the same tree:
 * <ul>
 *   <li>constants fold: {@code 500 * 1024} is {@code 512000}, {@code 1 < 2} is {@code TRUE},
 *       {@code CAST(3 AS DOUBLE)} is {@code 3.0}; {@code + - *} with a DOUBLE literal fold on the decimals the
 *       literals are written as, rounded once, as DuckDB's DECIMAL literals do: {@code .06 - 0.01} is
 *       {@code 0.05};</li>
 *   <li>boolean literals vanish from AND/OR ({@code and(x, alwaysFalse())} is {@code alwaysFalse()},
 *       {@code and(x, alwaysTrue())} is {@code x}), nested AND/OR flatten, and {@code not(not(x))} is
 *       {@code x} (valid in three-valued logic: NOT NOT NULL is NULL).</li>
 * </ul>
 *
 * <p>Literal operands are type-checked at once ({@code 'a' + 1} throws); column types are checked by
 * {@link Expression#bind}. Simplification may drop an operand before it is bound, so
 * {@code and(column("width"), alwaysFalse())} is {@code FALSE} without complaint about {@code width} not being a
 * BOOLEAN; the parser checks operand types before simplifying when it is given a schema.
 *
 * <p>Semantics, following DuckDB unless noted: BIGINT {@code + - *} BIGINT is BIGINT, every {@code /} is DOUBLE
 * division; a BIGINT compared with a DOUBLE is converted to DOUBLE. Dividing by a zero <em>literal</em> or folding
 * a constant that overflows BIGINT (or is not a finite DOUBLE) throws {@link PredicateException} when built; at
 * evaluation time (where DuckDB would raise an error) a zero divisor, a BIGINT overflow, or a CAST out of BIGINT
 * range yields NULL, so evaluation never fails on data. All factories throw {@link PredicateException} on type
 * errors and on a tree deeper than {@link Query#MAX_DEPTH} (the parser's limit, which every node checks), and
 * {@link NullPointerException} on null arguments.
 *
 * <pre>{@code
 * import static io.layoutbench.api.predicate.Expressions.*;
 *
 * Expression q10 = and(equal(column("human_label"), lit("tiger_cat")),
 *                      lessThan(column("filesize_bytes"), multiply(lit(100), lit(1024))));
 * q10.toString(); // human_label = 'tiger_cat' AND filesize_bytes < 102400
 * }</pre>
 */
public final class Expressions {
    private static final Literal TRUE = new Literal(Boolean.TRUE);
    private static final Literal FALSE = new Literal(Boolean.FALSE);

    private Expressions() {
    }

    /** A reference to the column named {@code name} (or an alias of it), resolved when bound. */
    public static ColumnRef column(String name) {
        return new ColumnRef(name);
    }

    /** A BIGINT literal. */
    public static Literal lit(long value) {
        return new Literal(value);
    }

    /** A DOUBLE literal; must be finite. */
    public static Literal lit(double value) {
        return new Literal(value);
    }

    /** A STRING literal. */
    public static Literal lit(String value) {
        return new Literal(value);
    }

    /** A BOOLEAN literal: {@link #alwaysTrue()} or {@link #alwaysFalse()}. */
    public static Literal lit(boolean value) {
        return value ? TRUE : FALSE;
    }

    /** The predicate that every row satisfies. */
    public static Literal alwaysTrue() {
        return TRUE;
    }

    /** The predicate that no row satisfies. */
    public static Literal alwaysFalse() {
        return FALSE;
    }

    /** {@code left + right}. */
    public static Expression add(Expression left, Expression right) {
        return arithmetic(ArithmeticOperator.ADD, left, right);
    }

    /** {@code left - right}. */
    public static Expression subtract(Expression left, Expression right) {
        return arithmetic(ArithmeticOperator.SUBTRACT, left, right);
    }

    /** {@code left * right}. */
    public static Expression multiply(Expression left, Expression right) {
        return arithmetic(ArithmeticOperator.MULTIPLY, left, right);
    }

    /** {@code left / right}, a DOUBLE; throws if {@code right} is a zero literal. */
    public static Expression divide(Expression left, Expression right) {
        return arithmetic(ArithmeticOperator.DIVIDE, left, right);
    }

    /** {@code left op right}, folded when both operands are literals. */
    public static Expression arithmetic(ArithmeticOperator op, Expression left, Expression right) {
        requireNonNull(op, "op is null");
        requireNonNull(left, "left is null");
        requireNonNull(right, "right is null");
        TypeRules.arithmetic(op, left, kindOf(left), right, kindOf(right));
        if (op == ArithmeticOperator.DIVIDE && right instanceof Literal divisor && Scalars.isZero(divisor.value())) {
            throw new PredicateException("Division by zero: " + TypeRules.excerpt(left) + " / " + divisor
                    + " divides by a zero literal (a divisor that is zero only at evaluation time yields NULL)");
        }
        if (left instanceof Literal l && right instanceof Literal r) {
            Object value = fold(op, l.value(), r.value());
            String text = l + " " + op.symbol() + " " + r;
            if (value == null) {
                throw new PredicateException("BIGINT overflow: " + text + " does not fit in a BIGINT");
            }
            return finite(value, text);
        }
        return new Arithmetic(op, left, right);
    }

    /**
     * {@code a op b} for two literals. A DOUBLE literal is written as a decimal ({@code .06}), and DuckDB reads it
     * as one, so {@code + - *} on DOUBLE literals are folded on the decimals they print as and rounded once:
     * {@code .06 - 0.01} is {@code 0.05}, where double arithmetic gives 0.049999999999999996 and TPC-H Q6's
     * {@code BETWEEN .06 - 0.01 AND .06 + 0.01} would drop its bounds. Division stays DOUBLE division, as in DuckDB;
     * BIGINT {@code + - *} BIGINT stays exact BIGINT arithmetic. Values of columns are not literals and compute in
     * doubles ({@link Scalars#arithmetic}).
     */
    private static Object fold(ArithmeticOperator op, Object a, Object b) {
        if (op == ArithmeticOperator.DIVIDE || (a instanceof Long && b instanceof Long)) {
            return Scalars.arithmetic(op, a, b);
        }
        // Literals are finite; valueOf(double) is the shortest decimal that reads back as the double: as written.
        BigDecimal l = a instanceof Long x ? BigDecimal.valueOf(x) : BigDecimal.valueOf((Double) a);
        BigDecimal r = b instanceof Long y ? BigDecimal.valueOf(y) : BigDecimal.valueOf((Double) b);
        return switch (op) {
            case ADD -> l.add(r).doubleValue();
            case SUBTRACT -> l.subtract(r).doubleValue();
            case MULTIPLY -> l.multiply(r).doubleValue();
            case DIVIDE -> throw new AssertionError("folded as doubles above");
        };
    }

    /** {@code -operand}. */
    public static Expression negate(Expression operand) {
        requireNonNull(operand, "operand is null");
        TypeRules.negate(operand, kindOf(operand));
        if (operand instanceof Literal l) {
            Object value = Scalars.negate(l.value());
            if (value == null) {
                throw new PredicateException("BIGINT overflow: -(" + l + ") does not fit in a BIGINT");
            }
            return new Literal(value);
        }
        return new Negate(operand);
    }

    /** {@code CAST(operand AS type)} where type is BIGINT or DOUBLE. */
    public static Expression cast(Expression operand, ColumnType type) {
        requireNonNull(operand, "operand is null");
        requireNonNull(type, "type is null");
        if (!type.isNumeric()) {
            throw new PredicateException("Unsupported CAST type: expected BIGINT or DOUBLE but found " + type);
        }
        TypeRules.cast(operand, kindOf(operand), type);
        if (operand instanceof Literal l) {
            Object value = Scalars.cast(l.value(), type);
            if (value == null) {
                throw new PredicateException("BIGINT overflow: CAST(" + l + " AS BIGINT) is outside the BIGINT range");
            }
            return new Literal(value);
        }
        return new Cast(operand, type);
    }

    /** {@code left = right}. */
    public static Expression equal(Expression left, Expression right) {
        return comparison(ComparisonOperator.EQUAL, left, right);
    }

    /** {@code left <> right}. */
    public static Expression notEqual(Expression left, Expression right) {
        return comparison(ComparisonOperator.NOT_EQUAL, left, right);
    }

    /** {@code left < right}. */
    public static Expression lessThan(Expression left, Expression right) {
        return comparison(ComparisonOperator.LESS_THAN, left, right);
    }

    /** {@code left <= right}. */
    public static Expression lessThanOrEqual(Expression left, Expression right) {
        return comparison(ComparisonOperator.LESS_THAN_OR_EQUAL, left, right);
    }

    /** {@code left > right}. */
    public static Expression greaterThan(Expression left, Expression right) {
        return comparison(ComparisonOperator.GREATER_THAN, left, right);
    }

    /** {@code left >= right}. */
    public static Expression greaterThanOrEqual(Expression left, Expression right) {
        return comparison(ComparisonOperator.GREATER_THAN_OR_EQUAL, left, right);
    }

    /** {@code left op right}, folded to TRUE or FALSE when both operands are literals. */
    public static Expression comparison(ComparisonOperator op, Expression left, Expression right) {
        requireNonNull(op, "op is null");
        requireNonNull(left, "left is null");
        requireNonNull(right, "right is null");
        TypeRules.comparison(op, left, kindOf(left), right, kindOf(right));
        if (left instanceof Literal l && right instanceof Literal r) {
            return lit(op.test(Scalars.compare(l.value(), r.value())));
        }
        return new Comparison(op, left, right);
    }

    /**
     * {@code operand IN (values...)}. Each value is a {@link Literal} or a Java value accepted by
     * {@link Literal#of(Object)}.
     */
    public static Expression in(Expression operand, Object... values) {
        return in(operand, Arrays.asList(requireNonNull(values, "values is null")));
    }

    /** {@code operand IN (values...)}. */
    public static Expression in(Expression operand, List<?> values) {
        return in(operand, values, false);
    }

    /** {@code operand NOT IN (values...)}. */
    public static Expression notIn(Expression operand, Object... values) {
        return notIn(operand, Arrays.asList(requireNonNull(values, "values is null")));
    }

    /** {@code operand NOT IN (values...)}. */
    public static Expression notIn(Expression operand, List<?> values) {
        return in(operand, values, true);
    }

    private static Expression in(Expression operand, List<?> values, boolean negated) {
        requireNonNull(operand, "operand is null");
        requireNonNull(values, "values is null");
        if (values.isEmpty()) {
            throw new PredicateException("Empty IN list: " + TypeRules.excerpt(operand)
                    + (negated ? " NOT IN ()" : " IN ()") + " needs at least one value");
        }
        List<Literal> literals = new ArrayList<>(values.size());
        for (Object value : values) {
            literals.add(Literal.of(requireNonNull(value, "IN list value is null: IN lists cannot hold NULL")));
        }
        TypeRules.in(operand, kindOf(operand), literals);
        if (operand instanceof Literal l) {
            boolean found = false;
            for (Literal value : literals) {
                found |= Scalars.compare(l.value(), value.value()) == 0;
            }
            return lit(found != negated);
        }
        return new In(operand, literals, negated);
    }

    /** {@code operand LIKE pattern}. */
    public static Expression like(Expression operand, String pattern) {
        return like(operand, pattern, false);
    }

    /** {@code operand NOT LIKE pattern}. */
    public static Expression notLike(Expression operand, String pattern) {
        return like(operand, pattern, true);
    }

    private static Expression like(Expression operand, String pattern, boolean negated) {
        requireNonNull(operand, "operand is null");
        requireNonNull(pattern, "pattern is null");
        TypeRules.like(operand, kindOf(operand));
        if (operand instanceof Literal l) {
            return lit(LikePattern.compile(pattern).matches((String) l.value()) != negated);
        }
        return new Like(operand, pattern, negated);
    }

    /** {@code operand IS NULL}. */
    public static Expression isNull(Expression operand) {
        return isNull(operand, false);
    }

    /** {@code operand IS NOT NULL}. */
    public static Expression isNotNull(Expression operand) {
        return isNull(operand, true);
    }

    private static Expression isNull(Expression operand, boolean negated) {
        requireNonNull(operand, "operand is null");
        if (operand instanceof Literal) {
            return lit(negated);
        }
        return new IsNull(operand, negated);
    }

    /** Conjunction; {@code and()} is TRUE, {@code and(x)} is x. */
    public static Expression and(Expression... operands) {
        return and(Arrays.asList(requireNonNull(operands, "operands is null")));
    }

    /** Conjunction; an empty list is TRUE, a single operand is itself. */
    public static Expression and(List<? extends Expression> operands) {
        return junction(operands, true);
    }

    /** Disjunction; {@code or()} is FALSE, {@code or(x)} is x. */
    public static Expression or(Expression... operands) {
        return or(Arrays.asList(requireNonNull(operands, "operands is null")));
    }

    /** Disjunction; an empty list is FALSE, a single operand is itself. */
    public static Expression or(List<? extends Expression> operands) {
        return junction(operands, false);
    }

    private static Expression junction(List<? extends Expression> operands, boolean isAnd) {
        requireNonNull(operands, "operands is null");
        String keyword = isAnd ? "AND" : "OR";
        for (Expression operand : operands) {
            requireNonNull(operand, keyword + " operand is null");
            TypeRules.requireBoolean(keyword + " needs BOOLEAN operands", operand, kindOf(operand));
        }
        // In AND, FALSE decides and TRUE is neutral; in OR the other way round.
        Literal decisive = lit(!isAnd);
        List<Expression> flat = new ArrayList<>(operands.size());
        for (Expression operand : operands) {
            if (operand.equals(decisive)) {
                return decisive;
            } else if (operand instanceof Literal) {
                continue;
            } else if (isAnd && operand instanceof And and) {
                flat.addAll(and.operands());
            } else if (!isAnd && operand instanceof Or or) {
                flat.addAll(or.operands());
            } else {
                flat.add(operand);
            }
        }
        if (flat.isEmpty()) {
            return lit(isAnd);
        } else if (flat.size() == 1) {
            return flat.get(0);
        }
        return isAnd ? new And(flat) : new Or(flat);
    }

    /** {@code NOT operand}; {@code not(not(x))} is x and {@code not(TRUE)} is FALSE. */
    public static Expression not(Expression operand) {
        requireNonNull(operand, "operand is null");
        TypeRules.requireBoolean("NOT needs a BOOLEAN operand", operand, kindOf(operand));
        if (operand instanceof Literal l) {
            return lit(!((Boolean) l.value()));
        } else if (operand instanceof Not not) {
            return not.operand();
        }
        return new Not(operand);
    }

    /** What is known about an unbound expression's type: columns are unknown, everything else is not. */
    static Kind kindOf(Expression e) {
        return kindOf(e, new IdentityHashMap<>());
    }

    /**
     * {@code known} remembers arithmetic nodes, so that a subtree shared by many parents ({@code x = add(x, x)},
     * repeated) is looked at once rather than once per path.
     */
    private static Kind kindOf(Expression e, Map<Expression, Kind> known) {
        if (e instanceof ColumnRef) {
            return Kind.UNKNOWN;
        } else if (e instanceof Literal l) {
            return Kind.of(l.type());
        } else if (e instanceof Arithmetic a) {
            if (a.operator() == ArithmeticOperator.DIVIDE) {
                return Kind.DOUBLE;
            }
            Kind kind = known.get(a);
            if (kind == null) {
                Kind l = kindOf(a.left(), known);
                Kind r = kindOf(a.right(), known);
                if (l == Kind.DOUBLE || r == Kind.DOUBLE) {
                    kind = Kind.DOUBLE;
                } else {
                    kind = l == Kind.BIGINT && r == Kind.BIGINT ? Kind.BIGINT : Kind.NUMERIC;
                }
                known.put(a, kind);
            }
            return kind;
        } else if (e instanceof Negate n) {
            Kind k = kindOf(n.operand(), known);
            return k == Kind.UNKNOWN ? Kind.NUMERIC : k;
        } else if (e instanceof Cast c) {
            return Kind.of(c.type());
        }
        return Kind.BOOLEAN;
    }

    private static Literal finite(Object value, String text) {
        if (value instanceof Double d && !Double.isFinite(d)) {
            throw new PredicateException("DOUBLE overflow: " + text + " is " + d + ", not a finite DOUBLE");
        }
        return new Literal(value);
    }
}
