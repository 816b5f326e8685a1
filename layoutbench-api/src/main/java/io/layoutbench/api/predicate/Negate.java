package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

/**
 * Unary minus, {@code -operand}. Negating the smallest BIGINT overflows and yields NULL at evaluation time.
 *
 * <pre>{@code
 * Expression minusWidth = Expressions.negate(Expressions.column("width")); // prints -width
 * }</pre>
 *
 * @param operand a numeric expression, not a literal (negative literals are folded)
 */
public record Negate(Expression operand) implements Expression {

    public Negate {
        requireNonNull(operand, "operand is null");
        if (operand instanceof Literal) {
            throw new IllegalArgumentException("Negation of literal " + operand
                    + " must be folded: build it with Expressions.negate");
        }
        ExpressionDepth.check("unary -", operand);
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitNegate(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
