package io.layoutbench.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ColumnarTableTest {
    private static final MetadataSchema SCHEMA = MetadataSchema.imageNet()
            .with(new Column("score", ColumnType.DOUBLE))
            .with(new Column("flagged", ColumnType.BOOLEAN));

    @Test
    void rowsRoundTripThroughColumns() {
        List<MetadataRow> rows = List.of(
                row("a.jpg", "tench", 10L, 500L, 375L, 0.5, true),
                row("b.jpg", null, null, 300L, null, Double.NaN, null),
                row("c.jpg", "tench", 30L, 100L, 90L, -1.0, false));
        ColumnarTable table = ColumnarTable.of(SCHEMA, rows);
        assertThat(table.rowCount()).isEqualTo(3);
        for (int r = 0; r < rows.size(); r++) {
            assertThat(table.row(r)).isEqualTo(rows.get(r));
        }
        assertThat(table.getString(1, 0)).isEqualTo("tench");
        assertThat(table.getString(1, 1)).isNull();
        assertThat(table.getLong(3, 2)).isEqualTo(100L);
        assertThat(table.getDouble(5, 0)).isEqualTo(0.5);
        assertThat(table.getBoolean(6, 2)).isFalse();
        assertThat(table.isNull(2, 1)).isTrue();
        assertThat(table.dictionarySize(1)).as("strings are dictionary-encoded").isEqualTo(1);
        assertThat(table.columnIndex("human_label")).isEqualTo(1);
        assertThatThrownBy(() -> table.getLong(2, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessage("Column 'filesize_bytes' is NULL at row 1");
        assertThatThrownBy(() -> table.getLong(1, 0)).hasMessage("Column 'label' is STRING, not BIGINT");
        assertThatThrownBy(() -> table.get(0, 3)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("Row 3 is outside a table of 3 rows");
    }

    @Test
    void builderTypeChecksAndWidensValues() {
        ColumnarTable.Builder builder = ColumnarTable.builder(MetadataSchema.imageNet());
        builder.add("a.jpg", "tench", 1, 2, 3);
        assertThat(builder.build().getLong(2, 0)).isEqualTo(1L);
        assertThatThrownBy(() -> builder.add("a.jpg", "tench", "big", 2L, 3L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Column 'filesize_bytes' is BIGINT but the value big is a String");
        assertThatThrownBy(() -> builder.add("a.jpg")).hasMessageStartingWith("Expected 5 values for columns");
        assertThatThrownBy(() -> builder.add(row("a", "b", 1L, 2L, 3L, 1.0, true)))
                .hasMessageStartingWith("Row has columns [filename, label (human_label), filesize_bytes, width,"
                        + " height, score, flagged] but the table has");
        // build() copies: the builder keeps going.
        builder.add("b.jpg", null, null, null, null);
        assertThat(builder.build().rowCount()).isEqualTo(2);
    }

    @Test
    void growsPastItsInitialCapacityWithNullsAnywhere() {
        ColumnarTable.Builder builder = ColumnarTable.builder(SCHEMA, 1);
        for (int i = 0; i < 5_000; i++) {
            boolean nul = i % 97 == 0 || i == 4_999;
            builder.add("f" + i, nul ? null : "l" + (i % 10), nul ? null : (long) i, (long) i, (long) i,
                    nul ? null : i / 2.0, nul ? null : i % 2 == 0);
        }
        ColumnarTable table = builder.build();
        assertThat(table.rowCount()).isEqualTo(5_000);
        assertThat(table.isNull(2, 4_999)).isTrue();
        assertThat(table.isNull(2, 4_998)).isFalse();
        assertThat(table.getLong(2, 4_998)).isEqualTo(4_998L);
        assertThat(table.dictionarySize(0)).isEqualTo(5_000);
        assertThat(table.dictionarySize(1)).isEqualTo(10);
        assertThat(table.estimatedSizeBytes()).isBetween(5_000L * (4 + 4 + 8 * 4 + 1), 5_000L * 150);
    }

    @Test
    void statisticsAreExactForTheRange() {
        ColumnarTable table = ColumnarTable.of(SCHEMA, List.of(
                row("a.jpg", "tench", 10L, 500L, 375L, 0.5, true),
                row("b.jpg", null, null, 300L, null, Double.NaN, null),
                row("c.jpg", "bagel", 30L, 100L, 90L, -1.0, false),
                row("d.jpg", null, null, null, null, null, null)));
        GroupStatistics all = table.statistics(0, 4);
        assertThat(all.rowCount()).isEqualTo(4);
        assertThat(all.columns().get("label"))
                .isEqualTo(new ColumnStatistics("bagel", "tench", 2, Set.of("bagel", "tench")));
        assertThat(all.columns().get("filesize_bytes")).isEqualTo(ColumnStatistics.of(10L, 30L, 2));
        assertThat(all.columns().get("score")).as("NaN is the largest DOUBLE")
                .isEqualTo(ColumnStatistics.of(-1.0, Double.NaN, 1));
        assertThat(all.columns().get("flagged")).isEqualTo(ColumnStatistics.of(false, true, 2));
        GroupStatistics last = table.statistics(3, 4);
        assertThat(last.columns().get("width")).isEqualTo(ColumnStatistics.of(null, null, 1));
        assertThat(table.statistics(1, 1).rowCount()).isZero();
        assertThatThrownBy(() -> table.statistics(2, 5)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void statisticsValidateTheirInvariants() {
        assertThatThrownBy(() -> ColumnStatistics.of(5L, 1L, 0)).hasMessage("min 5 is greater than max 1");
        assertThatThrownBy(() -> ColumnStatistics.of(5L, null, 0))
                .hasMessage("min and max must both be known or both unknown but got min=5, max=null");
        assertThatThrownBy(() -> ColumnStatistics.of(1L, "a", 0)).hasMessageContaining("have different types");
        assertThatThrownBy(() -> new GroupStatistics(2, Map.of("a", ColumnStatistics.of(null, null, 3))))
                .hasMessage("Column 'a' has 3 NULLs in a group of 2 rows");
        assertThat(ColumnStatistics.of(1, 2, 0)).isEqualTo(ColumnStatistics.of(1L, 2L, 0));
    }

    @Test
    void selectionIsAnAscendingIdList() {
        Selection s = Selection.of(1, 4, 9);
        assertThat(s.size()).isEqualTo(3);
        assertThat(s.get(1)).isEqualTo(4);
        assertThat(s.toArray()).containsExactly(1, 4, 9);
        assertThat(s.limit(2)).isEqualTo(Selection.of(1, 4));
        assertThat(s.limit(10)).isSameAs(s);
        assertThat(s).hasToString("Selection[3 rows: 1, 4, 9]");
        assertThat(Selection.range(2, 5)).isEqualTo(Selection.of(2, 3, 4));
        assertThat(Selection.empty().isEmpty()).isTrue();
        assertThatThrownBy(() -> Selection.of(3, 3)).hasMessage("Row ids must be non-negative and strictly"
                + " ascending but position 1 holds 3 after 3");
        assertThatThrownBy(() -> s.get(3)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    private static MetadataRow row(Object... values) {
        return new MetadataRow(values.length == 5 ? MetadataSchema.imageNet() : SCHEMA, Arrays.asList(values));
    }
}
