package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.PredicateException;

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
                new SelectItem.Aggregate(AggregateFunction.COUNT, Optional.empty()),
                new SelectItem.Aggregate(AggregateFunction.SUM, Optional.of("qty")),
                new SelectItem.Aggregate(AggregateFunction.MAX, Optional.of("note")),
                new SelectItem.Aggregate(AggregateFunction.AVG, Optional.of("price")));
        assertThat(aggregates.toString()).isEqualTo("SELECT COUNT(*), SUM(qty), MAX(note), AVG(price) FROM t");

        assertThat(SelectQuery.parse("SELECT * FROM t LIMIT 2", SCHEMA).items()).hasSize(3);
        assertThat(SelectQuery.parse("SELECT \"note\" FROM \"my table\"", SCHEMA).from()).isEqualTo("my table");
    }

    @Test
    void errorsSayWhatIsWrong() {
        assertThatThrownBy(() -> SelectQuery.parse("SELECT nope FROM t", SCHEMA))
                .isInstanceOf(PredicateException.class).hasMessageContaining("Unknown column 'nope'")
                .hasMessageContaining("price");
        assertThatThrownBy(() -> SelectQuery.parse("DELETE FROM t", SCHEMA)).hasMessageContaining("Expected SELECT");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price", SCHEMA)).hasMessageContaining("Expected FROM");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT FROM t", SCHEMA))
                .hasMessageContaining("Expected columns or aggregates");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price FROM a, b", SCHEMA))
                .hasMessageContaining("one object name");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT AVG(note) FROM t", SCHEMA))
                .hasMessageContaining("AVG needs a numeric column but note is STRING");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT SUM(*) FROM t", SCHEMA))
                .hasMessageContaining("SUM(*) is not an aggregate");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price, COUNT(*) FROM t", SCHEMA))
                .hasMessageContaining("GROUP BY");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price FROM t WHERE qty <", SCHEMA))
                .hasMessageContaining("WHERE clause");
        assertThatThrownBy(() -> SelectQuery.parse("SELECT price + 1 FROM t", SCHEMA))
                .hasMessageContaining("Expected a column");
    }
}
