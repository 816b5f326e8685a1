package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

/**
 * {@code left op right} for {@code = <> < <= > >=}: two numbers (a BIGINT compared with a DOUBLE is converted to
 * DOUBLE, as in DuckDB), two strings (by {@link String#compareTo}), or two booleans ({@code FALSE < TRUE}). NULL if
 * either side is NULL. DOUBLE values are ordered like PostgreSQL and DuckDB: {@code -0.0 = 0.0}, and NaN equals
 * itself and is greater than every other value.
 *
 * <pre>{@code
 * Expression big = Expressions.greaterThanOrEqual(Expressions.column("filesize_bytes"),
 *         Expressions.multiply(Expressions.lit(500), Expressions.lit(1024))); // filesize_bytes >= 512000
 * }</pre>
 *
 * @param operator the comparison
 * @param left     left operand
 * @param right    right operand; not both operands are literals
 */
public record Comparison(ComparisonOperator operator, Expression left, Expression right) implements Expression {

    public Comparison {
        requireNonNull(operator, "operator is null");
        requireNonNull(left, "left is null");
        requireNonNull(right, "right is null");
        if (left instanceof Literal && right instanceof Literal) {
            throw new IllegalArgumentException("Constant comparison " + left + " " + operator.symbol() + " " + right
                    + " must be folded: build it with Expressions.comparison");
        }
        ExpressionDepth.check(operator.symbol(), left, right);
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitComparison(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
