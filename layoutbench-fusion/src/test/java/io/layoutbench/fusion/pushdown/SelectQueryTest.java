package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.PredicateParseException;
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
                new SelectItem.Aggregate(SelectStatement.Function.SUM, Optional.of("qty")),
                new SelectItem.Aggregate(SelectStatement.Function.MAX, Optional.of("note")),
                new SelectItem.Aggregate(SelectStatement.Function.AVG, Optional.of("price")));
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
                .hasMessageContaining("GROUP BY");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price FROM t WHERE qty <", SCHEMA))
                .isInstanceOf(PredicateParseException.class)
                .hasMessageContaining("at column 32: expected an expression but found end of input");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price + 1 FROM t", SCHEMA))
                .hasMessageContaining("at column 8: expected a column, '*' or an aggregate after SELECT but found"
                        + " price + 1");
    }

    @Test
    void groupByAndOrderByParseButPushdownRefusesThem() {
        assertThatThrownBy(() -> SelectQuery.parse("SELECT note, COUNT(*) FROM t GROUP BY note", SCHEMA))
                .isInstanceOf(PredicateException.class)
                .hasMessageStartingWith("GROUP BY is not supported by pushdown, which runs SELECT items FROM name"
                        + " [WHERE predicate] [LIMIT n]");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT note FROM t ORDER BY note DESC LIMIT 3", SCHEMA))
                .hasMessageStartingWith("ORDER BY is not supported by pushdown");
    }
}
