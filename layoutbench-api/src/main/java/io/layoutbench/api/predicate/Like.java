package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

/**
 * {@code operand [NOT] LIKE 'pattern'}: {@code %} matches any run of characters, {@code _} exactly one (UTF-16)
 * character, everything else itself, case-sensitively. There is no escape character ({@code ESCAPE} is not
 * supported), so a pattern cannot match a literal {@code %} or {@code _} only. NULL when the operand is NULL.
 *
 * <pre>{@code
 * Expression q4 = Expressions.like(Expressions.column("human_label"), "%snake");
 * }</pre>
 *
 * @param operand a STRING expression, not a literal
 * @param pattern the pattern
 * @param negated true for {@code NOT LIKE}
 */
public record Like(Expression operand, String pattern, boolean negated) implements Expression {

    public Like {
        requireNonNull(operand, "operand is null");
        requireNonNull(pattern, "pattern is null");
        if (operand instanceof Literal) {
            throw new IllegalArgumentException("LIKE over literal " + operand
                    + " must be folded: build it with Expressions.like");
        }
        ExpressionDepth.check(negated ? "NOT LIKE" : "LIKE", operand);
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitLike(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
