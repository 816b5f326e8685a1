package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.evaluation.tpch.TpchParquet;
import io.layoutbench.fusion.cluster.ClusterFile;
import io.layoutbench.fusion.cluster.NodeProcess;
import io.layoutbench.parquet.testing.DuckDb;

import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusion cluster start|status|stop}, {@code fusion put} and {@code fusion query} in this process, the nodes
 * as processes of their own on 127.0.0.1 (RS(3,2) over three, to start fast): the round trip, and the one-line
 * errors with their exit codes.
 */
class FusionClusterCommandsTest {

    @Test
    void malformedSqlIsOneLineNamingThePositionAndExitCode2(@TempDir Path dir) {
        CliRunner run = CliRunner.run("fusion", "query", "SELECT l_tax FROM lineitem WHERE l_tax < < 2",
                "--cluster", dir.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).containsExactly("layoutbench fusion query: Syntax error at column 42: expected an "
                + "expression but found '<'");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aMissingClusterFileIsOneLineAndExitCode2(@TempDir Path dir) {
        Path none = dir.resolve("none");
        for (String[] args : new String[][] {{"fusion", "query", "SELECT l_tax FROM lineitem", "--cluster",
                none.toString()}, {"fusion", "put", "x.parquet", "--cluster", none.toString()},
            {"fusion", "cluster", "status", "--dir", none.toString()}}) {
            CliRunner run = CliRunner.run(args);
            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.errLines()).as(String.join(" ", args)).singleElement().asString()
                    .endsWith("No cluster in " + none + ": its cluster file " + none.resolve("cluster.properties")
                            + " does not exist (start one with 'layoutbench fusion cluster start --nodes 9 --dir "
                            + none + "')");
        }
    }

    @Test
    void wrongStartOptionsAreOneLineAndExitCode2(@TempDir Path dir) {
        CliRunner ports = CliRunner.run("fusion", "cluster", "start", "--nodes", "9", "--base-port", "65530",
                "--dir", dir.toString());
        assertThat(ports.exitCode()).isEqualTo(2);
        assertThat(ports.errLines()).singleElement().asString().contains("--base-port 65530 leaves ports 65530 to "
                + "65538 for 9 nodes");
        CliRunner few = CliRunner.run("fusion", "cluster", "start", "--nodes", "5", "--dir", dir.toString());
        assertThat(few.exitCode()).isEqualTo(2);
        assertThat(few.errLines()).singleElement().asString().contains("--nodes 5 is fewer than the 9 blocks of a "
                + "RS(9,6) stripe");
        assertThat(dir.resolve("cluster.properties")).doesNotExist();
    }

