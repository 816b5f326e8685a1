package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Disjunction of two or more predicates, flattened and without boolean literal operands. Three-valued: TRUE if any
 * operand is TRUE, else NULL if any is NULL, else FALSE.
 *
 * <pre>{@code
 * Expression either = Expressions.or(
 *         Expressions.equal(Expressions.column("label"), Expressions.lit("canoe")),
 *         Expressions.equal(Expressions.column("label"), Expressions.lit("starfish")));
 * }</pre>
 *
 * @param operands the disjuncts in the order written; at least two, none an {@code Or} or a boolean literal
 */
public record Or(List<Expression> operands) implements Expression {

    public Or {
        operands = Junctions.checkOperands("OR", requireNonNull(operands, "operands is null"), Or.class);
        ExpressionDepth.check("OR", operands);
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitOr(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
