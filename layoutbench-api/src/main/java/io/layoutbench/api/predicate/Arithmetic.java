package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

/**
 * {@code left op right} for {@code + - * /}. BIGINT {@code + - *} BIGINT is BIGINT; anything with a DOUBLE, and
 * every {@code /}, is DOUBLE. At evaluation time a zero divisor or a BIGINT overflow yields NULL.
 *
 * <pre>{@code
 * Expression ratio = Expressions.divide(
 *         Expressions.cast(Expressions.column("width"), ColumnType.DOUBLE),
 *         Expressions.cast(Expressions.column("height"), ColumnType.DOUBLE));
 * }</pre>
 *
 * @param operator the operator
 * @param left     left operand
 * @param right    right operand; not both operands are literals (build with {@link Expressions}, which folds)
 */
public record Arithmetic(ArithmeticOperator operator, Expression left, Expression right) implements Expression {

    public Arithmetic {
        requireNonNull(operator, "operator is null");
        requireNonNull(left, "left is null");
        requireNonNull(right, "right is null");
        if (left instanceof Literal && right instanceof Literal) {
            throw new IllegalArgumentException("Constant arithmetic " + left + " " + operator.symbol() + " " + right
                    + " must be folded: build it with Expressions.arithmetic");
        }
        ExpressionDepth.check(operator.symbol(), left, right);
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitArithmetic(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
