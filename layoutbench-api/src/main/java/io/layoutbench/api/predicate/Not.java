package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

/**
 * Negation of a predicate; NULL stays NULL. {@code NOT NOT x} and {@code NOT TRUE} are simplified away by
 * {@link Expressions#not}, so the operand is neither a {@code Not} nor a literal.
 *
 * <pre>{@code
 * Expression notSnake = Expressions.not(Expressions.like(Expressions.column("label"), "%snake"));
 * }</pre>
 *
 * @param operand the negated predicate
 */
public record Not(Expression operand) implements Expression {

    public Not {
        requireNonNull(operand, "operand is null");
        if (operand instanceof Not || operand instanceof Literal) {
            throw new IllegalArgumentException("NOT over " + operand + " must be simplified: build it with"
                    + " Expressions.not");
        }
        ExpressionDepth.check("NOT", operand);
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitNot(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
