package io.layoutbench.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The value semantics, checked through both the row evaluator and the columnar evaluator. */
class SemanticsTest {
    private static final MetadataSchema SCHEMA = MetadataSchema.imageNet()
            .with(new Column("score", ColumnType.DOUBLE))
            .with(new Column("flagged", ColumnType.BOOLEAN));

    // filename, label, filesize_bytes, width, height, score, flagged
    private static final List<MetadataRow> ROWS = List.of(
            row("r0.jpg", "king_snake", 100_000L, 3L, 2L, 1.5, true),
            row("r1.jpg", "lemon", null, 500L, 0L, -0.0, false),
            row("r2.jpg", null, Long.MAX_VALUE, null, 375L, Double.NaN, null),
            row("r3.jpg", "a_b", 0L, 7L, 7L, 0.0, true),
            row("r4.jpg", "snake", -5L, 2L, 4L, 2.5, false),
            row("r5.jpg", "abc", 9L, 5L, 2L, -2.5, null));
    private static final ColumnarTable TABLE = ColumnarTable.of(SCHEMA, ROWS);

    @Test
    void comparisonsWithNullAreNullAndNotOfNullIsNull() {
        assertThat(select("width > 4")).containsExactly(1, 3, 5);
        assertThat(select("NOT width > 4")).containsExactly(0, 4);
        assertThat(select("width > 4 OR height > 300")).containsExactly(1, 2, 3, 5);
        assertThat(select("NOT (width > 4 OR height > 300)")).containsExactly(0, 4);
        assertThat(select("NOT (width > 4 AND height > 300)")).as("r2: NULL AND TRUE is NULL")
                .containsExactly(0, 1, 3, 4, 5);
        assertThat(select("width IS NULL")).containsExactly(2);
        assertThat(select("NOT width IS NOT NULL")).containsExactly(2);
        assertThat(select("label IN ('lemon', 'abc')")).containsExactly(1, 5);
        assertThat(select("label NOT IN ('lemon', 'abc')")).as("NULL label is neither").containsExactly(0, 3, 4);
        assertThat(select("flagged")).containsExactly(0, 3);
        assertThat(select("NOT flagged")).containsExactly(1, 4);
        assertThat(select("flagged = FALSE OR flagged IS NULL")).containsExactly(1, 2, 4, 5);
        assertThat(evaluate("width > 4", 2)).isNull();
        assertThat(evaluate("width > 4 AND FALSE = flagged", 0)).isFalse();
    }

    @Test
    void divisionIsDoubleAndNullOnZeroAtRuntime() {
        assertThat(select("width / height = 1.5")).as("BIGINT / BIGINT is DOUBLE division, as in DuckDB")
                .containsExactly(0);
        assertThat(select("width / height > 0")).as("r1 divides by zero: NULL").containsExactly(0, 3, 4, 5);
        assertThat(select("NOT width / height > 0")).isEmpty();
        assertThat(select("width / height IS NULL")).containsExactly(1, 2);
        assertThat(select("CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5")).containsExactly(5);
        assertThat(select("score / 0.5 = 3")).containsExactly(0);
    }

    @Test
    void bigintOverflowIsNull() {
        assertThat(select("filesize_bytes + 1 IS NULL")).as("MAX + 1 overflows").containsExactly(1, 2);
        assertThat(select("filesize_bytes * 2 > 0")).containsExactly(0, 5);
        assertThat(select("-filesize_bytes < 0")).containsExactly(0, 2, 5);
        assertThat(select("filesize_bytes - -9223372036854775807 IS NULL")).containsExactly(0, 1, 2, 5);
    }

    @Test
    void castsRoundHalfAwayFromZero() {
        assertThat(select("CAST(score AS BIGINT) = 2")).containsExactly(0);
        assertThat(select("CAST(score AS BIGINT) = 3")).containsExactly(4);
        assertThat(select("CAST(score AS BIGINT) = -3")).containsExactly(5);
        assertThat(select("CAST(score AS BIGINT) IS NULL")).as("NaN does not fit a BIGINT").containsExactly(2);
        assertThat(select("CAST(width AS DOUBLE) = 3.0")).containsExactly(0);
    }

