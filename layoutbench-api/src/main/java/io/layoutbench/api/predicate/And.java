package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Conjunction of two or more predicates, flattened ({@code a AND (b AND c)} is one {@code And} of three) and
 * without boolean literal operands. Three-valued: FALSE if any operand is FALSE, else NULL if any is NULL, else
 * TRUE.
 *
 * <pre>{@code
 * Expression q7 = Expressions.and(
 *         Expressions.greaterThanOrEqual(Expressions.column("width"), Expressions.lit(1024)),
 *         Expressions.greaterThanOrEqual(Expressions.column("height"), Expressions.lit(1024)));
 * }</pre>
 *
 * @param operands the conjuncts in the order written; at least two, none an {@code And} or a boolean literal
 */
public record And(List<Expression> operands) implements Expression {

    public And {
        operands = Junctions.checkOperands("AND", requireNonNull(operands, "operands is null"), And.class);
        ExpressionDepth.check("AND", operands);
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitAnd(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
