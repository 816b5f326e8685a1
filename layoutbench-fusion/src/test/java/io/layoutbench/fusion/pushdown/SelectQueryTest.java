package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.Expressions;
import io.layoutbench.api.predicate.PredicateParseException;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.SelectStatement;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class SelectQueryTest {

    private static final MetadataSchema SCHEMA = new MetadataSchema(List.of(new Column("price", ColumnType.DOUBLE),
            new Column("qty", ColumnType.BIGINT), new Column("note", ColumnType.STRING)));

    @Test
    void parsesColumnsAggregatesWhereAndLimit() {
        SelectQuery q = SelectQuery.parse("select PRICE, qty from t where note = 'a, FROM b' and qty < 3 limit 5;",
                SCHEMA);
        assertThat(q.items()).containsExactly(new SelectItem.ColumnItem("price"), new SelectItem.ColumnItem("qty"));
        assertThat(q.from()).isEqualTo("t");
        assertThat(q.where().limit()).hasValue(5);
        assertThat(q.isAggregate()).isFalse();

        SelectQuery aggregates = SelectQuery.parse("SELECT COUNT(*), sum(qty), Max(note), AVG( price ) FROM t",
                SCHEMA);
        assertThat(aggregates.items()).containsExactly(
                new SelectItem.Aggregate(SelectStatement.Function.COUNT, Optional.empty()),
                SelectItem.Aggregate.of(SelectStatement.Function.SUM, "qty"),
                SelectItem.Aggregate.of(SelectStatement.Function.MAX, "note"),
                SelectItem.Aggregate.of(SelectStatement.Function.AVG, "price"));
        assertThat(aggregates.toString()).isEqualTo("SELECT COUNT(*), SUM(qty), MAX(note), AVG(price) FROM t");

        SelectQuery all = SelectQuery.parse("SELECT * FROM t LIMIT 2", SCHEMA);
        assertThat(all.items()).containsExactly(new SelectItem.ColumnItem("price"), new SelectItem.ColumnItem("qty"),
                new SelectItem.ColumnItem("note"));
        assertThat(all).hasToString("SELECT price, qty, note FROM t LIMIT 2");
        assertThat(SelectQuery.parse("SELECT \"note\" FROM \"my table\"", SCHEMA).from()).isEqualTo("my table");
    }

    @Test
    void errorsSayWhatIsWrong() {
        assertThatThrownBy(() -> SelectQuery.parse("SELECT nope FROM t", SCHEMA))
                .isInstanceOf(PredicateException.class)
                .hasMessageContaining("Unknown column at column 8: 'nope' is not a column of this dataset")
                .hasMessageContaining("price");
        assertThatThrownBy(() -> SelectQuery.parse("DELETE FROM t", SCHEMA))
                .hasMessageContaining("Syntax error at column 1: expected SELECT but found identifier DELETE");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price", SCHEMA))
                .hasMessageContaining("at column 13: expected ',' or FROM after the SELECT list but found end of input");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT FROM t", SCHEMA))
                .hasMessageContaining("at column 8: expected a column, '*' or an aggregate after SELECT but found"
                        + " keyword FROM");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price FROM a, b", SCHEMA))
                .hasMessageContaining("one object name");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT AVG(note) FROM t", SCHEMA))
                .hasMessageContaining("AVG needs a numeric column but note is STRING");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT SUM(*) FROM t", SCHEMA))
                .hasMessageContaining("at column 12: expected a column in SUM(...) but found '*'; only COUNT(*) counts"
                        + " rows");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price, COUNT(*) FROM t", SCHEMA))
                .hasMessageContaining("Ungrouped column at column 8: price is neither in GROUP BY nor inside an"
                        + " aggregate");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price FROM t WHERE qty <", SCHEMA))
                .isInstanceOf(PredicateParseException.class)
                .hasMessageContaining("at column 32: expected an expression but found end of input");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price + 1 FROM t", SCHEMA))
                .hasMessageContaining("at column 8: expected a column, '*' or an aggregate after SELECT but found"
                        + " price + 1");
    }

    @Test
    void groupByOrderByAndArithmeticInAggregates() {
        SelectQuery q = SelectQuery.parse("SELECT note, qty, COUNT(*), SUM(PRICE * (1 - qty)) FROM t WHERE qty > 0"
                + " GROUP BY Note, qty ORDER BY sum(price * (1 - QTY)) DESC, note LIMIT 3", SCHEMA);
        assertThat(q.groupBy()).containsExactly("note", "qty");
        assertThat(q.items().get(3)).isEqualTo(new SelectItem.Aggregate(SelectStatement.Function.SUM,
                Optional.of(Expressions.multiply(Expressions.column("price"), Expressions.subtract(Expressions.lit(1),
                        Expressions.column("qty"))))));
        assertThat(((SelectItem.Aggregate) q.items().get(3)).column()).isEmpty();
        assertThat(((SelectItem.Aggregate) q.items().get(3)).columns()).containsExactly("price", "qty");
        assertThat(q.orderBy()).containsExactly(new SelectQuery.SortKey(3, true), new SelectQuery.SortKey(0, false));
        assertThat(q.isAggregate()).isTrue();
        assertThat(q.isGrouped()).isTrue();
        assertThat(q).hasToString("SELECT note, qty, COUNT(*), SUM(price * (1 - qty)) FROM t WHERE qty > 0"
                + " GROUP BY note, qty ORDER BY SUM(price * (1 - qty)) DESC, note LIMIT 3");
        assertThat(SelectQuery.parse(q.toString(), SCHEMA)).isEqualTo(q);

        SelectQuery keysOnly = SelectQuery.parse("SELECT note FROM t GROUP BY note", SCHEMA);
        assertThat(keysOnly.isAggregate()).isTrue();
        SelectQuery ordered = SelectQuery.parse("SELECT price, note FROM t ORDER BY note DESC, price", SCHEMA);
        assertThat(ordered.isAggregate()).isFalse();
        assertThat(ordered.orderBy()).containsExactly(new SelectQuery.SortKey(1, true),
                new SelectQuery.SortKey(0, false));
    }

    @Test
    void groupingErrorsNameTheItemAndWhereItIs() {
        assertThatThrownBy(() -> SelectQuery.parse("SELECT note, COUNT(*) FROM t GROUP BY qty + 1", SCHEMA))
                .isInstanceOf(PredicateParseException.class)
                .hasMessageContaining("Unsupported expression at column 39: expected a column after GROUP BY but"
                        + " found qty + 1; only columns are supported here");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT note, price, SUM(qty) FROM t GROUP BY note", SCHEMA))
                .isInstanceOf(PredicateParseException.class)
                .hasMessageContaining("Ungrouped column at column 14: price is neither in GROUP BY nor inside an"
                        + " aggregate, as it must be since the rows are grouped by note");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT note, SUM(qty) FROM t GROUP BY note ORDER BY MAX(qty)",
                SCHEMA))
                .isInstanceOf(PredicateException.class)
                .hasMessageStartingWith("Unknown ORDER BY key MAX(qty) (ORDER BY key 1, at column 53): pushdown orders"
                        + " the result by the items of its SELECT list, which are note, SUM(qty)");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT note FROM t ORDER BY note, price DESC", SCHEMA))
                .hasMessageStartingWith("Unknown ORDER BY key price (ORDER BY key 2, at column 35)");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT SUM(2 * 3) FROM t", SCHEMA))
                .hasMessageContaining("at column 12: expected a column in SUM(...) but found 6, which reads no"
                        + " column");
        assertThatThrownBy(() -> new SelectQuery(List.of(new SelectItem.ColumnItem("price"),
                SelectItem.Aggregate.countStar()), "t", Query.of(Expressions.alwaysTrue()), List.of("note"), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Column price is selected with aggregates but is not a GROUP BY key (note): select only"
                        + " GROUP BY keys beside aggregates");
    }
}
