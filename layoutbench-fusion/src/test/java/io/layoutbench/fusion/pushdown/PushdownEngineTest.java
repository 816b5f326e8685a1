package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.testing.FaultInjectingBackend;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.evaluation.tpch.TpchParquet;
import io.layoutbench.fusion.coding.CodingPlan;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every query answers exactly what DuckDB answers on the same Parquet file, in every mode, with all nodes up and
 * with n - k nodes down; the traffic is what the mode promises.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PushdownEngineTest {

    private static final String KEY = "tpch/lineitem.parquet";

    private Path file;
    private List<FaultInjectingBackend> nodes;
    private FacBackend fusion;
    private FacBackend baseline;
    private Connection duckdb;

    @BeforeAll
    void store(@TempDir Path dir) throws Exception {
        // 60 k rows in five row groups: l_orderkey ascends, so row groups prune on it.
        file = TpchParquet.write("lineitem", 0.01, 15_000, dir.resolve("lineitem.parquet")).file();
        nodes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nodes.add(FaultInjectingBackend.wrap(new MemoryBackend()));
        }
        fusion = FacBackend.create(nodes, FacOptions.defaults(), false);
        fusion.put(KEY, file);
        List<ObjectBackend> baselineNodes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            baselineNodes.add(new MemoryBackend());
        }
        // Fixed 64 KiB blocks (a zero overhead budget refuses FAC): chunks are split across nodes.
        baseline = FacBackend.create(baselineNodes, FacOptions.builder().overheadBudget(0).fixedBlockSize(64 << 10)
                .build(), true);
        baseline.put(KEY, file);
        Properties properties = new Properties();
        properties.setProperty("home_directory", dir.resolve("duckdb").toString());
        properties.setProperty("extension_directory", dir.resolve("duckdb/extensions").toString());
        duckdb = DriverManager.getConnection("jdbc:duckdb:", properties);
    }

    @AfterAll
    void close() throws Exception {
        duckdb.close();
        fusion.close();
        baseline.close();
        for (ObjectBackend node : nodes) {
            node.close();
        }
    }

    static Stream<Arguments> queries() {
        return Stream.of(
                "SELECT l_extendedprice FROM lineitem WHERE l_quantity < 2",
                "SELECT l_comment FROM lineitem WHERE l_comment < 'ab'",
                "SELECT l_shipdate, l_orderkey FROM lineitem WHERE l_shipdate < '1992-03-01'",
                "SELECT l_extendedprice, l_discount FROM lineitem WHERE l_shipdate >= '1994-01-01' "
                        + "AND l_shipdate < '1995-01-01' AND l_discount >= 0.05 AND l_discount <= 0.07 "
                        + "AND l_quantity < 24",
                "SELECT l_orderkey, l_tax FROM lineitem WHERE l_tax > l_discount AND l_quantity < 3",
                "SELECT l_partkey FROM lineitem WHERE l_returnflag = 'R' OR l_shipmode = 'AIR' AND l_quantity < 2",
                "SELECT l_orderkey, l_linenumber FROM lineitem WHERE l_orderkey < 100",
                "SELECT * FROM lineitem WHERE l_partkey = 1234",
                "SELECT l_suppkey FROM lineitem WHERE l_quantity > 49 AND l_shipinstruct LIKE 'DELIVER%'",
                "SELECT l_orderkey FROM lineitem WHERE l_quantity < 5 LIMIT 10",
                "SELECT l_orderkey, l_comment FROM lineitem LIMIT 3",
                "SELECT l_quantity FROM lineitem WHERE l_orderkey < 0",
                "SELECT l_returnflag, l_linestatus FROM lineitem WHERE l_receiptdate > '1998-11-01'",
                "SELECT COUNT(*) FROM lineitem",
                "SELECT COUNT(*), SUM(l_quantity), MIN(l_shipdate), MAX(l_extendedprice), AVG(l_discount) "
                        + "FROM lineitem WHERE l_shipmode = 'AIR'",
                "SELECT SUM(l_extendedprice), MIN(l_comment), MAX(l_returnflag), COUNT(l_tax) FROM lineitem "
                        + "WHERE l_shipdate >= '1994-01-01' AND l_shipdate < '1995-01-01' AND l_quantity < 24",
                "SELECT SUM(l_quantity), AVG(l_tax), COUNT(*) FROM lineitem WHERE l_orderkey < 0",
                "SELECT COUNT(*), MAX(l_orderkey) FROM lineitem WHERE l_quantity < 5 LIMIT 1",
                "SELECT COUNT(*) FROM lineitem LIMIT 0")
                .map(Arguments::of);
    }

    @ParameterizedTest
    @MethodSource("queries")
    void everyModeAnswersWhatDuckDbAnswers(String sql) throws Exception {
        List<List<Object>> expected = duckDb(sql);
        for (PushdownMode mode : PushdownMode.values()) {
            PushdownResult result = engine(mode).execute(KEY, sql, mode);
            assertSameRows(sql + " (" + mode + ")", rows(result.rows()), expected);
            assertThat(result.report().degradedChunks()).isZero();
        }
    }

    @ParameterizedTest
    @MethodSource("queries")
    void everyModeAnswersWithThreeNodesDown(String sql) throws Exception {
        List<List<Object>> expected = duckDb(sql);
        int[] down = {0, 4, 8};
        for (int node : down) {
            nodes.get(node).down();
        }
        try {
            for (PushdownMode mode : List.of(PushdownMode.FUSION, PushdownMode.PAPER, PushdownMode.PUSH_ALL)) {
                PushdownResult result = new PushdownEngine(fusion, ClusterModel.paper()).execute(KEY, sql, mode);
                assertSameRows(sql + " (" + mode + ", nodes 0, 4, 8 down)", rows(result.rows()), expected);
            }
        } finally {
            for (int node : down) {
                nodes.get(node).up();
            }
        }
    }

    @Test
    void theFusionStoreKeepsEveryChunkWholeOnOneNode() {
        assertThat(fusion.manifest(KEY).strategy()).isEqualTo(CodingPlan.Strategy.FAC);
        assertThat(baseline.manifest(KEY).strategy()).isEqualTo(CodingPlan.Strategy.FIXED_BLOCKS);
    }

    @Test
    void aSelectiveQueryMovesFarFewerBytesThanTheBaseline() {
        String sql = "SELECT l_comment FROM lineitem WHERE l_quantity < 2";
        PushdownReport fused = engine(PushdownMode.FUSION).execute(KEY, sql, PushdownMode.FUSION).report();
        PushdownReport assembled = engine(PushdownMode.BASELINE).execute(KEY, sql, PushdownMode.BASELINE).report();
        assertThat(fused.networkBytes() * 5).isLessThan(assembled.networkBytes());
        assertThat(fused.projectionsPushed()).isEqualTo(5);
        assertThat(assembled.decisions()).noneMatch(ChunkDecision::pushedDown);
    }

    @Test
    void aFilterOnTheProjectedColumnOfFewValuesRunsTheFetchPlan() {
        // l_linenumber is 1..7 and compresses about 15 times: at 25% its projection would be fetched compressed,
        // so a filter round on the nodes would only decode the chunks twice.
        String sql = "SELECT l_linenumber FROM lineitem WHERE l_linenumber < 2";
        PushdownResult fused = engine(PushdownMode.FUSION).execute(KEY, sql, PushdownMode.FUSION);
        PushdownResult paper = engine(PushdownMode.PAPER).execute(KEY, sql, PushdownMode.PAPER);
        PushdownResult assembled = engine(PushdownMode.BASELINE).execute(KEY, sql, PushdownMode.BASELINE);
        PushdownReport report = fused.report();
        assertThat(report.plan().kind()).as(report.plan().toString()).isEqualTo(QueryPlan.Kind.FETCH);
        assertThat(report.plan().reason()).contains("fetched anyway: l_linenumber");
        assertThat(paper.report().plan().kind()).isEqualTo(QueryPlan.Kind.PUSHDOWN);
        assertThat(rows(fused.rows())).isEqualTo(rows(assembled.rows())).isEqualTo(rows(paper.rows()));

        // One round: the five chunks fetched whole, one read each (FAC keeps a chunk on one node), no filter.
        long footerRpcs = footerRpcs();
        long chunkBytes = chunkBytes("l_linenumber");
        assertThat(report.decisions()).hasSize(5).noneMatch(ChunkDecision::pushedDown)
                .allMatch(d -> d.operation().equals("filter"));
        assertThat(report.rpcs()).isEqualTo(footerRpcs + 5);
        assertThat(report.bytesToNodes()).isZero();
        assertThat(report.networkBytes()).isEqualTo(footerBytes() + chunkBytes);
        // The baseline moves the same bytes in more reads (its 64 KiB blocks split the chunks); the pushdown plan
        // moves the chunks and the bitmaps in two rounds.
        assertThat(assembled.report().networkBytes()).isEqualTo(report.networkBytes());
        assertThat(paper.report().networkBytes()).isGreaterThan(report.networkBytes());
        assertThat(paper.report().rpcs()).isEqualTo(footerRpcs + 10);
    }

    @Test
    void aSelectiveFilterRunsThePushdownPlan() {
        String sql = "SELECT l_extendedprice FROM lineitem WHERE l_extendedprice < 1500";
        PushdownResult fused = engine(PushdownMode.FUSION).execute(KEY, sql, PushdownMode.FUSION);
        PushdownResult assembled = engine(PushdownMode.BASELINE).execute(KEY, sql, PushdownMode.BASELINE);
        PushdownReport report = fused.report();
        assertThat(report.plan().kind()).as(report.plan().toString()).isEqualTo(QueryPlan.Kind.PUSHDOWN);
        assertThat(rows(fused.rows())).isNotEmpty().isEqualTo(rows(assembled.rows()));
        // Two rounds: five filters, then five projections on the nodes that decoded the chunks for the filter.
        assertThat(report.rpcs()).isEqualTo(footerRpcs() + 10);
        assertThat(report.projectionsPushed()).isEqualTo(5);
        long footer = footerBytes();
        assertThat((report.networkBytes() - footer) * 20).isLessThan(assembled.report().networkBytes() - footer);
    }

    @Test
    void theBaselineAlwaysFetchesAndThePaperModesAlwaysPushDown() {
        String sql = "SELECT l_linenumber FROM lineitem WHERE l_linenumber < 2";
        assertThat(engine(PushdownMode.BASELINE).execute(KEY, sql, PushdownMode.BASELINE).report().plan().kind())
                .isEqualTo(QueryPlan.Kind.FETCH);
        for (PushdownMode mode : List.of(PushdownMode.PAPER, PushdownMode.PUSH_ALL)) {
            QueryPlan plan = engine(mode).execute(KEY, sql, mode).report().plan();
            assertThat(plan.kind()).isEqualTo(QueryPlan.Kind.PUSHDOWN);
            assertThat(plan.reason()).startsWith(mode + " always pushes down");
        }
    }

    private long footerRpcs() {
        return engine(PushdownMode.FUSION).execute(KEY, "SELECT COUNT(*) FROM lineitem", PushdownMode.FUSION)
                .report().rpcs();
    }

    private long footerBytes() {
        return engine(PushdownMode.FUSION).execute(KEY, "SELECT COUNT(*) FROM lineitem", PushdownMode.FUSION)
                .report().networkBytes();
    }

    private long chunkBytes(String column) {
        return io.layoutbench.parquet.ParquetObject.open(fusion, KEY).footer().rowGroups().stream()
                .mapToLong(g -> g.column(column).byteRange().length()).sum();
    }

    @Test
    void projectionDecisionsFollowTheCostEquation() {
        for (String sql : List.of("SELECT l_shipmode, l_extendedprice FROM lineitem WHERE l_quantity < 2",
                "SELECT l_shipmode, l_extendedprice FROM lineitem WHERE l_quantity < 40",
                "SELECT l_shipmode, l_extendedprice, l_comment FROM lineitem")) {
            // The pushdown plan (the fetch plan fetches every chunk whatever the equation says).
            PushdownReport report = engine(PushdownMode.PAPER).execute(KEY, sql, PushdownMode.PAPER).report();
            List<ChunkDecision> projections = report.decisions().stream()
                    .filter(d -> d.operation().equals("project")).toList();
            assertThat(projections).as(sql).isNotEmpty().allSatisfy(d -> assertThat(d.pushedDown())
                    .as(d.toString()).isEqualTo(d.selectivity() * d.compressibility() < 1));
        }
        // Without a filter every row is selected: a dictionary-encoded column compresses far better than 1:1, so
        // its chunks are fetched; at 1% its projection is pushed down.
        PushdownReport all = engine(PushdownMode.FUSION).execute(KEY, "SELECT l_shipmode FROM lineitem",
                PushdownMode.FUSION).report();
        assertThat(all.projectionsPushed()).isZero();
        assertThat(all.projectionsFetched()).isEqualTo(5);
        PushdownReport few = engine(PushdownMode.FUSION).execute(KEY,
                "SELECT l_shipmode FROM lineitem WHERE l_quantity < 2", PushdownMode.FUSION).report();
        assertThat(few.projectionsPushed()).isEqualTo(5);
    }

    @Test
    void rowGroupsArePrunedOnFooterStatistics() {
        PushdownReport report = engine(PushdownMode.FUSION).execute(KEY,
                "SELECT l_orderkey FROM lineitem WHERE l_orderkey < 100", PushdownMode.FUSION).report();
        assertThat(report.rowGroups()).isEqualTo(5);
        assertThat(report.rowGroupsPruned()).isEqualTo(4);
    }

    @Test
    void badQueriesFailNamingWhatIsWrong() {
        PushdownEngine engine = engine(PushdownMode.FUSION);
        assertThatThrownBy(() -> engine.execute(KEY, "SELECT l_price FROM lineitem", PushdownMode.FUSION))
                .isInstanceOf(PredicateException.class)
                .hasMessageContaining("Unknown column at column 8: 'l_price' is not a column")
                .hasMessageContaining("l_extendedprice");
        assertThatThrownBy(() -> engine.execute(KEY, "SELECT l_tax, COUNT(*) FROM lineitem", PushdownMode.FUSION))
                .hasMessageContaining("GROUP BY");
        assertThatThrownBy(() -> engine.execute(KEY, "SELECT SUM(l_comment) FROM lineitem", PushdownMode.FUSION))
                .hasMessageContaining("SUM needs a numeric column but l_comment is STRING");
        assertThatThrownBy(() -> engine.execute(KEY, "SELECT l_tax lineitem", PushdownMode.FUSION))
                .hasMessageContaining("at column 14: expected ',' or FROM after the SELECT list but found identifier"
                        + " lineitem");
        assertThatThrownBy(() -> engine.execute(KEY, "SELECT l_tax FROM lineitem WHERE l_tax <", PushdownMode.FUSION))
                .isInstanceOf(PredicateException.class)
                .hasMessageContaining("at column 41: expected an expression but found end of input");
        assertThatThrownBy(() -> engine.execute("tpch/missing.parquet", "SELECT l_tax FROM x", PushdownMode.FUSION))
                .hasMessageContaining("tpch/missing.parquet");
    }

    @Test
    void aColumnItCannotReadIsRefusedNamingItsType(@TempDir Path dir) throws Exception {
        // DuckDB writes the file: a DECIMAL (read as its unscaled integer it would be wrong) beside an integer.
        Path other = dir.resolve("prices.parquet");
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (SELECT 1.25::DECIMAL(10,2) AS price, 7 AS id, 'x' AS name) TO '"
                    + other.toString().replace("'", "''") + "' (FORMAT PARQUET)");
        }
        fusion.put("other/prices.parquet", other);
        PushdownEngine engine = engine(PushdownMode.FUSION);
        assertThat(engine.execute("other/prices.parquet", "SELECT id, name FROM prices", PushdownMode.FUSION)
                .rows().getLong(0, 0)).isEqualTo(7);
        assertThatThrownBy(() -> engine.execute("other/prices.parquet", "SELECT id FROM prices WHERE price < 2",
                PushdownMode.FUSION)).hasMessageContaining("Column price of other/prices.parquet is DECIMAL(10,2)");
    }

    private PushdownEngine engine(PushdownMode mode) {
        return new PushdownEngine(mode == PushdownMode.BASELINE ? baseline : fusion, ClusterModel.paper());
    }

    // ---- the oracle

    private List<List<Object>> duckDb(String sql) throws Exception {
        String source = "read_parquet('" + file.toString().replace("'", "''") + "')";
        String query = sql.replaceFirst("FROM lineitem", "FROM " + source);
        try (Statement statement = duckdb.createStatement(); ResultSet rs = statement.executeQuery(query)) {
            ResultSetMetaData meta = rs.getMetaData();
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int c = 1; c <= meta.getColumnCount(); c++) {
                    row.add(normalize(rs.getObject(c)));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    private static List<List<Object>> rows(ColumnarTable table) {
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < table.rowCount(); r++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < table.schema().size(); c++) {
                row.add(normalize(table.get(c, r)));
            }
            rows.add(row);
        }
        return rows;
    }

    private static Object normalize(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof BigInteger) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.doubleValue();
        }
        if (value instanceof java.sql.Date || value instanceof java.time.LocalDate) {
            return value.toString();
        }
        return value;
    }

    private static void assertSameRows(String what, List<List<Object>> actual, List<List<Object>> expected) {
        assertThat(actual).as(what + ": row count").hasSize(expected.size());
        for (int r = 0; r < expected.size(); r++) {
            List<Object> want = expected.get(r);
            List<Object> got = actual.get(r);
            assertThat(got).as(what + ": row " + r).hasSize(want.size());
            for (int c = 0; c < want.size(); c++) {
                Object w = want.get(c);
                Object g = got.get(c);
                if (w instanceof Double d && g instanceof Double e) {
                    // Sums of doubles are added in another order than DuckDB's.
                    assertThat(e).as(what + ": row " + r + " column " + c).isCloseTo(d,
                            org.assertj.core.data.Offset.offset(Math.abs(d) * 1e-9 + 1e-9));
                } else {
                    assertThat(g).as(what + ": row " + r + " column " + c).isEqualTo(w);
                }
            }
        }
    }
}
