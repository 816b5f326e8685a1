package io.layoutbench.examples.fusion;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.evaluation.tpch.TpchParquet;
import io.layoutbench.fusion.cluster.ClusterFile;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.pushdown.ClusterModel;
import io.layoutbench.fusion.pushdown.LocalNodeOperators;
import io.layoutbench.fusion.pushdown.NodeOperators;
import io.layoutbench.fusion.pushdown.PushdownEngine;
import io.layoutbench.fusion.pushdown.PushdownMode;
import io.layoutbench.fusion.pushdown.PushdownReport;
import io.layoutbench.fusion.pushdown.PushdownResult;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;
import io.layoutbench.fusion.store.PrefixedBackend;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code fusion bench}: the Fusion paper's evaluation of query pushdown on TPC-H lineitem, Fusion against the
 * baseline (fixed-size blocks reassembled at the coordinator), side by side in one run.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Fusion against the baseline on TPC-H lineitem (Snappy, dictionary): SELECT col FROM lineitem "
                + "WHERE col < v at 1%% selectivity for every column; a selectivity sweep on l_extendedprice and "
                + "l_linestatus (the paper's columns 5 and 9); TPC-H Q1 and Q6 whole (GROUP BY, sums). Median "
                + "and p99 modelled latency over --runs runs (the two systems in turn, each first every other run), "
                + "the median cut with a 95%% bootstrap interval (from 10 runs on), and the bytes that crossed the "
                + "network.",
            "Both stores are RS(9,6) over nine directories; Fusion's with FAC (no chunk split), the baseline's with "
                    + "fixed blocks. Storage nodes run in-process, timed one operation at a time; the network is "
                    + "modelled (--link-gbps, --rpc-micros). With --cluster the blocks live on a cluster's node "
                    + "processes and are read over Arrow Flight; operators still run in this process, and the tables "
                    + "add wall-clock times."})
final class FusionBenchCommand implements Callable<Integer> {

    private static final String KEY = "tpch/lineitem.parquet";
    private static final List<Double> SWEEP = List.of(0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 1.00);
    /** Resamples of the runs for a median cut's interval; a fixed seed: the same runs give the same interval. */
    private static final int BOOTSTRAP_RESAMPLES = 2000;
    private static final long BOOTSTRAP_SEED = 20261203L;
    /** Fewest runs a median cut's interval is given for. */
    static final int MIN_RUNS_FOR_INTERVAL = 10;

    @Spec
    CommandSpec spec;

    @Option(names = "--scale-factor", defaultValue = "1",
            description = "TPC-H scale factor (default: ${DEFAULT-VALUE}).")
    double scaleFactor;

    @Option(names = "--row-group-rows", defaultValue = "2000000",
            description = "Rows per row group (default: ${DEFAULT-VALUE}: three row groups of about 69 MB at SF 1).")
    int rowGroupRows;

    @Option(names = "--runs", defaultValue = "20", description = "Measured runs per query and system "
            + "(default: ${DEFAULT-VALUE}), after two warm-up runs.")
    int runs;

    @Option(names = "--work-dir", defaultValue = "layoutbench-data/fusion",
            description = "Where the Parquet file and the nodes' directories go (default: ${DEFAULT-VALUE}).")
    Path workDir;

    @Option(names = "--link-gbps", defaultValue = "25", description = "Link bandwidth of every machine "
            + "(default: the paper's ${DEFAULT-VALUE}).")
    double linkGbps;

    @Option(names = "--rpc-micros", defaultValue = "100", description = "Cost of one RPC (default: ${DEFAULT-VALUE}).")
    long rpcMicros;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the tables to FILE.")
    Path markdown;

    @Option(names = "--only", description = "Run only: micro, sweep or tpch.")
    String only;

    @Option(names = "--cluster", paramLabel = "DIR", description = "Run on the storage-node processes of a cluster "
            + "('fusion cluster start --dir DIR') instead of nine directories: block reads go over Arrow Flight, and "
            + "the tables add wall-clock latency beside the modelled one. Nodes down stay down (kill some to measure "
            + "degraded reads); the object is put while all are up.")
    Path cluster;

