package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.predicate.ColumnRef;
import io.layoutbench.api.predicate.Expression;
import io.layoutbench.api.predicate.Expressions;
import io.layoutbench.api.predicate.SelectStatement;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * One entry of a {@link SelectQuery}'s SELECT list: a column, or an aggregate.
 *
 * <pre>{@code
 * SelectItem price = new SelectItem.ColumnItem("l_extendedprice");
 * SelectItem rows = SelectItem.Aggregate.countStar();                                       // COUNT(*)
 * SelectItem qty = SelectItem.Aggregate.of(SelectStatement.Function.SUM, "l_quantity");    // SUM(l_quantity)
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
     * An aggregate over the selected rows, or over each group's rows with GROUP BY.
     *
     * <pre>{@code
     * new SelectItem.Aggregate(Function.SUM, Optional.of(Expressions.multiply(Expressions.column("l_extendedprice"),
     *         Expressions.column("l_discount"))));                       // SUM(l_extendedprice * l_discount)
     * }</pre>
     *
     * @param function the function
     * @param argument what it aggregates, columns spelled as the file spells them: a column, or arithmetic on
     *                 columns; empty only for {@code COUNT(*)}
     */
    record Aggregate(SelectStatement.Function function, Optional<Expression> argument) implements SelectItem {
        public Aggregate {
            requireNonNull(function, "function is null");
            requireNonNull(argument, "argument is null");
            if (argument.isEmpty() && function != SelectStatement.Function.COUNT) {
                throw new IllegalArgumentException(function + "(*) is not an aggregate; only COUNT(*) is");
            }
        }

        /** {@code function(column)}. */
        public static Aggregate of(SelectStatement.Function function, String column) {
            return new Aggregate(function, Optional.of(Expressions.column(requireNonNull(column, "column is null"))));
        }

        /** {@code COUNT(*)}. */
        public static Aggregate countStar() {
            return new Aggregate(SelectStatement.Function.COUNT, Optional.empty());
        }

        /**
         * The column aggregated, when the argument is one column: such an aggregate runs on the node holding the
         * column's chunk. Empty for {@code COUNT(*)} and for arithmetic, which the coordinator evaluates.
         */
        public Optional<String> column() {
            return argument.filter(a -> a instanceof ColumnRef).map(a -> ((ColumnRef) a).name());
        }

        /** The columns the argument reads; empty for {@code COUNT(*)}. */
        public Set<String> columns() {
            return argument.map(PushdownEngine::columnsOf).orElse(Set.of());
        }

        @Override
        public String label() {
            return function.name().toUpperCase(Locale.ROOT) + "(" + argument.map(Expression::toString).orElse("*")
                    + ")";
        }
    }
}
