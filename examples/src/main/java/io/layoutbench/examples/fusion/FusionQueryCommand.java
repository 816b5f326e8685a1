package io.layoutbench.examples.fusion;

import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.SelectStatement;
import io.layoutbench.examples.cli.LayoutBenchCli;
import io.layoutbench.fusion.cluster.ClusterFile;
import io.layoutbench.fusion.cluster.FlightNodeOperators;
import io.layoutbench.fusion.pushdown.ClusterModel;
import io.layoutbench.fusion.pushdown.PushdownEngine;
import io.layoutbench.fusion.pushdown.PushdownMode;
import io.layoutbench.fusion.pushdown.PushdownReport;
import io.layoutbench.fusion.pushdown.PushdownResult;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacManifest;
import io.layoutbench.fusion.store.StripeUnavailableException;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusion query SQL --cluster DIR}: runs SQL on an object of a running cluster with Fusion's pushdown engine
 * (the coordinator in this process, blocks read from the node processes over Flight) and prints the rows; one line
 * on standard error says what it moved and how long it took.
 *
 * <pre>
 * layoutbench fusion query "SELECT l_orderkey, l_tax FROM lineitem WHERE l_quantity < 2 LIMIT 5" --cluster cluster
 * layoutbench fusion query "SELECT COUNT(*), SUM(l_tax) FROM lineitem" --cluster cluster --format json
 * layoutbench fusion query "SELECT l_returnflag, l_linestatus, SUM(l_quantity),
 *     SUM(l_extendedprice * (1 - l_discount)), AVG(l_discount), COUNT(*) FROM lineitem
 *     WHERE l_shipdate &lt;= '1998-09-02' GROUP BY l_returnflag, l_linestatus
 *     ORDER BY l_returnflag, l_linestatus" --cluster cluster              (TPC-H Q1's shape)
 * </pre>
 *
 * <p>The SQL: {@code SELECT items FROM key [WHERE ...] [GROUP BY column, ...] [ORDER BY item [ASC|DESC], ...]
 * [LIMIT n]}. Items are columns, {@code *}, or {@code COUNT(*)} and COUNT, SUM, MIN, MAX, AVG of a column or of
 * arithmetic on columns; no {@code AS} aliases. WHERE is the predicate language (comparisons, {@code x BETWEEN a AND
 * b}, IN, LIKE, arithmetic, AND, OR, NOT); DATE columns compare with ISO strings ({@code l_shipdate <= '1998-09-02'}:
 * no {@code DATE '...'}, no INTERVAL). DECIMAL values, their SUM, MIN, MAX and arithmetic print exactly
 * ({@link ResultFormat}).
 *
 * <p>Exit codes: 0 with the rows; 2 for SQL that does not parse or names an unknown column (one line naming the
 * position), or a missing cluster file; 1 for an object not in the cluster or stripes with too many nodes down.
 */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Run SELECT items FROM key [WHERE ...] [GROUP BY column, ...] [ORDER BY item [ASC|DESC], "
                + "...] [LIMIT n] on an object put into the cluster; the key is the name after FROM (double-quote it "
                + "if it holds dots or slashes).",
            "Items: columns, *, COUNT(*), and COUNT, SUM, MIN, MAX, AVG of a column or of arithmetic on columns "
                + "(SUM(l_extendedprice * (1 - l_discount))); no AS aliases. WHERE: comparisons, x BETWEEN a AND b, "
                + "IN, LIKE, AND, OR, NOT; dates as ISO strings (l_shipdate <= '1998-09-02'; no DATE '...', no "
                + "INTERVAL). DECIMAL values print exactly.",
            "Prints the rows, then on standard error the rows, bytes moved, plan and time, and the bytes each "
                + "node's link carried."})
