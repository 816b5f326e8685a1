package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

/**
 * {@code operand IS [NOT] NULL}; never NULL itself.
 *
 * <pre>{@code
 * Expression unknownSize = Expressions.isNull(Expressions.column("filesize_bytes"));
 * }</pre>
 *
 * @param operand the tested value, not a literal (literals are never NULL, so that case is folded)
 * @param negated true for {@code IS NOT NULL}
 */
public record IsNull(Expression operand, boolean negated) implements Expression {

    public IsNull {
        requireNonNull(operand, "operand is null");
        if (operand instanceof Literal) {
            throw new IllegalArgumentException("IS NULL over literal " + operand
                    + " must be folded: build it with Expressions.isNull");
        }
        ExpressionDepth.check(negated ? "IS NOT NULL" : "IS NULL", operand);
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitIsNull(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
