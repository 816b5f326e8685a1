package io.layoutbench.api.predicate;

/**
 * The four arithmetic operators. {@code +}, {@code -} and {@code *} on two BIGINT operands give a BIGINT;
 * {@code /} always gives a DOUBLE, as in DuckDB (whose {@code /} is floating-point division; there is no integer
 * division operator here). See {@link Expressions} for overflow and division-by-zero rules.
 *
 * <pre>{@code
 * Expression kib = Expressions.arithmetic(ArithmeticOperator.MULTIPLY, Expressions.lit(500), Expressions.lit(1024));
 * // folded as built: kib.equals(Expressions.lit(512000))
 * }</pre>
 */
public enum ArithmeticOperator {
    /** {@code +} */
    ADD("+", 5),
    /** {@code -} */
    SUBTRACT("-", 5),
    /** {@code *} */
    MULTIPLY("*", 6),
    /** {@code /}: DOUBLE division; NULL when the divisor is zero at evaluation time. */
    DIVIDE("/", 6);

    private final String symbol;
    private final int precedence;

    ArithmeticOperator(String symbol, int precedence) {
        this.symbol = symbol;
        this.precedence = precedence;
    }

    /** The SQL spelling. */
    public String symbol() {
        return symbol;
    }

    /** Binding strength used by the printer and parser: multiplicative operators bind tighter than additive. */
    int precedence() {
        return precedence;
    }
}