    @Option(names = "--call-timeout", defaultValue = "30", paramLabel = "SECONDS",
            description = "With --cluster: deadline of each call to a node (default: ${DEFAULT-VALUE}).")
    int callTimeoutSeconds;

    @Option(names = "--fusion-mode", defaultValue = "FUSION", description = "How the Fusion side runs: FUSION "
            + "(chooses pushdown or fetch per query, the default), PAPER (always pushdown, as in the paper), PUSH_ALL "
            + "or BASELINE (on the FAC store: the fetch plan every time).")
    PushdownMode fusionMode;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (only != null && !List.of("micro", "sweep", "tpch").contains(only)) {
            throw new ParameterException(spec.commandLine(), "Unknown --only '" + only
                    + "': use micro, sweep or tpch");
        }
        if (runs < 1 || scaleFactor <= 0 || rowGroupRows < 1) {
            throw new ParameterException(spec.commandLine(), "--runs and --row-group-rows must be >= 1 and "
                    + "--scale-factor > 0");
        }
        // The cluster file first: a missing cluster is said before minutes of generating lineitem.
        ClusterFile nodes = cluster == null ? null : ClusterOption.read(cluster);
        Path file = workDir.resolve(String.format(Locale.ROOT, "lineitem-sf%s-rg%d.parquet",
                trim(scaleFactor), rowGroupRows));
        if (!Files.exists(file)) {
            out.println("Generating TPC-H lineitem at SF " + trim(scaleFactor) + " into " + file + " ...");
            out.flush();
            TpchParquet.write("lineitem", scaleFactor, rowGroupRows, file);
        }
        out.printf(Locale.ROOT, "lineitem: %s, %.1f MB%n", file, Files.size(file) / 1e6);
        ClusterModel network = new ClusterModel(linkGbps, Duration.ofNanos(rpcMicros * 1000));
        StringBuilder tables = new StringBuilder();
        if (nodes != null) {
            List<String> down = ClusterOption.down(nodes);
            out.printf(Locale.ROOT, "Cluster %s: %d storage-node processes, %s; down: %s%n", cluster,
                    nodes.nodes().size(), nodes.code(), down.isEmpty() ? "none" : String.join(", ", down));
        }
        CodeParameters rs = nodes == null ? FacOptions.defaults().code() : CodeParameters.parse(nodes.code());
        FacOptions code = FacOptions.builder().code(rs).build();
        FacOptions fixed = FacOptions.builder().code(rs).overheadBudget(0).build();
        try (FacBackend fusion = store(nodes, "fusion-nodes", code, file);
                FacBackend baseline = store(nodes, "baseline-nodes", fixed, file);
                NodeOperators fusionOperators = operators(nodes, "fusion-nodes", fusion);
                NodeOperators baselineOperators = operators(nodes, "baseline-nodes", baseline)) {
            out.printf(Locale.ROOT, "Fusion store: %s, extra overhead %.2f%%; baseline: %s, %d MiB blocks%n",
                    fusion.manifest(KEY).strategy(), 100 * fusion.manifest(KEY).extraOverhead(),
                    baseline.manifest(KEY).strategy(), FacOptions.defaults().fixedBlockSize() >> 20);
            Bench bench = new Bench(new PushdownEngine(fusion, network, fusionOperators),
                    new PushdownEngine(baseline, network, baselineOperators),
                    out, tables, nodes != null);
            long rows = bench.count();
            if (only == null || only.equals("micro")) {
                bench.header("Microbenchmark: SELECT col FROM lineitem WHERE col < v, about 1% of rows");
                for (String column : columns(fusion)) {
                    bench.run(column, "SELECT " + column + " FROM lineitem WHERE " + bench.below(column, 0.01),
                            rows);
                }
            }
            if (only == null || only.equals("sweep")) {
                for (String column : List.of("l_extendedprice", "l_linestatus")) {
                    bench.header("Selectivity sweep on " + column);
                    for (double selectivity : SWEEP) {
                        String where = selectivity >= 1.0 ? ""
                                : " WHERE " + bench.below("l_extendedprice", selectivity);
                        bench.run(column + " at " + Math.round(selectivity * 100) + "%",
                                "SELECT " + column + " FROM lineitem" + where, rows);
                    }
                }
            }
            if (only == null || only.equals("tpch")) {
                bench.header("TPC-H Q1 and Q6, whole: filter, GROUP BY and sums (partials on the nodes), ORDER BY");
                String q1Where = " WHERE l_shipdate <= '1998-09-02'";
                bench.run("Q1", "SELECT l_returnflag, l_linestatus, SUM(l_quantity), SUM(l_extendedprice), "
                        + "SUM(l_extendedprice * (1 - l_discount)), SUM(l_extendedprice * (1 - l_discount) * "
                        + "(1 + l_tax)), AVG(l_quantity), AVG(l_extendedprice), AVG(l_discount), COUNT(*) "
                        + "FROM lineitem" + q1Where + " GROUP BY l_returnflag, l_linestatus "
                        + "ORDER BY l_returnflag, l_linestatus", rows, bench.count(q1Where));
                String q6Where = " WHERE l_shipdate >= '1994-01-01' AND l_shipdate < '1995-01-01' "
                        + "AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24";
                bench.run("Q6", "SELECT SUM(l_extendedprice * l_discount) FROM lineitem" + q6Where, rows,
                        bench.count(q6Where));
            }
            bench.plans();
        }
        if (markdown != null) {
            Files.writeString(markdown, tables.toString());
            out.println("Wrote " + markdown);
        }
        return 0;
    }

    private static List<String> columns(FacBackend store) {
        ColumnarTable one = new PushdownEngine(store, ClusterModel.paper())
                .execute(KEY, "SELECT * FROM lineitem LIMIT 1", PushdownMode.BASELINE).rows();
        return one.schema().columns().stream().map(c -> c.name()).toList();
    }

    /**
     * Where one system's operators run: in this process, or on a cluster on the node processes, each reading its
     * blocks under {@code name/}.
     */
    private NodeOperators operators(ClusterFile cluster, String name, FacBackend store) {
        return cluster == null ? LocalNodeOperators.of(store)
                : ClusterOption.operators(cluster, name, store.options(), callTimeoutSeconds);
    }

    /**
     * A store of its own for one system: nine directories under the work directory, or, on a cluster, its nodes
     * with every key under {@code name/}, so Fusion's copy and the baseline's share the processes, not the keys.
     */
    private FacBackend store(ClusterFile cluster, String name, FacOptions options, Path file) {
        List<ObjectBackend> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < (cluster == null ? 9 : cluster.nodes().size()); i++) {
                nodes.add(cluster == null ? new FileBackend(workDir.resolve(name).resolve("node-" + i))
                        : PrefixedBackend.owning(ObjectBackends.open(cluster.nodes().get(i).uri(),
                                Map.of("callTimeout", callTimeoutSeconds + "s"), RequestMetrics.NONE), name));
            }
        } catch (RuntimeException e) {
            nodes.forEach(ObjectBackend::close);
            throw e;
        }
        FacBackend store = FacBackend.create(nodes, options, true);
        try {
            if (!store.exists(KEY) || store.size(KEY) != sizeOf(file)) {
                store.put(KEY, file);
            }
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    /** Runs queries on both stores and prints one table row per query. */
    private final class Bench {
        private final PushdownEngine fusion;
        private final PushdownEngine baseline;
        private final PrintWriter out;
        private final StringBuilder tables;
        private final List<String> plans = new ArrayList<>();

        /** Whether rows also give wall-clock times: on a cluster, where block reads cross real sockets. */
        private final boolean wallClock;

        Bench(PushdownEngine fusion, PushdownEngine baseline, PrintWriter out, StringBuilder tables,
                boolean wallClock) {
            this.fusion = fusion;
            this.baseline = baseline;
            this.out = out;
            this.tables = tables;
            this.wallClock = wallClock;
        }

        long count() {
            ColumnarTable count = fusion.execute(KEY, "SELECT COUNT(*) FROM lineitem", PushdownMode.FUSION).rows();
            return count.getLong(0, 0);
        }

        /**
         * {@code column < v}, with v the smallest sampled value above the {@code fraction} quantile, so that at least
         * about {@code fraction} of the rows match (more on columns of few distinct values: l_linenumber < 2 is 25%).
         * The sample is the rows of a few suppliers: l_suppkey is uniform and independent of the columns but
         * l_partkey.
         */
        String below(String column, double fraction) {
            long suppliers = Math.round(10_000 * scaleFactor);
            // TPC-H draws both keys uniformly (and derives l_suppkey from l_partkey): their quantiles are known.
            if (column.equals("l_suppkey")) {
                return column + " < " + Math.max(2, Math.round(suppliers * fraction) + 1);
            }
            if (column.equals("l_partkey")) {
                return column + " < " + Math.max(2, Math.round(200_000 * scaleFactor * fraction) + 1);
            }
            long sampled = Math.max(1, Math.round(suppliers * 0.003));
            ColumnarTable sample = fusion.execute(KEY, "SELECT " + column + " FROM lineitem WHERE l_suppkey <= "
                    + sampled, PushdownMode.FUSION).rows();
            Object[] values = new Object[sample.rowCount()];
            for (int i = 0; i < values.length; i++) {
                values[i] = sample.get(0, i);
            }
            Arrays.sort(values);
            int at = Math.min(values.length - 1, (int) Math.floor(fraction * values.length));
            Object quantile = values[at];
            while (at < values.length && values[at].equals(quantile)) {
                at++;
            }
            boolean string = sample.schema().columns().get(0).type() == ColumnType.STRING;
            Object v = at < values.length ? values[at] : quantile;
            String literal = string ? "'" + ((String) v).replace("'", "''") + "'" : v.toString();
            return column + (at < values.length ? " < " : " <= ") + literal;
        }

        void header(String title) {
            String head = "\n### " + title + "\n\n| query | selectivity | Fusion median ms | Fusion p99 ms | "
                    + "baseline median ms | baseline p99 ms | median cut | median cut, 95% interval | p99 cut | "
                    + "Fusion MB | baseline MB | traffic ratio | projections pushed / fetched | plan |"
                    + (wallClock ? " Fusion wall median ms | Fusion wall p99 ms | baseline wall median ms | "
                            + "baseline wall p99 ms |" : "") + "\n"
                    + "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"
                    + (wallClock ? "--:|--:|--:|--:|" : "");
            out.println(head);
            out.flush();
            tables.append(head).append('\n');
        }

        void run(String name, String sql, long rows) {
            run(name, sql, rows, -1);
        }

        /** Rows of lineitem that {@code where} selects, for a query whose result is not its selected rows. */
        long count(String where) {
            return fusion.execute(KEY, "SELECT COUNT(*) FROM lineitem" + where, PushdownMode.BASELINE).rows()
                    .getLong(0, 0);
        }

        /**
         * Times {@code sql} on both systems; {@code selected} is the rows it selects when its result is not those
         * rows (GROUP BY, aggregates), -1 when it is.
         */
        void run(String name, String sql, long rows, long selected) {
            for (int i = 0; i < 2; i++) {
                fusion.execute(KEY, sql, fusionMode);
                baseline.execute(KEY, sql, PushdownMode.BASELINE);
            }
            long[] fusionNanos = new long[runs];
            long[] baselineNanos = new long[runs];
            long[] fusionWall = new long[runs];
            long[] baselineWall = new long[runs];
            PushdownResult fused = null;
            PushdownReport assembled = null;
            for (int r = 0; r < runs; r++) {
                // Each system goes first in every other pair, so that neither always inherits the other's garbage
                // or warms the caches for it.
                for (int turn = 0; turn < 2; turn++) {
                    long start = System.nanoTime();
                    if ((turn == 0) == (r % 2 == 0)) {
                        fused = fusion.execute(KEY, sql, fusionMode);
                        fusionWall[r] = System.nanoTime() - start;
                        fusionNanos[r] = fused.report().latency().toNanos();
                    } else {
                        assembled = baseline.execute(KEY, sql, PushdownMode.BASELINE).report();
                        baselineWall[r] = System.nanoTime() - start;
                        baselineNanos[r] = assembled.latency().toNanos();
                    }
                }
            }
            PushdownReport report = fused.report();
            double fm = percentile(fusionNanos, 0.5);
            double fp = percentile(fusionNanos, 0.99);
            double bm = percentile(baselineNanos, 0.5);
            double bp = percentile(baselineNanos, 0.99);
            double[] cut = medianCutInterval(fusionNanos, baselineNanos);
            String interval = cut == null ? "n/a" : String.format(Locale.ROOT, "%.0f%% to %.0f%%", 100 * cut[0],
                    100 * cut[1]);
            String row = String.format(Locale.ROOT, "| %s | %.2f%% | %.1f | %.1f | %.1f | %.1f | %.0f%% | %s | "
                    + "%.0f%% | %.2f | %.2f | %.1fx | %d / %d | %s |", name,
                    100.0 * (selected < 0 ? fused.rows().rowCount() : selected) / rows, fm / 1e6,
                    fp / 1e6, bm / 1e6, bp / 1e6, 100 * (1 - fm / bm), interval,
                    100 * (1 - fp / bp),
                    report.networkBytes() / 1e6, assembled.networkBytes() / 1e6,
                    (double) assembled.networkBytes() / report.networkBytes(), report.projectionsPushed(),
                    report.projectionsFetched(), report.plan().kind().label())
                    + (wallClock ? String.format(Locale.ROOT, " %.1f | %.1f | %.1f | %.1f |",
                            percentile(fusionWall, 0.5) / 1e6, percentile(fusionWall, 0.99) / 1e6,
                            percentile(baselineWall, 0.5) / 1e6, percentile(baselineWall, 0.99) / 1e6) : "");
            plans.add(name + ": " + report.plan());
            out.println(row);
            out.flush();
            tables.append(row).append('\n');
        }

        /** Why each query ran as it did, after the tables. */
        void plans() {
            String text = "\n### Plans chosen, with the estimates they were chosen on\n\n" + plans.stream()
                    .map(p -> "- " + p).collect(java.util.stream.Collectors.joining("\n"));
            out.println(text);
            out.flush();
            tables.append(text).append('\n');
        }

        /**
         * A 95% interval of the median cut (1 - Fusion's median / the baseline's), by the percentile bootstrap over
         * the runs, each run's pair of measurements resampled together (they ran side by side, so the machine's slow
         * moments hit both). It says how far this machine's noise lets the cut be read. Null below 10 runs
         * ({@code MIN_RUNS_FOR_INTERVAL}), where resampling the median says little.
         */
        static double[] medianCutInterval(long[] fusionNanos, long[] baselineNanos) {
            if (fusionNanos.length < MIN_RUNS_FOR_INTERVAL) {
                return null;
            }
            int n = fusionNanos.length;
            double[] cuts = new double[BOOTSTRAP_RESAMPLES];
            SplittableRandom random = new SplittableRandom(BOOTSTRAP_SEED);
            long[] f = new long[n];
            long[] b = new long[n];
            for (int i = 0; i < cuts.length; i++) {
                for (int j = 0; j < n; j++) {
                    int run = random.nextInt(n);
                    f[j] = fusionNanos[run];
                    b[j] = baselineNanos[run];
                }
                cuts[i] = 1 - percentile(f, 0.5) / percentile(b, 0.5);
            }
            Arrays.sort(cuts);
            int last = cuts.length - 1;
            return new double[] {cuts[(int) (0.025 * last)], cuts[(int) Math.ceil(0.975 * last)]};
        }

        private static double percentile(long[] values, double p) {
            long[] sorted = values.clone();
            Arrays.sort(sorted);
            int index = (int) Math.ceil(p * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
        }
    }

}
