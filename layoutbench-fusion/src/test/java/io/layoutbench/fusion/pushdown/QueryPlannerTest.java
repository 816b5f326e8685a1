package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.layoutbench.api.predicate.Expression;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.evaluation.tpch.TpchParquet;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.RowGroupInfo;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner's estimates from footer statistics, and its choice on the two cases it exists for: a filter on a
 * column of few distinct values that is also the projected column (fetch), and a selective filter (pushdown).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryPlannerTest {

    private ObjectColumns columns;
    private List<RowGroupInfo> groups;

    @BeforeAll
    void footer(@TempDir Path dir) {
        Path file = TpchParquet.write("lineitem", 0.01, 15_000, dir.resolve("lineitem.parquet")).file();
        try (MemoryBackend backend = new MemoryBackend()) {
            backend.put("lineitem.parquet", file);
            columns = new ObjectColumns(ParquetObject.open(backend, "lineitem.parquet").footer());
        }
        groups = columns.footer().rowGroups();
    }

    @Test
    void rangesAreInterpolatedBetweenMinAndMax() {
        RowGroupInfo group = groups.get(0);
        // l_linenumber is 1..7: "< 2" is one integer of seven, "= 3" one of seven, ">= 2" the other six.
        assertThat(estimate("l_linenumber < 2", group)).isCloseTo(1.0 / 7, offset(1e-9));
        assertThat(estimate("l_linenumber = 3", group)).isCloseTo(1.0 / 7, offset(1e-9));
        assertThat(estimate("l_linenumber >= 2", group)).isCloseTo(6.0 / 7, offset(1e-9));
        assertThat(estimate("l_linenumber < 0", group)).isZero();
        assertThat(estimate("l_linenumber <= 7", group)).isCloseTo(1, offset(1e-9));
        // l_discount is 0.00..0.10 and continuous to the planner.
        assertThat(estimate("l_discount < 0.05", group)).isCloseTo(0.5, offset(1e-9));
        // AND multiplies, OR unites, NOT complements.
        assertThat(estimate("l_linenumber < 2 AND l_discount < 0.05", group)).isCloseTo(0.5 / 7, offset(1e-9));
        assertThat(estimate("l_linenumber < 2 OR l_discount < 0.05", group))
                .isCloseTo(1 - (6.0 / 7) * 0.5, offset(1e-9));
        assertThat(estimate("NOT l_linenumber < 2", group)).isCloseTo(6.0 / 7, offset(1e-9));
        // Dates are day numbers: l_shipdate spans about seven years, one of them is about a seventh.
        assertThat(estimate("l_shipdate >= '1994-01-01' AND l_shipdate < '1995-01-01'", group))
                .isBetween(0.12, 0.18);
        // Strings are interpolated on their bytes: l_returnflag is A, N or R.
        assertThat(estimate("l_returnflag < 'N'", group)).isCloseTo(13.0 / 17, offset(1e-9));
        // Terms on two columns: a guess.
        assertThat(estimate("l_tax > l_discount", group)).isEqualTo(QueryPlanner.UNKNOWN_SELECTIVITY);
    }

    @Test
    void aBitmapIsAtMostOneBitARow() {
        assertThat(QueryPlanner.bitmapBytes(0, 65_536)).isEqualTo(16);
        assertThat(QueryPlanner.bitmapBytes(0.01, 65_536)).isEqualTo(16 + 1311);
        assertThat(QueryPlanner.bitmapBytes(1, 131_072)).isEqualTo(8 + 2 * (8 + 8192));
    }

    @Test
    void aFilterOnTheProjectedColumnThatWouldBeFetchedAnywaySkipsTheFilterRound() {
        for (String column : List.of("l_linenumber", "l_discount", "l_returnflag", "l_shipmode")) {
            String where = column.equals("l_returnflag") || column.equals("l_shipmode") ? column + " < 'FOB'"
                    : column + " < " + (column.equals("l_discount") ? "0.01" : "2");
            QueryPlan plan = choose(where, List.of(column), List.of());
            assertThat(plan.kind()).as(plan.toString()).isEqualTo(QueryPlan.Kind.FETCH);
            assertThat(plan.fetchEstimate()).isLessThanOrEqualTo(plan.pushdownEstimate());
            assertThat(plan.reason()).contains("fetched anyway: " + column);
        }
    }

    @Test
    void aSelectiveFilterKeepsThePushdownPlan() {
        QueryPlan plan = choose("l_extendedprice < 1500", List.of("l_extendedprice"), List.of());
        assertThat(plan.kind()).as(plan.toString()).isEqualTo(QueryPlan.Kind.PUSHDOWN);
        assertThat(plan.pushdownEstimate()).isLessThan(plan.fetchEstimate());
        // A filter on one column, a projection of another: the filter column stays on the nodes.
        QueryPlan other = choose("l_quantity < 2", List.of("l_comment"), List.of());
        assertThat(other.kind()).as(other.toString()).isEqualTo(QueryPlan.Kind.PUSHDOWN);
        // Aggregates return 32 bytes a chunk.
        QueryPlan sums = choose("l_shipmode = 'AIR'", List.of(), List.of("l_quantity", "l_extendedprice"));
        assertThat(sums.kind()).as(sums.toString()).isEqualTo(QueryPlan.Kind.PUSHDOWN);
    }

    @Test
    void pushdownIsChosenOnlyWhenEstimatedClearlyFaster() {
        assertThat(QueryPlanner.pick(37_880_000, 37_990_000)).as("l_orderkey's near tie")
                .isEqualTo(QueryPlan.Kind.FETCH);
        assertThat(QueryPlanner.pick(100, 100)).isEqualTo(QueryPlan.Kind.FETCH);
        assertThat(QueryPlanner.pick(91, 100)).isEqualTo(QueryPlan.Kind.FETCH);
        assertThat(QueryPlanner.pick(89, 100)).isEqualTo(QueryPlan.Kind.PUSHDOWN);
        assertThat(QueryPlanner.pick(36_700_000, 119_500_000)).isEqualTo(QueryPlan.Kind.PUSHDOWN);
    }

    @Test
    void withoutAFilterAndNothingToPushTheTwoPlansAreOneAndFetchIsNamed() {
        QueryPlan plan = choose("TRUE", List.of("l_shipmode"), List.of());
        assertThat(plan.kind()).isEqualTo(QueryPlan.Kind.FETCH);
        assertThat(plan.fetchEstimate()).isEqualTo(plan.pushdownEstimate());
    }

    @Test
    void groupByPricesAKeyRoundAndAPartialPerGroup() {
        // A selective filter grouped on two keys of few values: three rounds, and far fewer bytes than fetching.
        QueryPlan grouped = planner().choose(groups, predicate("l_quantity < 2"), List.of(),
                List.of("l_extendedprice"), List.of("l_returnflag", "l_linestatus"), false);
        assertThat(grouped.kind()).as(grouped.toString()).isEqualTo(QueryPlan.Kind.PUSHDOWN);
        assertThat(grouped.reason()).contains("pushdown").contains("(3 rounds");
        // The ids of 2% of a row group's rows on a key of three values take a few hundred bytes; the chunk more.
        RowGroupInfo group = groups.get(0);
        long ids = QueryPlanner.groupKeyBytes(group.column("l_returnflag"), 300);
        assertThat(ids).isLessThan(group.column("l_returnflag").byteRange().length()).isLessThan(300);
        // A key of as many values as rows (l_comment) costs more in ids and values than its chunk: it is fetched.
        assertThat(QueryPlanner.groupKeyBytes(group.column("l_comment"), group.rowCount()))
                .isGreaterThan(group.column("l_comment").byteRange().length());
    }

    private QueryPlan choose(String where, List<String> projected, List<String> aggregated) {
        return planner().choose(groups, predicate(where), projected, aggregated, false);
    }

    private double estimate(String where, RowGroupInfo group) {
        return planner().estimate(predicate(where), group);
    }

    private QueryPlanner planner() {
        // Row group i on node i: the chunks of a row group share a node, as a worst case for parallel work.
        return new QueryPlanner(columns, ClusterModel.paper(), 9,
                chunk -> groups.stream().filter(g -> g.column(chunk.column()).equals(chunk)).findFirst()
                        .orElseThrow().index() % 9);
    }

    private Expression predicate(String where) {
        return Query.parse(where).bind(columns.schema()).predicate().expression();
    }
}