final class FusionQueryCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ClusterOption cluster = new ClusterOption();

    @Parameters(index = "0", paramLabel = "SQL", description = "The query.")
    String sql;

    @Option(names = "--mode", defaultValue = "fusion", description = "fusion (pushdown or fetch, chosen per "
            + "query; the default), baseline (every chunk fetched to this process), paper (always pushdown), push_all.")
    PushdownMode mode;

    @Option(names = "--format", defaultValue = "table", description = "table (the default), csv or json.")
    ResultFormat format;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String key;
        try {
            key = SelectStatement.parse(sql).from();
        } catch (PredicateException e) {
            return fail(err, firstLine(e), LayoutBenchCli.EXIT_USAGE);
        }
        ClusterFile nodes = cluster.read();
        long started = System.nanoTime();
        PushdownResult result;
        FacManifest manifest = null;
        try (FacBackend store = cluster.store(nodes);
                FlightNodeOperators operators = cluster.operators(nodes, "", store.options())) {
            try {
                manifest = store.manifest(key);
            } catch (ObjectNotFoundException e) {
                return fail(err, "No object '" + key + "' in the cluster " + cluster.dir + " (put one with "
                        + "'layoutbench fusion put FILE --key " + key + " --cluster " + cluster.dir + "')",
                        LayoutBenchCli.EXIT_FAILURE);
            } catch (StorageException e) {
                List<String> down = ClusterOption.down(nodes);
                if (down.isEmpty()) {
                    throw e;
                }
                return fail(err, "The manifest of '" + key + "' cannot be read from any node that answers; nodes "
                        + "refusing connections now: " + String.join(", ", down), LayoutBenchCli.EXIT_FAILURE);
            }
            result = new PushdownEngine(store, ClusterModel.paper(), operators).execute(key, sql, mode);
        } catch (PredicateException e) {
            return fail(err, firstLine(e), LayoutBenchCli.EXIT_USAGE);
        } catch (RuntimeException e) {
            StripeUnavailableException lost = causeOf(e, StripeUnavailableException.class);
            if (lost == null) {
                throw e;
            }
            List<String> down = ClusterOption.down(nodes);
            String code = manifest == null ? "its code" : manifest.code() + " (at most "
                    + manifest.code().parityBlocks() + " lost)";
            fail(err, "Object '" + key + "' cannot be read: stripe " + lost.stripe() + " lost its blocks on nodes "
                    + lost.missingNodes() + ", more than " + code + " rebuilds; nodes refusing connections now: "
                    + (down.isEmpty() ? "none" : String.join(", ", down)), LayoutBenchCli.EXIT_FAILURE);
            if (spec.root().userObject() instanceof LayoutBenchCli root && root.verbose()) {
                lost.printStackTrace(err);
            }
            return LayoutBenchCli.EXIT_FAILURE;
        }
        double millis = (System.nanoTime() - started) / 1e6;
        List<String> labels = result.labels().size() == result.rows().schema().columns().size() ? result.labels()
                : result.rows().schema().columns().stream().map(c -> c.name()).collect(Collectors.toList());
        format.print(labels, result, out);
        PushdownReport report = result.report();
        err.printf(Locale.ROOT, "%d rows; %d bytes moved (%d to the coordinator, %d to nodes, %d between nodes) in "
                + "%d RPCs; %s plan, %d degraded chunks; %.0f ms%n", result.rows().rowCount(),
                report.networkBytes(), report.bytesToCoordinator(), report.bytesToNodes(), report.bytesBetweenNodes(),
                report.rpcs(), report.plan().kind().label(), report.degradedChunks(), millis);
        StringBuilder links = new StringBuilder("bytes each node's link carried:");
        for (int node = 0; node < report.bytesPerNode().size(); node++) {
            links.append(node == 0 ? " " : ", ").append("node ").append(node).append(' ')
                    .append(report.bytesPerNode().get(node));
        }
        err.println(links);
        err.flush();
        return 0;
    }

    private static <T extends Throwable> T causeOf(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private int fail(PrintWriter err, String message, int exitCode) {
        err.println(spec.qualifiedName() + ": " + message);
        err.flush();
        return exitCode;
    }

    /** The parser's first line ("Syntax error at column 14: expected ..."), without its excerpt and caret. */
    private static String firstLine(PredicateException e) {
        String message = String.valueOf(e.getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
