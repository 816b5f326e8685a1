package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

/**
 * A reference to a metadata column by name or alias, resolved (ignoring case) when the expression is bound. Names
 * that are SQL keywords or are not plain identifiers print double-quoted: {@code "limit"}.
 *
 * <pre>{@code
 * ColumnRef label = Expressions.column("human_label"); // binds to the 'label' column of MetadataSchema.imageNet()
 * }</pre>
 *
 * @param name the column name or alias as written
 */
public record ColumnRef(String name) implements Expression {

    public ColumnRef {
        requireNonNull(name, "name is null");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("A column name cannot be empty");
        }
    }

    @Override
    public <R> R accept(ExpressionVisitor<R> visitor) {
        return visitor.visitColumn(this);
    }

    @Override
    public String toString() {
        return SqlPrinter.print(this);
    }
}
