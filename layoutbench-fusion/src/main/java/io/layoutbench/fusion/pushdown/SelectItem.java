package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.predicate.SelectStatement;

import java.util.Locale;
import java.util.Optional;

/**
 * One entry of a {@link SelectQuery}'s SELECT list: a column, or an aggregate.
 *
 * <pre>{@code
 * SelectItem price = new SelectItem.ColumnItem("l_extendedprice");
 * SelectItem rows = new SelectItem.Aggregate(SelectStatement.Function.COUNT, Optional.empty());   // COUNT(*)
 * }</pre>
 */
public sealed interface SelectItem {

    /** How the item is printed and named in results: {@code l_quantity}, {@code SUM(l_quantity)}, {@code COUNT(*)}. */
    String label();

    /**
     * A column, as its values.
     *
     * @param column the column's name as the file spells it
     */
    record ColumnItem(String column) implements SelectItem {
        public ColumnItem {
            requireNonNull(column, "column is null");
        }

        @Override
        public String label() {
            return column;
        }
    }

    /**
     * An aggregate over the selected rows.
     *
     * @param function the function
     * @param column   its column; empty only for {@code COUNT(*)}
     */
    record Aggregate(SelectStatement.Function function, Optional<String> column) implements SelectItem {
        public Aggregate {
            requireNonNull(function, "function is null");
            requireNonNull(column, "column is null");
            if (column.isEmpty() && function != SelectStatement.Function.COUNT) {
                throw new IllegalArgumentException(function + "(*) is not an aggregate; only COUNT(*) is");
            }
        }

        @Override
        public String label() {
            return function.name().toUpperCase(Locale.ROOT) + "(" + column.orElse("*") + ")";
        }
    }
}
