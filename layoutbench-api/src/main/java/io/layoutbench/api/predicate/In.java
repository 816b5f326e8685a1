package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * {@code operand [NOT] IN (v1, v2, ...)} over a non-empty list of constants of the operand's type. NULL when the
 * operand is NULL (the list cannot hold NULL).
 *
 * <pre>{@code
 * Expression q5 = Expressions.in(Expressions.column("human_label"),
 *         "Old_English_sheepdog", "giant_panda", "water_buffalo");
 * }</pre>
 *
 * @param operand the tested value, not a literal
 * @param values  the constants, in the order written; at least one
 * @param negated true for {@code NOT IN}
 */
public record In(Expression operand, List<Literal> values, boolean negated) implements Expression {

    public In {
        requireNonNull(operand, "operand is null");
        values = List.copyOf(requireNonNull(values, "values is null"));
        if (values.isEmpty()) {
            throw new IllegalArgumentException("An IN list needs at least one value");
        }
        if (operand instanceof Literal) {
            throw new IllegalArgumentException("IN over literal " + operand
                    + " must be folded: build it with Expressions.in");
        }
        ExpressionDepth.check(negated ? "NOT IN" : "IN", operand);
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitIn(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