    @Test
    void numbersCompareAcrossTypesAndNanIsTheLargestDouble() {
        assertThat(select("width > 2.5")).containsExactly(0, 1, 3, 5);
        assertThat(select("width IN (2.0, 7)")).containsExactly(3, 4);
        assertThat(select("score = 0")).as("-0.0 = 0.0").containsExactly(1, 3);
        assertThat(select("score > 1e300")).as("NaN sorts above every number").containsExactly(2);
        assertThat(select("score = score")).as("NaN equals itself").containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(select("score < width")).containsExactly(0, 1, 3, 5);
        // Computed values take the vector path; NaN must still sort above every constant there.
        assertThat(select("score * 1.0 > 1e300")).containsExactly(2);
        assertThat(select("score * 1.0 >= 2.5")).containsExactly(2, 4);
        assertThat(select("NOT score * 1.0 > 1e300")).containsExactly(0, 1, 3, 4, 5);
        assertThat(select("score * 1.0 < 1e300")).containsExactly(0, 1, 3, 4, 5);
        assertThat(select("score * 1.0 <> 0")).containsExactly(0, 2, 4, 5);
        assertThat(select("score * 1.0 = -0.0")).containsExactly(1, 3);
    }

    @Test
    void likeHasPercentAndUnderscoreWildcards() {
        assertThat(select("label LIKE '%snake'")).containsExactly(0, 4);
        assertThat(select("label LIKE 'a_b'")).containsExactly(3);
        assertThat(select("label LIKE '_b%'")).containsExactly(5);
        assertThat(select("label LIKE 'a%'")).containsExactly(3, 5);
        assertThat(select("label NOT LIKE '%'")).isEmpty();
        assertThat(select("label LIKE 'SNAKE'")).as("case-sensitive").isEmpty();
        assertThat(select("label < 'b' AND label >= 'a'")).containsExactly(3, 5);
    }

    @Test
    void aliasesAndCaseSelectTheSameColumn() {
        assertThat(select("human_label = 'lemon'")).isEqualTo(select("label = 'lemon'"))
                .isEqualTo(select("LABEL = 'lemon'")).containsExactly(1);
    }

    @Test
    void rowsAndTablesOfAnotherSchemaAreRejected() {
        BoundPredicate bound = Query.parse("width > 1").where().bind(MetadataSchema.imageNet());
        assertThatThrownBy(() -> bound.test(ROWS.get(0)))
                .isInstanceOf(PredicateException.class)
                .hasMessageStartingWith("Schema mismatch: Row has columns [filename, label (human_label),"
                        + " filesize_bytes, width, height, score, flagged] but the predicate width > 1 was bound to");
        assertThatThrownBy(() -> bound.select(TABLE)).hasMessageStartingWith("Schema mismatch: Table has columns");
    }

    /** Matching row ids from the columnar evaluator, after checking the row evaluator agrees. */
    private static List<Integer> select(String sql) {
        BoundQuery query = Query.parse(sql, SCHEMA).bind(SCHEMA);
        List<Integer> byRow = new ArrayList<>();
        for (int r = 0; r < ROWS.size(); r++) {
            if (query.test(ROWS.get(r))) {
                byRow.add(r);
            }
        }
        List<Integer> columnar = query.select(TABLE).stream().boxed().toList();
        assertThat(columnar).as("columnar vs row evaluation of %s", sql).isEqualTo(byRow);
        return columnar;
    }

    private static Boolean evaluate(String sql, int row) {
        return Query.parse(sql, SCHEMA).bind(SCHEMA).predicate().evaluate(ROWS.get(row));
    }

    private static MetadataRow row(Object... values) {
        return new MetadataRow(SCHEMA, Arrays.asList(values));
    }
}
