package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.ColumnType;

/**
 * {@code CAST(operand AS BIGINT|DOUBLE)} of a numeric operand. DOUBLE to BIGINT rounds half away from zero (as
 * DuckDB does); a NaN or out-of-range value yields NULL at evaluation time.
 *
 * <pre>{@code
 * Expression w = Expressions.cast(Expressions.column("width"), ColumnType.DOUBLE); // CAST(width AS DOUBLE)
 * }</pre>
 *
 * @param operand the value to convert, not a literal (constant casts are folded)
 * @param type    {@link ColumnType#BIGINT} or {@link ColumnType#DOUBLE}
 */
public record Cast(Expression operand, ColumnType type) implements Expression {

    public Cast {
        requireNonNull(operand, "operand is null");
        requireNonNull(type, "type is null");
        if (!type.isNumeric()) {
            throw new IllegalArgumentException("CAST target must be BIGINT or DOUBLE but got " + type);
        }
        if (operand instanceof Literal) {
            throw new IllegalArgumentException("CAST of literal " + operand
                    + " must be folded: build it with Expressions.cast");
        }
        ExpressionDepth.check("CAST", operand);
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitCast(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
