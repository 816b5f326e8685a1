package io.layoutbench.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/**
 * The columnar evaluator's fast paths ({@link Scans}: BIGINT ranges, dictionary ids compared directly, division and
 * comparison of computed doubles) against the row evaluator, on tables with and without NULLs, zero and negative
 * divisors, NaN and infinities, over row ranges that start and end inside a vector and cross the 64K-row blocks,
 * with and without LIMIT, and on an empty table.
 */
class FastPathsTest {
    private static final MetadataSchema SCHEMA = new MetadataSchema(List.of(
            new Column("w", ColumnType.BIGINT), new Column("h", ColumnType.BIGINT),
            new Column("d", ColumnType.DOUBLE), new Column("label", ColumnType.STRING)));
    private static final int ROWS = 70_003;
    private static final String SIXTEEN_LABELS = IntStream.range(0, 16).mapToObj(i -> "'l" + i + "'")
            .collect(Collectors.joining(", "));
    private static final List<String> WHERE = List.of(
            "CAST(w AS DOUBLE) / CAST(h AS DOUBLE) > 1.5",
            "CAST(w AS DOUBLE) / CAST(h AS DOUBLE) <= -0.5",
            "NOT (CAST(w AS DOUBLE) / CAST(h AS DOUBLE) > 1.5)",
            "w / h = 2",
            "w / h <> 2",
            "w / h < 0",
            "d / h >= 0",
            "d * 2 > 1.5",
            "NOT (d * 2 >= 1.5)",
            "d + 0 = 0",
            "d - 1 < 1e308",
            "w >= 1024",
            "w >= 1024 AND h >= 1024",
            "NOT (w >= 1024)",
            "w < 0",
            "w = -3",
            "label = 'l3'",
            "label = 'no such label'",
            "label IN ('l1', 'l7', 'l29')",
            "label IN (" + SIXTEEN_LABELS + ")",
            "label IN (" + SIXTEEN_LABELS + ", 'l20')",
            "NOT label = 'l3'",
            "label <> 'l3'",
            "label IN ('l1', 'l2') AND w < 100",
            "label = 'l5' AND CAST(w AS DOUBLE) / CAST(h AS DOUBLE) > 1");
    private static final long[] LIMITS = {Long.MAX_VALUE, 1, 7, 1000, 5000};

    @Test
    void fastPathsAgreeWithTheRowEvaluatorWithoutNulls() {
        check(table(false, new Random(1)));
    }

    @Test
    void fastPathsAgreeWithTheRowEvaluatorWithNulls() {
        check(table(true, new Random(2)));
    }

    @Test
    void emptyTablesSelectNothing() {
        ColumnarTable empty = ColumnarTable.builder(SCHEMA).build();
        for (String where : WHERE) {
            assertThat(Query.parse(where, SCHEMA).bind(SCHEMA).select(empty).isEmpty()).as(where).isTrue();
        }
    }

    private static void check(Table t) {
        int[][] ranges = {{0, ROWS}, {3, 65_541}, {65_530, 65_545}, {13, 14}, {ROWS - 5, ROWS}};
        for (String where : WHERE) {
            BoundPredicate predicate = Query.parse(where, SCHEMA).bind(SCHEMA).predicate();
            for (long limit : LIMITS) {
                for (int[] range : ranges) {
                    List<Integer> expected = new ArrayList<>();
                    for (int r = range[0]; r < range[1] && expected.size() < limit; r++) {
                        if (predicate.test(t.rows.get(r))) {
                            expected.add(r);
                        }
                    }
                    Selection actual = predicate.select(t.columns, range[0], range[1], limit);
                    assertThat(actual.stream().boxed().toList()).as("%s LIMIT %d over rows %s", where, limit,
                            Arrays.toString(range)).isEqualTo(expected);
                }
            }
        }
    }

    private record Table(List<MetadataRow> rows, ColumnarTable columns) {
    }

    private static Table table(boolean nulls, Random random) {
        double[] odd = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0, 0.75, 1.5};
        List<MetadataRow> rows = new ArrayList<>(ROWS);
        ColumnarTable.Builder builder = ColumnarTable.builder(SCHEMA, ROWS);
        for (int i = 0; i < ROWS; i++) {
            Long w = random.nextInt(10) == 0 ? 1024L + random.nextInt(1500) : random.nextInt(900) - 3L;
            Long h = random.nextInt(20) == 0 ? (long) random.nextInt(3) - 1 : 1L + random.nextInt(1500);
            Double d = random.nextInt(10) == 0 ? odd[random.nextInt(odd.length)] : random.nextGaussian();
            String label = "l" + random.nextInt(30);
            if (i >= 65_530 && i < 65_545) {
                // Matches on both sides of the first full block's end.
                w = 2048L;
                h = 1024L;
                label = "l3";
            }
            if (nulls && random.nextInt(15) == 0) {
                switch (random.nextInt(4)) {
                    case 0 -> w = null;
                    case 1 -> h = null;
                    case 2 -> d = null;
                    default -> label = null;
                }
            }
            MetadataRow row = new MetadataRow(SCHEMA, Arrays.asList(w, h, d, label));
            rows.add(row);
            builder.add(row);
        }
        return new Table(rows, builder.build());
    }
}
