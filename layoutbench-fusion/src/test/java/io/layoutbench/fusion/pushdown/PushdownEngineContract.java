package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.evaluation.tpch.TpchParquet;
import io.layoutbench.fusion.coding.CodingPlan;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacManifest;
import io.layoutbench.fusion.store.FacOptions;
import io.layoutbench.parquet.testing.DuckDb;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
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
 * The contract of {@link NodeOperators}, run against each: every query answers exactly what DuckDB answers on the
 * same Parquet file, in every mode, with all nodes up and with n - k nodes down; the traffic is what the mode
 * promises. An implementation's test gives the store's nine nodes, the operators over them, and a way to take a node
 * down and bring it back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class PushdownEngineContract {

    private static final String KEY = "tpch/lineitem.parquet";
    /** The same rows written by DuckDB: DECIMAL(15,2) (INT64) and DECIMAL(4,2) (INT32), DATE, and NULLs. */
    private static final String DECIMAL_KEY = "duckdb/lineitem.parquet";
    /**
     * Columns whose names SQL must quote, keywords: {@code order}, {@code limit}, {@code from} (a DECIMAL) and
     * {@code group}. (Names that are not plain identifiers, {@code trip-distance}, cannot be a {@code Column}.)
     */
    private static final String QUOTED_KEY = "duckdb/quoted.parquet";

    private Path file;
    private Path decimalFile;
    private Path quotedFile;
    private FacBackend fusion;
    private NodeOperators operators;
    private FacBackend baseline;
    private Connection duckdb;

    @BeforeAll
    void store(@TempDir Path dir) throws Exception {
        // 60 k rows in five row groups: l_orderkey ascends, so row groups prune on it.
        file = TpchParquet.write("lineitem", 0.01, 15_000, dir.resolve("lineitem.parquet")).file();
        fusion = FacBackend.create(startNodes(dir), FacOptions.defaults(), false);
        operators = operators(fusion);
        fusion.put(KEY, file);
        List<ObjectBackend> baselineNodes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            baselineNodes.add(new MemoryBackend());
        }
        // Fixed 64 KiB blocks (a zero overhead budget refuses FAC): chunks are split across nodes.
        baseline = FacBackend.create(baselineNodes, FacOptions.builder().overheadBudget(0).fixedBlockSize(64 << 10)
                .build(), true);
        baseline.put(KEY, file);
        duckdb = DuckDb.connect(dir);

        decimalFile = dir.resolve("lineitem-decimal.parquet");
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (SELECT l_orderkey, l_partkey, l_linenumber,"
                    + " CAST(l_quantity AS DECIMAL(15,2)) AS l_quantity,"
                    + " CAST(l_extendedprice AS DECIMAL(15,2)) AS l_extendedprice,"
                    + " CAST(l_discount AS DECIMAL(15,2)) AS l_discount, CAST(l_tax AS DECIMAL(15,2)) AS l_tax,"
                    + " CAST(l_discount AS DECIMAL(4,2)) AS l_discount4,"
                    + " l_returnflag, l_linestatus, CAST(l_shipdate AS DATE) AS l_shipdate,"
                    + " CASE WHEN l_orderkey % 5 = 0 THEN NULL ELSE l_shipmode END AS l_shipmode,"
                    + " CASE WHEN l_linenumber = 3 THEN NULL ELSE CAST(l_tax AS DECIMAL(15,2)) END AS l_tax_or_null"
                    + " FROM " + source(file) + ") TO '" + decimalFile.toString().replace("'", "''")
                    + "' (FORMAT PARQUET, ROW_GROUP_SIZE 15000)");
        }
        fusion.put(DECIMAL_KEY, decimalFile);
        baseline.put(DECIMAL_KEY, decimalFile);

        quotedFile = dir.resolve("quoted.parquet");
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (SELECT l_linenumber AS \"order\", l_extendedprice AS \"limit\","
                    + " CAST(l_tax AS DECIMAL(15,2)) AS \"from\", l_returnflag AS \"group\", l_quantity"
                    + " FROM " + source(file) + ") TO '" + quotedFile.toString().replace("'", "''")
                    + "' (FORMAT PARQUET, ROW_GROUP_SIZE 15000)");
        }
        fusion.put(QUOTED_KEY, quotedFile);
        baseline.put(QUOTED_KEY, quotedFile);
    }

    @AfterAll
    void close() throws Exception {
        duckdb.close();
        operators.close();
        fusion.close();
        baseline.close();
        stopNodes();
    }

    /** Starts the Fusion store's nine nodes (RS(9,6)), under {@code dir} if they need a place. */
    protected abstract List<? extends ObjectBackend> startNodes(Path dir) throws Exception;

    /** The operators under test, over {@code store}'s nodes. */
    protected abstract NodeOperators operators(FacBackend store) throws Exception;

    /** Takes node {@code node} down: its blocks can no longer be read, nor can it run operators. */
    protected abstract void down(int node);

    /** Brings node {@code node} back. */
    protected abstract void up(int node);

    /** Stops the nodes {@link #startNodes} started. */
    protected abstract void stopNodes() throws Exception;

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
                "SELECT COUNT(*) FROM lineitem LIMIT 0",
                // ORDER BY and LIMIT on the result
                "SELECT l_orderkey, l_extendedprice FROM lineitem WHERE l_quantity < 2 ORDER BY l_extendedprice DESC,"
                        + " l_orderkey LIMIT 7",
                // GROUP BY: one key, two keys, keys not selected, WHERE, ORDER BY and LIMIT, empty, no aggregate
                "SELECT l_returnflag, COUNT(*), SUM(l_quantity), AVG(l_extendedprice), MIN(l_shipdate),"
                        + " MAX(l_comment), COUNT(l_tax) FROM lineitem GROUP BY l_returnflag",
                "SELECT l_returnflag, l_linestatus, COUNT(*), SUM(l_extendedprice), MIN(l_discount), MAX(l_tax)"
                        + " FROM lineitem WHERE l_quantity < 10 GROUP BY l_returnflag, l_linestatus",
                "SELECT COUNT(*), SUM(l_linenumber), MAX(l_partkey) FROM lineitem WHERE l_shipmode = 'AIR'"
                        + " GROUP BY l_linenumber",
                "SELECT l_shipmode, SUM(l_extendedprice) FROM lineitem WHERE l_shipdate >= '1995-01-01'"
                        + " GROUP BY l_shipmode ORDER BY SUM(l_extendedprice) DESC LIMIT 3",
                "SELECT l_linenumber, l_returnflag, COUNT(*) FROM lineitem GROUP BY l_linenumber, l_returnflag"
                        + " ORDER BY l_returnflag DESC, l_linenumber LIMIT 10",
                "SELECT l_returnflag, COUNT(*), SUM(l_tax) FROM lineitem WHERE l_orderkey < 0 GROUP BY l_returnflag",
                "SELECT l_orderkey, SUM(l_quantity), COUNT(*) FROM lineitem WHERE l_partkey < 200 GROUP BY l_orderkey",
                "SELECT l_shipmode FROM lineitem GROUP BY l_shipmode",
                // Two keys of thousands of values each: groups numbered through a hash map, not a table
                "SELECT l_orderkey, l_partkey, COUNT(*), SUM(l_quantity) FROM lineitem WHERE l_suppkey < 20"
                        + " GROUP BY l_orderkey, l_partkey",
                "SELECT l_shipdate, COUNT(*), SUM(l_extendedprice * l_discount) FROM lineitem"
                        + " WHERE l_shipdate >= '1998-11-01' GROUP BY l_shipdate",
                "SELECT l_linestatus, SUM(l_orderkey * 2 - l_linenumber), MIN(-l_partkey), AVG(l_suppkey + 0.5)"
                        + " FROM lineitem WHERE l_orderkey < 20000 GROUP BY l_linestatus ORDER BY l_linestatus DESC",
                TPCH_Q1,
                TPCH_Q6,
                TPCH_Q6_SPEC,
                "SELECT COUNT(*) FROM lineitem WHERE l_discount BETWEEN .06 - 0.01 AND .06 + 0.01")
                .map(Arguments::of);
    }

    /**
     * TPC-H Q1, without its AS aliases (results are named by position here) and with its date written out: the
     * predicate language has no DATE literals or interval arithmetic, and DATE '1998-12-01' - INTERVAL 90 DAY is
     * 1998-09-02.
     */
    static final String TPCH_Q1 = "SELECT l_returnflag, l_linestatus, SUM(l_quantity), SUM(l_extendedprice),"
            + " SUM(l_extendedprice * (1 - l_discount)), SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)),"
            + " AVG(l_quantity), AVG(l_extendedprice), AVG(l_discount), COUNT(*) FROM lineitem"
            + " WHERE l_shipdate <= '1998-09-02' GROUP BY l_returnflag, l_linestatus"
            + " ORDER BY l_returnflag, l_linestatus";
    /** TPC-H Q6, with its dates written out (DATE '1994-01-01' + INTERVAL 1 YEAR is 1995-01-01). */
    static final String TPCH_Q6 = "SELECT SUM(l_extendedprice * l_discount) FROM lineitem"
            + " WHERE l_shipdate >= '1994-01-01' AND l_shipdate < '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07"
            + " AND l_quantity < 24";

    /**
     * TPC-H Q6 with its discount bounds as the spec writes them, {@code .06 - 0.01} and {@code .06 + 0.01}: DuckDB
     * reads them as DECIMALs, 0.05 and 0.07, and keeps the rows at both bounds.
     */
    static final String TPCH_Q6_SPEC = "SELECT SUM(l_extendedprice * l_discount) FROM lineitem"
            + " WHERE l_shipdate >= '1994-01-01' AND l_shipdate < '1995-01-01'"
            + " AND l_discount BETWEEN .06 - 0.01 AND .06 + 0.01 AND l_quantity < 24";

    /** Queries on the file DuckDB wrote: exact DECIMAL sums and comparisons, DATE, NULL keys and values. */
    static Stream<Arguments> decimalQueries() {
        return Stream.of(
                TPCH_Q1,
                TPCH_Q6,
                TPCH_Q6_SPEC,
                "SELECT l_discount, COUNT(*) FROM lineitem WHERE l_discount BETWEEN .06 - 0.01 AND .06 + 0.01"
                        + " GROUP BY l_discount",
                "SELECT l_extendedprice, l_discount, l_discount4, l_shipdate FROM lineitem"
                        + " WHERE l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 3",
                "SELECT l_orderkey, l_tax FROM lineitem WHERE l_discount4 = 0.06 AND l_extendedprice > 90000.5",
                "SELECT l_discount, COUNT(*), SUM(l_extendedprice), MIN(l_quantity), MAX(l_tax) FROM lineitem"
                        + " WHERE l_discount BETWEEN 0.05 AND 0.07 GROUP BY l_discount",
                "SELECT l_shipmode, COUNT(*), COUNT(l_tax_or_null), SUM(l_tax_or_null), MIN(l_tax_or_null),"
                        + " AVG(l_tax_or_null), MAX(l_extendedprice), AVG(l_discount) FROM lineitem"
                        + " GROUP BY l_shipmode",
                "SELECT l_shipmode, l_returnflag, COUNT(*) FROM lineitem WHERE l_quantity > 45"
                        + " GROUP BY l_shipmode, l_returnflag ORDER BY l_shipmode DESC, l_returnflag",
                "SELECT l_tax_or_null, COUNT(*), SUM(l_discount4 * l_quantity) FROM lineitem GROUP BY l_tax_or_null",
                "SELECT MIN(l_shipdate), MAX(l_shipdate), SUM(l_discount4), SUM(l_quantity), AVG(l_extendedprice)"
                        + " FROM lineitem WHERE l_shipdate > '1998-01-01'",
                "SELECT l_returnflag, SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)) FROM lineitem"
                        + " WHERE l_tax_or_null IS NULL AND l_shipdate < '1993-01-01' GROUP BY l_returnflag"
                        + " ORDER BY SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)) DESC")
                .map(Arguments::of);
    }

    /** Aggregates of columns whose names print quoted, alone, with GROUP BY, and in arithmetic. */
    static Stream<Arguments> quotedNameQueries() {
        return Stream.of(
                "SELECT COUNT(\"order\"), SUM(\"order\"), MIN(\"order\"), MAX(\"order\"), AVG(\"order\"),"
                        + " COUNT(\"limit\"), SUM(\"limit\"), MIN(\"limit\"),"
                        + " MAX(\"limit\"), AVG(\"limit\"), SUM(\"from\"), MAX(\"from\")"
                        + " FROM lineitem WHERE l_quantity < 10",
                "SELECT \"group\", COUNT(\"order\"), SUM(\"limit\"), MIN(\"from\"), AVG(\"order\"),"
                        + " SUM(\"limit\" * \"from\") FROM lineitem WHERE \"limit\" < 20000"
                        + " GROUP BY \"group\" ORDER BY \"group\"",
                "SELECT \"order\", COUNT(*), SUM(\"from\") FROM lineitem GROUP BY \"order\""
                        + " ORDER BY \"order\"")
                .map(Arguments::of);
    }

    @ParameterizedTest
    @MethodSource("quotedNameQueries")
    void aggregatesOfColumnsWhoseNamesAreQuotedAnswerWhatDuckDbAnswers(String sql) throws Exception {
        List<List<Object>> expected = duckDb(quotedFile, sql);
        for (PushdownMode mode : PushdownMode.values()) {
            PushdownResult result = engine(mode).execute(QUOTED_KEY, sql, mode);
            assertSameRows(sql + " (" + mode + ")", rows(result), expected);
        }
    }

    @ParameterizedTest
    @MethodSource("queries")
    void everyModeAnswersWhatDuckDbAnswers(String sql) throws Exception {
        List<List<Object>> expected = duckDb(sql);
        for (PushdownMode mode : PushdownMode.values()) {
            PushdownResult result = engine(mode).execute(KEY, sql, mode);
            assertSameRows(sql + " (" + mode + ")", rows(result), expected);
            assertThat(result.report().degradedChunks()).isZero();
        }
    }

    @ParameterizedTest
    @MethodSource("decimalQueries")
    void decimalsAndDatesWrittenByDuckDbAnswerExactly(String sql) throws Exception {
        List<List<Object>> expected = duckDb(decimalFile, sql);
        for (PushdownMode mode : PushdownMode.values()) {
            PushdownResult result = engine(mode).execute(DECIMAL_KEY, sql, mode);
            assertSameRows(sql + " (" + mode + ")", rows(result), expected);
        }
    }

    @ParameterizedTest
    @MethodSource("decimalQueries")
    void decimalsAnswerExactlyWithThreeNodesDown(String sql) throws Exception {
        List<List<Object>> expected = duckDb(decimalFile, sql);
        withNodesDown(() -> {
            for (PushdownMode mode : List.of(PushdownMode.FUSION, PushdownMode.PAPER, PushdownMode.PUSH_ALL)) {
                PushdownResult result = engine(mode).execute(DECIMAL_KEY, sql, mode);
                assertSameRows(sql + " (" + mode + ", nodes 0, 4, 8 down)", rows(result), expected);
                assertThat(result.report().degradedChunks()).isPositive();
            }
        });
    }

    @ParameterizedTest
    @MethodSource("queries")
    void everyModeAnswersWithThreeNodesDown(String sql) throws Exception {
        List<List<Object>> expected = duckDb(sql);
        withNodesDown(() -> {
            for (PushdownMode mode : List.of(PushdownMode.FUSION, PushdownMode.PAPER, PushdownMode.PUSH_ALL)) {
                PushdownResult result = engine(mode).execute(KEY, sql, mode);
                assertSameRows(sql + " (" + mode + ", nodes 0, 4, 8 down)", rows(result), expected);
            }
        });
    }

    /** Runs {@code body} with nodes 0, 4 and 8 of the Fusion store down (n - k = 3 of RS(9,6)). */
    private void withNodesDown(Runnable body) {
        int[] down = {0, 4, 8};
        for (int node : down) {
            down(node);
        }
        try {
            body.run();
        } finally {
            for (int node : down) {
                up(node);
            }
        }
    }

    @Test
    void theFusionStoreKeepsEveryChunkWholeOnOneNode() {
        assertThat(fusion.manifest(KEY).strategy()).isEqualTo(CodingPlan.Strategy.FAC);
        assertThat(baseline.manifest(KEY).strategy()).isEqualTo(CodingPlan.Strategy.FIXED_BLOCKS);
    }

    /** The footer is read from the object's last piece alone: one node read, not one per small chunk before it. */
    @Test
    void theFooterIsReadFromTheLastPieceAlone() {
        FacManifest manifest = fusion.manifest(KEY);
        int tail = PushdownEngine.footerTail(manifest);
        ByteRange read = ByteRange.of(manifest.objectSize() - tail, tail);

        assertThat(tail).isBetween(8, 64 << 10);
        assertThat(manifest.nodesHolding(read)).hasSize(1);
        long before = fusion.statistics().blockReads();
        PushdownResult result = engine(PushdownMode.FUSION).execute(KEY, "SELECT COUNT(*) FROM lineitem",
                PushdownMode.FUSION);
        assertThat(result.rows().getLong(0, 0)).isPositive();
        assertThat(fusion.statistics().blockReads() - before).as("node reads of a COUNT(*): the footer's")
                .isLessThanOrEqualTo(2);
    }

    @Test
    void aSelectiveQueryMovesFarFewerBytesThanTheBaseline() {
        String sql = "SELECT l_comment FROM lineitem WHERE l_quantity < 2";
        PushdownReport fused = engine(PushdownMode.FUSION).execute(KEY, sql, PushdownMode.FUSION).report();
        PushdownReport assembled = engine(PushdownMode.BASELINE).execute(KEY, sql, PushdownMode.BASELINE).report();
        assertThat(fused.networkBytes() * 5).isLessThan(assembled.networkBytes());
        assertThat(fused.projectionsPushed()).isEqualTo(5);
        assertThat(assembled.decisions()).noneMatch(ChunkDecision::pushedDown);
        // Each node's link: what was sent to it and what it returned; only the footer reaches no node's account.
        assertThat(fused.bytesPerNode()).hasSize(9);
        long perNode = fused.bytesPerNode().stream().mapToLong(Long::longValue).sum();
        assertThat(perNode).isPositive().isEqualTo(fused.networkBytes() - footerBytes());
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
        assertThat(rows(fused)).isEqualTo(rows(assembled)).isEqualTo(rows(paper));

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
        assertThat(assembled.report().networkBytes() - baselineFooterBytes())
                .isEqualTo(report.networkBytes() - footerBytes());
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
        assertThat(rows(fused)).isNotEmpty().isEqualTo(rows(assembled));
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

    /** The baseline reads the default 64 KiB tail: its fixed blocks hold the object's end in one piece anyway. */
    private long baselineFooterBytes() {
        return engine(PushdownMode.BASELINE).execute(KEY, "SELECT COUNT(*) FROM lineitem", PushdownMode.BASELINE)
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
                .hasMessageContaining("Ungrouped column at column 8: l_tax is neither in GROUP BY nor inside an"
                        + " aggregate");
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
    void aDecimalColumnReadsExactly(@TempDir Path dir) throws Exception {
        // DuckDB writes the file: DECIMAL(10,2) as INT64 unscaled integers, DECIMAL(4,3) as INT32 ones, and
        // DECIMAL(38,2) in 16 bytes, which pushdown refuses (its values do not fit 64 bits).
        Path other = dir.resolve("prices.parquet");
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (SELECT 1.25::DECIMAL(10,2) AS price, 7 AS id, 'x' AS name,"
                    + " -0.125::DECIMAL(4,3) AS small, 123.45::DECIMAL(38,2) AS wide) TO '"
                    + other.toString().replace("'", "''")
                    + "' (FORMAT PARQUET)");
        }
        fusion.put("other/prices.parquet", other);
        PushdownResult result = engine(PushdownMode.FUSION).execute("other/prices.parquet",
                "SELECT id, price, small FROM prices WHERE price < 1.26 AND small = -0.125", PushdownMode.FUSION);
        assertThat(result.rows().getLong(0, 0)).isEqualTo(7);
        assertThat(result.rows().getDouble(1, 0)).isEqualTo(1.25);
        assertThat(result.exact(1, 0)).isEqualTo(new BigDecimal("1.25"));
        assertThat(result.exact(2, 0)).isEqualTo(new BigDecimal("-0.125"));
        assertThat(result.decimals()).containsOnlyKeys(1, 2);
        assertThatThrownBy(() -> engine(PushdownMode.FUSION).execute("other/prices.parquet",
                "SELECT SUM(wide) FROM prices", PushdownMode.FUSION))
                .hasMessage("Column wide of other/prices.parquet is DECIMAL(38,2) (wider than the 18 digits a 64-bit"
                        + " integer holds), which pushdown does not read (it reads integers, floating point, strings,"
                        + " booleans, dates and decimals)");
    }

    @Test
    void groupByMovesKeyIdsAndOnePartialPerGroup() {
        String sql = "SELECT l_returnflag, l_linestatus, SUM(l_extendedprice), MAX(l_extendedprice) FROM lineitem"
                + " WHERE l_quantity < 2 GROUP BY l_returnflag, l_linestatus";
        PushdownResult paper = engine(PushdownMode.PAPER).execute(KEY, sql, PushdownMode.PAPER);
        PushdownResult assembled = engine(PushdownMode.BASELINE).execute(KEY, sql, PushdownMode.BASELINE);
        assertThat(rows(paper)).isEqualTo(rows(assembled)).hasSize(4);
        PushdownReport report = paper.report();
        // Three rounds: five filters, ten key requests (two keys in five row groups), five aggregates (one request
        // for both aggregates of l_extendedprice).
        assertThat(report.rpcs()).isEqualTo(footerRpcs() + 20);
        List<ChunkDecision> keys = report.decisions().stream().filter(d -> d.operation().equals("group")).toList();
        assertThat(keys).hasSize(10);
        // At 2% of a row group, a key's ids and values are far smaller than its chunk; the last row group is so
        // small (175 rows) that its key chunks are smaller than the request and reply, and they are fetched.
        for (ChunkDecision key : keys) {
            long chunk = io.layoutbench.parquet.ParquetObject.open(fusion, KEY).footer().rowGroup(key.rowGroup())
                    .column(key.column()).byteRange().length();
            assertThat(key.pushedDown()).as(key.toString()).isEqualTo(key.rowGroup() < 4);
            if (key.pushedDown()) {
                assertThat(key.bytesMoved()).as(key.toString()).isLessThan(chunk);
            } else {
                assertThat(key.bytesMoved()).as(key.toString()).isEqualTo(chunk);
            }
        }
        List<ChunkDecision> partials = report.decisions().stream().filter(d -> d.operation().equals("aggregate"))
                .toList();
        assertThat(partials).hasSize(5).allMatch(ChunkDecision::pushedDown);
        long footer = footerBytes();
        assertThat((report.networkBytes() - footer) * 20).isLessThan(assembled.report().networkBytes() - footer);
        // The baseline fetched the key chunks, the filter chunks and the aggregated chunks, and nothing else.
        assertThat(assembled.report().networkBytes()).isEqualTo(baselineFooterBytes() + chunkBytes("l_quantity")
                + chunkBytes("l_returnflag") + chunkBytes("l_linestatus") + chunkBytes("l_extendedprice"));
    }

    /** An engine over the Fusion store with the operators under test, or over the baseline store for BASELINE. */
    protected final PushdownEngine engine(PushdownMode mode) {
        return mode == PushdownMode.BASELINE ? new PushdownEngine(baseline, ClusterModel.paper())
                : new PushdownEngine(fusion, ClusterModel.paper(), operators);
    }

    // ---- the oracle

    private List<List<Object>> duckDb(String sql) throws Exception {
        return duckDb(file, sql);
    }

    /**
     * DuckDB's answer to {@code sql} on {@code parquet}. A GROUP BY without ORDER BY is ordered by its keys, NULLs
     * last, as pushdown returns groups.
     */
    private List<List<Object>> duckDb(Path parquet, String sql) throws Exception {
        String query = sql.replaceFirst("FROM lineitem", "FROM " + source(parquet));
        Matcher grouped = Pattern.compile("GROUP BY ([\\w, ]+?)( LIMIT \\d+)?$").matcher(query);
        if (!query.contains("ORDER BY") && grouped.find()) {
            String keys = Arrays.stream(grouped.group(1).split(",")).map(k -> k.trim() + " NULLS LAST")
                    .collect(Collectors.joining(", "));
            query = query.substring(0, grouped.start()) + "GROUP BY " + grouped.group(1) + " ORDER BY " + keys
                    + (grouped.group(2) == null ? "" : grouped.group(2));
        }
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

    private static String source(Path parquet) {
        return "read_parquet('" + parquet.toString().replace("'", "''") + "')";
    }

    /** The rows of a result, each a list of its values. */
    protected static List<List<Object>> rows(PushdownResult result) {
        ColumnarTable table = result.rows();
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < table.rowCount(); r++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < table.schema().size(); c++) {
                row.add(normalize(result.exact(c, r)));
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
            return decimal.stripTrailingZeros();   // DECIMAL(38,2) and DECIMAL(15,2) values compare as numbers
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
