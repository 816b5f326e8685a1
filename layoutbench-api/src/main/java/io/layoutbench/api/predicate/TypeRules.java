package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.ColumnType;

import java.util.List;

/**
 * The typing rules, written once and used twice: by {@link Expressions} on unbound expressions (where a column's
 * type is {@link Kind#UNKNOWN}, so only literal and operator mismatches show) and by the binder on bound ones.
 * Every failure is a {@link PredicateException} whose message starts with {@code "Type mismatch: "}.
 */
final class TypeRules {

    /** What is known about an expression's type. */
    enum Kind {
        BIGINT, DOUBLE, STRING, BOOLEAN,
        /** BIGINT or DOUBLE, not yet known which (arithmetic over an unbound column). */
        NUMERIC,
        /** Anything (an unbound column). */
        UNKNOWN;

        static Kind of(ColumnType type) {
            return switch (type) {
                case BIGINT -> BIGINT;
                case DOUBLE -> DOUBLE;
                case STRING -> STRING;
                case BOOLEAN -> BOOLEAN;
            };
        }

        boolean mayBeNumeric() {
            return this == BIGINT || this == DOUBLE || this == NUMERIC || this == UNKNOWN;
        }

        boolean mayBe(Kind other) {
            return this == other || this == UNKNOWN || (this == NUMERIC && (other == BIGINT || other == DOUBLE));
        }

        boolean isNumeric() {
            return this == BIGINT || this == DOUBLE || this == NUMERIC;
        }

        /** Whether values of the two kinds can be compared (numbers with numbers, strings with strings ...). */
        boolean comparableWith(Kind other) {
            if (this == UNKNOWN || other == UNKNOWN) {
                return true;
            }
            if (isNumeric() || other.isNumeric()) {
                return isNumeric() && other.isNumeric();
            }
            return this == other;
        }

        String display() {
            return switch (this) {
                case NUMERIC -> "numeric";
                case UNKNOWN -> "of unknown type";
                default -> name();
            };
        }
    }

    private static final int MAX_EXCERPT = 60;

    private TypeRules() {
    }

    /** Result kind of {@code left op right}. */
    static Kind arithmetic(ArithmeticOperator op, Expression left, Kind l, Expression right, Kind r) {
        requireNumeric("operator " + op.symbol() + " needs numeric operands", left, l);
        requireNumeric("operator " + op.symbol() + " needs numeric operands", right, r);
        if (op == ArithmeticOperator.DIVIDE || l == Kind.DOUBLE || r == Kind.DOUBLE) {
            return Kind.DOUBLE;
        }
        return l == Kind.BIGINT && r == Kind.BIGINT ? Kind.BIGINT : Kind.NUMERIC;
    }

    static Kind negate(Expression operand, Kind t) {
        requireNumeric("unary - needs a numeric operand", operand, t);
        return t == Kind.UNKNOWN ? Kind.NUMERIC : t;
    }

    static Kind cast(Expression operand, Kind t, ColumnType target) {
        if (!t.mayBeNumeric()) {
            throw mismatch("cannot CAST " + describe(operand, t) + " AS " + target
                    + ": expected a BIGINT or DOUBLE value but found " + t.display());
        }
        return Kind.of(target);
    }

    static void comparison(ComparisonOperator op, Expression left, Kind l, Expression right, Kind r) {
        if (!l.comparableWith(r)) {
            throw mismatch("cannot compare " + describe(left, l) + " with " + describe(right, r) + " using "
                    + op.symbol() + ": expected " + expectedPartner(l) + " but found " + r.display());
        }
    }

    static void in(Expression operand, Kind t, List<Literal> values) {
        Kind first = Kind.of(values.get(0).type());
        for (Literal value : values) {
            Kind k = Kind.of(value.type());
            if (!k.comparableWith(first)) {
                throw mismatch("IN list mixes " + first.display() + " and " + k.display() + " values: "
                        + values.get(0) + " and " + value);
            }
            if (!t.comparableWith(k)) {
                throw mismatch("IN list value " + value + " (" + k.display() + ") cannot match "
                        + describe(operand, t) + ": expected " + expectedPartner(t) + " but found " + k.display());
            }
        }
    }

    static void like(Expression operand, Kind t) {
        if (!t.mayBe(Kind.STRING)) {
            throw mismatch("LIKE needs a STRING operand but " + describe(operand, t)
                    + " is not: expected STRING but found " + t.display());
        }
    }

    /** AND, OR, NOT and the WHERE clause itself need booleans. */
    static void requireBoolean(String what, Expression operand, Kind t) {
        if (!t.mayBe(Kind.BOOLEAN)) {
            throw mismatch(what + " but " + describe(operand, t) + " is not: expected BOOLEAN but found "
                    + t.display());
        }
    }

    /** SUM and AVG add their argument up, so it must be a number; COUNT, MIN and MAX take any type. */
    static void aggregate(SelectStatement.Function function, Expression argument, Kind t) {
        if (function.needsNumbers() && !t.mayBeNumeric()) {
            throw mismatch(function + " needs a numeric column but " + excerpt(argument) + " is " + t.display());
        }
    }

    private static void requireNumeric(String what, Expression operand, Kind t) {
        if (!t.mayBeNumeric()) {
            throw mismatch(what + " but " + describe(operand, t) + " is not: expected BIGINT or DOUBLE but found "
                    + t.display());
        }
    }

    private static String expectedPartner(Kind t) {
        return t.isNumeric() ? "a numeric value" : "a " + t.display() + " value";
    }

    static String describe(Expression e, Kind t) {
        String text = excerpt(e);
        return t == Kind.UNKNOWN ? text : text + " (" + t.display() + ")";
    }

    /** The expression's SQL, shortened for error messages. */
    static String excerpt(Expression e) {
        String text = SqlPrinter.print(e, MAX_EXCERPT + 1);
        return text.length() <= MAX_EXCERPT ? text : text.substring(0, MAX_EXCERPT - 3) + "...";
    }

    static PredicateException mismatch(String detail) {
        return new PredicateException("Type mismatch: " + detail);
    }
}
