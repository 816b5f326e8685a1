package io.layoutbench.api.predicate;

import static io.layoutbench.api.predicate.PruneResult.ROWS_CANNOT_MATCH;
import static io.layoutbench.api.predicate.PruneResult.ROWS_MIGHT_MATCH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

class StatisticsPruningTest {
    private static final MetadataSchema SCHEMA = MetadataSchema.imageNet()
            .with(new Column("score", ColumnType.DOUBLE))
            .with(new Column("flagged", ColumnType.BOOLEAN));

    /** A group of 100 rows: widths 10..500, heights 300..400, labels 'bagel'..'lemon', no NULLs. */
    private static final GroupStatistics GROUP = new GroupStatistics(100, Map.of(
            "width", ColumnStatistics.of(10L, 500L, 0),
            "height", ColumnStatistics.of(300L, 400L, 0),
            "label", ColumnStatistics.of("bagel", "lemon", 0),
            "filesize_bytes", ColumnStatistics.of(1_000L, 90_000L, 0),
            "score", ColumnStatistics.of(-1.0, 1.0, 0),
            "flagged", ColumnStatistics.of(false, false, 0)));

    @Test
    void comparisonsUseMinAndMax() {
        assertThat(prune("width > 500")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width >= 500")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("width < 10")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("600 < width")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width = 501")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width <> 7")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("width > 499.5")).as("BIGINT against DOUBLE").isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("width > 500.5")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width > height + 200")).as("500 > 500 is impossible").isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label = 'zebra'")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label = 'cello'")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("flagged")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("NOT flagged")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("filesize_bytes >= 500 * 1024")).as("Q6").isEqualTo(ROWS_CANNOT_MATCH);
    }

    @Test
    void notIsSoundUnderThreeValuedLogic() {
        assertThat(prune("NOT width > 5")).as("width > 5 is TRUE everywhere").isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("NOT width > 100")).as("width > 100 can be FALSE").isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("NOT (width > 5 AND height >= 300)")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("NOT (width > 100 AND height >= 300)")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("NOT (width > 1000 OR height > 1000)")).isEqualTo(ROWS_MIGHT_MATCH);
        // All NULL: the comparison is NULL everywhere, and so is its negation.
        GroupStatistics allNull = GROUP.with("width", ColumnStatistics.of(null, null, 100));
        assertThat(prune("width > 5", allNull)).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("NOT width > 5", allNull)).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width IS NULL", allNull)).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("NOT width IS NULL", allNull)).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width IS NULL")).as("null count 0").isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width IS NOT NULL")).isEqualTo(ROWS_MIGHT_MATCH);
    }

    @Test
    void inAndLikeUseRangesPrefixesAndDictionaries() {
        assertThat(prune("label IN ('apple', 'zebra')")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label IN ('apple', 'canoe')")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("width NOT IN (1, 2)")).isEqualTo(ROWS_MIGHT_MATCH);
        GroupStatistics onlyLemon = GROUP.with("label", ColumnStatistics.of("lemon", "lemon", 0));
        assertThat(prune("label NOT IN ('lemon', 'cello')", onlyLemon)).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label <> 'lemon'", onlyLemon)).isEqualTo(ROWS_CANNOT_MATCH);

        assertThat(prune("label LIKE 'c%'")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("label LIKE 'm%'")).as("every value sorts before 'm'").isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label LIKE 'a%'")).as("every value sorts after the 'a' strings")
                .isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label LIKE 'lemon%'")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("label LIKE 'bag%'")).as("min 'bagel' starts with the prefix").isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("label LIKE '%snake'")).as("no prefix, no dictionary").isEqualTo(ROWS_MIGHT_MATCH);
        GroupStatistics prefixed = GROUP.with("label", ColumnStatistics.of("garter_snake", "gazelle", 0));
        assertThat(prune("label NOT LIKE 'ga%'", prefixed)).as("every value starts with 'ga'")
                .isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label NOT LIKE 'gaz%'", prefixed)).isEqualTo(ROWS_MIGHT_MATCH);

        GroupStatistics dictionary = GROUP.with("label",
                ColumnStatistics.of("bagel", "lemon", 0).withDistinctValues(Set.of("bagel", "lemon")));
        assertThat(prune("label LIKE '%snake'", dictionary)).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label = 'cello'", dictionary)).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label IN ('cello', 'canoe')", dictionary)).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label IN ('cello', 'lemon')", dictionary)).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("label NOT IN ('bagel', 'lemon')", dictionary)).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("label LIKE 'c%'", dictionary)).as("the range allows it, the dictionary does not")
                .isEqualTo(ROWS_CANNOT_MATCH);
        // Each leaf is judged on its own: 'lemon' > 'c' and 'bagel' < 'k', so AND cannot rule the group out.
        assertThat(prune("label > 'c' AND label < 'k'", dictionary)).isEqualTo(ROWS_MIGHT_MATCH);
    }

    @Test
    void arithmeticIsDecidedOnlyWhenSafe() {
        // The ratio lies in [10/400, 500/300 = 1.67].
        assertThat(prune("CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.66")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.67")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("CAST(width AS DOUBLE) / CAST(height AS DOUBLE) < 0.02")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width / height > 1.67")).as("BIGINT / BIGINT is DOUBLE").isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width * 2 > 1000")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width - height > 200")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("-width > -10")).isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("CAST(score AS BIGINT) > 1")).isEqualTo(ROWS_CANNOT_MATCH);
        // The divisor range [-1, 1] holds 0.5: 10 / 0.5 = 20. Corners alone (+-10) would wrongly prune.
        assertThat(prune("10 / score > 15")).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("width / (height - 350) > 1000")).isEqualTo(ROWS_MIGHT_MATCH);
        // Overflow makes rows NULL at run time; the interval gives up rather than wrap around.
        GroupStatistics huge = GROUP.with("filesize_bytes", ColumnStatistics.of(Long.MAX_VALUE - 1,
                Long.MAX_VALUE, 0));
        assertThat(prune("filesize_bytes + 1 > 0", huge)).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("filesize_bytes * 2 < 0", huge)).isEqualTo(ROWS_MIGHT_MATCH);
        // Infinite bounds are never used for arithmetic: inf - inf would be NaN.
        GroupStatistics infinite = GROUP.with("score", ColumnStatistics.of(Double.NEGATIVE_INFINITY,
                Double.POSITIVE_INFINITY, 0));
        assertThat(prune("score + score > 1e308", infinite)).isEqualTo(ROWS_MIGHT_MATCH);
    }

    @Test
    void missingOrUnknownStatisticsMightMatch() {
        GroupStatistics nothing = new GroupStatistics(100, Map.of());
        assertThat(prune("width > 1000000 AND label = 'x'", nothing)).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("width > 1000000", GROUP.with("width", ColumnStatistics.unknown())))
                .isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(prune("width > 1", new GroupStatistics(0, Map.of()))).as("an empty group")
                .isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("human_label = 'zebra'", new GroupStatistics(5, Map.of("human_label",
                ColumnStatistics.of("a", "b", 0))))).as("statistics keyed by alias").isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("width > 1000", GROUP.with("image_blob", ColumnStatistics.unknown())))
                .as("statistics of other columns are ignored").isEqualTo(ROWS_CANNOT_MATCH);
        assertThat(prune("TRUE", GROUP)).isEqualTo(ROWS_MIGHT_MATCH);
        assertThat(ROWS_CANNOT_MATCH.canSkip()).isTrue();
    }

    @Test
    void statisticsOfTheWrongTypeAreAnError() {
        GroupStatistics wrong = GROUP.with("width", ColumnStatistics.of("a", "b", 0));
        assertThatThrownBy(() -> prune("width > 1", wrong))
                .isInstanceOf(PredicateException.class)
                .hasMessage("Invalid statistics: column 'width' is BIGINT but its statistics hold String a");
        GroupStatistics twice = GROUP.with("human_label", ColumnStatistics.unknown());
        assertThatThrownBy(() -> prune("width > 1", twice))
                .hasMessageContaining("column 'label' is listed twice");
    }

    @Test
    void sortedRowGroupsPruneLabelQueries() {
        // 20,000 rows sorted by label, in 100 row groups: single-label queries touch one or two groups.
        Random random = new Random(7);
        MetadataSchema schema = MetadataSchema.imageNet();
        List<Object[]> data = new ArrayList<>();
        String[] labels = {"bagel", "canoe", "cello", "garter_snake", "giant_panda", "king_snake", "lemon",
                "Old_English_sheepdog", "starfish", "streetcar", "tiger_cat", "water_buffalo"};
        for (int i = 0; i < 20_000; i++) {
            data.add(new Object[] {"f" + i, labels[random.nextInt(labels.length)] + (i % 7 == 0 ? "" : "_x" + i % 50),
                    (long) (20_000 + random.nextInt(600_000)), (long) (100 + random.nextInt(2000)),
                    (long) (100 + random.nextInt(2000))});
        }
        data.sort(Comparator.comparing(row -> (String) row[1]));
        ColumnarTable.Builder builder = ColumnarTable.builder(schema, data.size());
        data.forEach(builder::add);
        ColumnarTable table = builder.build();
        Map<String, Integer> skipped = new HashMap<>();
        Map<String, String> queries = Map.of("cello", "human_label = 'cello'", "snakes", "human_label LIKE '%snake'",
                "large files", "filesize_bytes >= 500 * 1024");
        for (Map.Entry<String, String> named : queries.entrySet()) {
            BoundQuery query = Query.parse(named.getValue(), schema).bind(schema);
            for (int from = 0; from < table.rowCount(); from += 200) {
                GroupStatistics stats = table.statistics(from, from + 200);
                if (query.prune(stats) == ROWS_CANNOT_MATCH) {
                    skipped.merge(named.getKey(), 1, Integer::sum);
                    assertThat(query.select(table, from, from + 200).isEmpty()).as(named.getValue()).isTrue();
                }
            }
        }
        assertThat(skipped.get("cello")).as("cello lives in a few of 100 groups").isGreaterThan(90);
        assertThat(skipped.get("snakes")).as("snakes: dictionaries decide the suffix").isGreaterThan(80);
        assertThat(skipped.getOrDefault("large files", 0)).as("file sizes are not sorted").isZero();
    }

    private static PruneResult prune(String sql) {
        return prune(sql, GROUP);
    }

    private static PruneResult prune(String sql, GroupStatistics group) {
        return Query.parse(sql, SCHEMA).bind(SCHEMA).prune(group);
    }
}
