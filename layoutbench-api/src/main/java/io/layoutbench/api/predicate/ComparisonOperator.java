package io.layoutbench.api.predicate;

/**
 * The six SQL comparison operators. {@code !=} is accepted by the parser as a spelling of {@link #NOT_EQUAL} and
 * printed as {@code <>}.
 *
 * <pre>{@code
 * Expression wide = Expressions.comparison(ComparisonOperator.GREATER_THAN, Expressions.column("width"),
 *         Expressions.lit(1024));
 * }</pre>
 */
public enum ComparisonOperator {
    /** {@code =} */
    EQUAL("="),
    /** {@code <>} (also {@code !=}) */
    NOT_EQUAL("<>"),
    /** {@code <} */
    LESS_THAN("<"),
    /** {@code <=} */
    LESS_THAN_OR_EQUAL("<="),
    /** {@code >} */
    GREATER_THAN(">"),
    /** {@code >=} */
    GREATER_THAN_OR_EQUAL(">=");

    private final String symbol;

    ComparisonOperator(String symbol) {
        this.symbol = symbol;
    }

    /** The SQL spelling, as printed. */
    public String symbol() {
        return symbol;
    }

    /**
     * The operator whose result is the logical negation of this one for non-null operands ({@code <} gives
     * {@code >=}). With NULL operands both sides are NULL, so {@code NOT (a < b)} equals {@code a >= b} in
     * three-valued logic too.
     */
    public ComparisonOperator negate() {
        return switch (this) {
            case EQUAL -> NOT_EQUAL;
            case NOT_EQUAL -> EQUAL;
            case LESS_THAN -> GREATER_THAN_OR_EQUAL;
            case LESS_THAN_OR_EQUAL -> GREATER_THAN;
            case GREATER_THAN -> LESS_THAN_OR_EQUAL;
            case GREATER_THAN_OR_EQUAL -> LESS_THAN;
        };
    }

    /** The operator that gives the same result with the operands swapped ({@code a < b} is {@code b > a}). */
    public ComparisonOperator flip() {
        return switch (this) {
            case EQUAL, NOT_EQUAL -> this;
            case LESS_THAN -> GREATER_THAN;
            case LESS_THAN_OR_EQUAL -> GREATER_THAN_OR_EQUAL;
            case GREATER_THAN -> LESS_THAN;
            case GREATER_THAN_OR_EQUAL -> LESS_THAN_OR_EQUAL;
        };
    }

    /** Whether a three-way comparison result ({@code <0}, {@code 0}, {@code >0}) satisfies this operator. */
    public boolean test(int comparison) {
        return switch (this) {
            case EQUAL -> comparison == 0;
            case NOT_EQUAL -> comparison != 0;
            case LESS_THAN -> comparison < 0;
            case LESS_THAN_OR_EQUAL -> comparison <= 0;
            case GREATER_THAN -> comparison > 0;
            case GREATER_THAN_OR_EQUAL -> comparison >= 0;
        };
    }
}