    @Test
    void startOverAClusterRefusesOptionsThatDifferFromItsFile(@TempDir Path dir) {
        // Nodes that never ran (pids of ended processes are never reused this fast, and the start time is 1970).
        ClusterFile recorded = new ClusterFile("RS(3,2)", List.of(0, 1, 2).stream().map(i -> new ClusterFile.Node(
                URI.create("flight://127.0.0.1:" + (47_100 + i)), Long.MAX_VALUE - i, Instant.EPOCH,
                dir.resolve("node-" + i))).toList());
        recorded.write(dir);
        String[][] differing = {{"--nodes", "9"}, {"--code", "RS(9,6)"}, {"--host", "127.0.0.2"},
            {"--base-port", "47000"}};
        for (String[] option : differing) {
            CliRunner run = CliRunner.run("fusion", "cluster", "start", "--dir", dir.toString(), option[0], option[1]);
            assertThat(run.exitCode()).as(option[0]).isEqualTo(2);
            assertThat(run.errLines()).as(option[0]).singleElement().asString()
                    .contains(option[0] + " " + option[1] + " (", " differs from the cluster in " + dir
                            + ": 'start' restarts its nodes that are down as its cluster file says");
        }
        assertThat(ClusterFile.read(dir)).isEqualTo(recorded);
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void startPutQueryKillRestartStop(@TempDir Path dir) throws Exception {
        Path file = TpchParquet.write("lineitem", 0.002, 4_000, dir.resolve("lineitem.parquet")).file();
        String cluster = dir.resolve("cluster").toString();
        try {
            CliRunner start = CliRunner.run("fusion", "cluster", "start", "--nodes", "3", "--code", "RS(3,2)",
                    "--dir", cluster);
            assertThat(start.exitCode()).as(start.err()).isZero();
            assertThat(start.out()).contains("node 2  flight://127.0.0.1:", "3 storage nodes ready in");

            CliRunner put = CliRunner.run("fusion", "put", file.toString(), "--cluster", cluster);
            assertThat(put.exitCode()).as(put.err()).isZero();
            assertThat(put.out()).startsWith("Stored lineitem (").contains("as RS(3,2) across 3 nodes");

            String sql = "SELECT l_orderkey, l_linenumber, l_shipmode, l_extendedprice FROM lineitem "
                    + "WHERE l_orderkey = 1 LIMIT 2";
            CliRunner table = CliRunner.run("fusion", "query", sql, "--cluster", cluster);
            assertThat(table.exitCode()).as(table.err()).isZero();
            assertThat(table.out().lines().toList()).hasSize(4).first().asString()
                    .matches("l_orderkey +l_linenumber +l_shipmode +l_extendedprice");
            assertThat(table.errLines()).hasSize(2);
            assertThat(table.errLines().get(0)).startsWith("2 rows; ").contains("bytes moved", " ms");
            // The operators ran on the nodes: the nodes' links carried what was pushed down.
            assertThat(table.errLines().get(1)).matches("bytes each node's link carried: node 0 \\d+, node 1 \\d+, "
                    + "node 2 \\d+").doesNotMatch(".*node 0 0, node 1 0, node 2 0");

            CliRunner csv = CliRunner.run("fusion", "query", sql, "--cluster", cluster, "--format", "csv",
                    "--mode", "baseline");
            assertThat(csv.out().lines().toList()).hasSize(3).first()
                    .isEqualTo("l_orderkey,l_linenumber,l_shipmode,l_extendedprice");
            CliRunner json = CliRunner.run("fusion", "query", "SELECT COUNT(*), MAX(l_orderkey) FROM lineitem "
                    + "WHERE l_orderkey = 1", "--cluster", cluster, "--format", "json");
            assertThat(json.out().strip()).matches("\\[\\{\"COUNT\\(\\*\\)\":\\d+,\"MAX\\(l_orderkey\\)\":1}]");

            // The TPC-H Q1 of docs/CLI.md, and its GROUP BY with ORDER BY an aggregate and LIMIT.
            CliRunner q1 = CliRunner.run("fusion", "query", "SELECT l_returnflag, l_linestatus, SUM(l_quantity), "
                    + "SUM(l_extendedprice), SUM(l_extendedprice * (1 - l_discount)), "
                    + "SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)), AVG(l_quantity), AVG(l_extendedprice), "
                    + "AVG(l_discount), COUNT(*) FROM lineitem WHERE l_shipdate <= '1998-09-02' "
                    + "GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus", "--cluster", cluster,
                    "--format", "csv");
            assertThat(q1.exitCode()).as(q1.err()).isZero();
            assertThat(q1.out().lines().toList()).hasSizeGreaterThan(1).first().isEqualTo("l_returnflag,l_linestatus,"
                    + "SUM(l_quantity),SUM(l_extendedprice),SUM(l_extendedprice * (1 - l_discount)),"
                    + "SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)),AVG(l_quantity),AVG(l_extendedprice),"
                    + "AVG(l_discount),COUNT(*)");
            CliRunner top = CliRunner.run("fusion", "query", "SELECT l_shipmode, COUNT(*) FROM lineitem WHERE "
                    + "l_discount BETWEEN 0.05 AND 0.07 GROUP BY l_shipmode ORDER BY COUNT(*) DESC, l_shipmode LIMIT 3",
                    "--cluster", cluster, "--format", "csv");
            assertThat(top.exitCode()).as(top.err()).isZero();
            assertThat(top.out().lines().toList()).hasSize(4).first().isEqualTo("l_shipmode,COUNT(*)");

            // fusion bench on the same processes: both systems' copies under their own prefixes, wall clock added.
            CliRunner bench = CliRunner.run("fusion", "bench", "--cluster", cluster, "--scale-factor", "0.002",
                    "--row-group-rows", "3000", "--runs", "1", "--only", "tpch", "--work-dir",
                    dir.resolve("bench").toString());
            assertThat(bench.exitCode()).as(bench.err()).isZero();
            assertThat(bench.out()).contains("3 storage-node processes, RS(3,2); down: none",
                    "Fusion wall median ms", "| Q1 |", "| Q6 |");

            // DECIMAL values print to their last digit (their nearest doubles would not), and never as 1E-8.
            Path decimals = decimalParquet(dir);
            CliRunner putDecimals = CliRunner.run("fusion", "put", decimals.toString(), "--key", "decimals",
                    "--cluster", cluster);
            assertThat(putDecimals.exitCode()).as(putDecimals.err()).isZero();
            String exact = "SELECT k, d, e FROM decimals ORDER BY k";
            CliRunner decimalTable = CliRunner.run("fusion", "query", exact, "--cluster", cluster);
            assertThat(decimalTable.exitCode()).as(decimalTable.err()).isZero();
            assertThat(decimalTable.out().lines().map(String::strip).toList()).hasSize(4)
                    .anyMatch(line -> line.matches("1 +123456789012\\.345678 +0\\.00000001"))
                    .anyMatch(line -> line.matches("2 +-0\\.000001 +12\\.50000000"));
            CliRunner decimalCsv = CliRunner.run("fusion", "query", exact, "--cluster", cluster, "--format", "csv");
            assertThat(decimalCsv.out().lines().toList()).containsExactly("k,d,e",
                    "1,123456789012.345678,0.00000001", "2,-0.000001,12.50000000");
            CliRunner decimalJson = CliRunner.run("fusion", "query", "SELECT SUM(d), MIN(e), MAX(d) FROM decimals",
                    "--cluster", cluster, "--format", "json");
            assertThat(decimalJson.exitCode()).as(decimalJson.err()).isZero();
            assertThat(decimalJson.out().strip()).isEqualTo("[{\"SUM(d)\":123456789012.345677,"
                    + "\"MIN(e)\":0.00000001,\"MAX(d)\":123456789012.345678}]");

            CliRunner unknown = CliRunner.run("fusion", "query", "SELECT l_tax FROM orders", "--cluster", cluster);
            assertThat(unknown.exitCode()).isEqualTo(1);
            assertThat(unknown.errLines()).containsExactly("layoutbench fusion query: No object 'orders' in the "
                    + "cluster " + cluster + " (put one with 'layoutbench fusion put FILE --key orders --cluster "
                    + cluster + "')");

            // Two of three nodes SIGKILLed: RS(3,2) rebuilds from two blocks, so every stripe lost too many.
            ClusterFile nodes = ClusterFile.read(Path.of(cluster));
            kill(nodes.nodes().get(0).pid());
            kill(nodes.nodes().get(2).pid());
            CliRunner status = CliRunner.run("fusion", "cluster", "status", "--dir", cluster);
            assertThat(status.exitCode()).isEqualTo(1);
            assertThat(status.out()).contains("node 1  " + nodes.nodes().get(1).uri() + "  pid "
                    + nodes.nodes().get(1).pid() + "  up", "node 2  ", "down: process gone", "1 of 3 nodes up");
            CliRunner lost = CliRunner.run("fusion", "query", sql, "--cluster", cluster);
            assertThat(lost.exitCode()).isEqualTo(1);
            assertThat(lost.errLines()).singleElement().asString()
                    .startsWith("layoutbench fusion query: Object 'lineitem' cannot be read: stripe ")
                    .contains("more than RS(3,2) (at most 1 lost) rebuilds; nodes refusing connections now: node 0 ("
                            + nodes.nodes().get(0).uri() + "), node 2 (" + nodes.nodes().get(2).uri() + ")");

            // start again (--nodes as the file says, not checked against the default RS(9,6)): the two dead nodes
            // come back on their ports and serve their blocks.
            CliRunner restart = CliRunner.run("fusion", "cluster", "start", "--nodes", "3", "--dir", cluster);
            assertThat(restart.exitCode()).as(restart.err()).isZero();
            assertThat(restart.out()).contains("2 of 3 storage nodes restarted");
            assertThat(Path.of(cluster, "node-0.log.1")).as("the log of the killed node's run")
                    .content().contains("storage node ready " + nodes.nodes().get(0).uri());
            CliRunner again = CliRunner.run("fusion", "query", sql, "--cluster", cluster);
            assertThat(again.exitCode()).as(again.err()).isZero();
            assertThat(again.out()).isEqualTo(table.out());
            CliRunner running = CliRunner.run("fusion", "cluster", "start", "--dir", cluster);
            assertThat(running.exitCode()).isEqualTo(2);
            assertThat(running.errLines()).singleElement().asString().contains("already running", "all 3 nodes up");
        } finally {
            if (java.nio.file.Files.exists(ClusterFile.in(Path.of(cluster)))) {
                CliRunner stop = CliRunner.run("fusion", "cluster", "stop", "--dir", cluster);
                assertThat(stop.exitCode()).as(stop.err()).isZero();
            }
        }
        CliRunner status = CliRunner.run("fusion", "cluster", "status", "--dir", cluster);
        assertThat(status.out()).contains("0 of 3 nodes up");
        for (ClusterFile.Node node : ClusterFile.read(Path.of(cluster)).nodes()) {
            assertThat(NodeProcess.isRunning(node.pid(), node.started())).as("node %s", node.uri()).isFalse();
        }
    }

    /** Two rows of DECIMAL(18,6) and DECIMAL(18,8) values that doubles do not hold, written by DuckDB. */
    private static Path decimalParquet(Path dir) throws Exception {
        Path file = dir.resolve("decimals.parquet");
        try (Connection duckdb = DuckDb.connect(dir);
                Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (SELECT CAST(k AS BIGINT) AS k, CAST(d AS DECIMAL(18,6)) AS d, "
                    + "CAST(e AS DECIMAL(18,8)) AS e FROM (VALUES (1, '123456789012.345678', '0.00000001'), "
                    + "(2, '-0.000001', '12.5')) AS t(k, d, e)) TO '" + file.toString().replace("'", "''")
                    + "' (FORMAT PARQUET)");
        }
        return file;
    }

    private static void kill(long pid) {
        ProcessHandle.of(pid).ifPresent(process -> {
            process.destroyForcibly();
            process.onExit().join();
        });
    }
}
