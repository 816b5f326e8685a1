package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.abort;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.evaluation.tpch.TpchParquet;
import io.layoutbench.fusion.pushdown.ClusterModel;
import io.layoutbench.fusion.pushdown.NodeOperators;
import io.layoutbench.fusion.pushdown.PushdownEngine;
import io.layoutbench.fusion.pushdown.PushdownMode;
import io.layoutbench.fusion.pushdown.PushdownResult;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;
import io.layoutbench.fusion.store.StripeUnavailableException;

import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fusion's query engine over nine storage nodes that are separate processes on 127.0.0.1, its operators running on the
 * node processes ({@link FlightNodeOperators}), one of them SIGKILLed during a query: a node process is killed when the
 * query's third operator is sent to it (a test decorator on the coordinator's side, so the moment is deterministic),
 * the operator goes to a stand-in that rebuilds the chunk, and the query still returns exactly the rows it returns with
 * every node up; so does a query whose fifth block read reaches a node killed then. With four nodes killed (RS(9,6)
 * tolerates three) the query fails naming the stripe and the nodes; a killed node restarted on its directory and port
 * serves again. No sleeps: the processes are waited for by their ready lines and their exits.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NodeProcessKillTest {

    private static final String KEY = "tpch/lineitem.parquet";
    private static final String SQL = "SELECT l_orderkey, l_linenumber, l_extendedprice, l_shipdate, l_comment "
            + "FROM lineitem WHERE l_quantity < 5 AND l_discount >= 0.05";
    /** Long enough for a cold JVM on a busy machine; a killed node refuses at once, so it is never waited out. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private Path dir;
    private final List<NodeProcess> processes = new ArrayList<>();
    private final List<KillOnRead> nodes = new ArrayList<>();
    /** Calls to the nodes that failed because they ran over CALL_TIMEOUT (gRPC's DEADLINE_EXCEEDED). */
    private final AtomicInteger deadlines = new AtomicInteger();
    private FacBackend fac;
    /** The operator (counted from 1 in a query) that SIGKILLs its node before it is sent; 0 for none. */
    private volatile int killAtOperator;
    private List<List<Object>> allUp;

    @BeforeAll
    void startNodesAndPut(@TempDir Path dir) {
        this.dir = dir;
        Path file = TpchParquet.write("lineitem", 0.01, 15_000, dir.resolve("lineitem.parquet")).file();
        processes.addAll(LocalCluster.start(dir.resolve("cluster"), 9, "127.0.0.1", 0, Duration.ofSeconds(120)));
        for (NodeProcess process : processes) {
            nodes.add(new KillOnRead(new FlightNodeBackend(process.uri(),
                    FlightNodeBackend.Options.defaults().withCallTimeout(CALL_TIMEOUT), RequestMetrics.NONE),
                    process, deadlines));
        }
        fac = FacBackend.create(nodes, FacOptions.defaults(), true);
        fac.put(KEY, file);
        allUp = rows(query(PushdownMode.FUSION));
    }

    @Test
    @Order(0)
    void aNodeKilledWhileOperatorsRunOnTheNodesChangesNoRow() {
        assertThat(rows(query(PushdownMode.PAPER))).as("pushdown on the nodes, all up").isEqualTo(allUp);
        killAtOperator = 3;

        PushdownResult result = query(PushdownMode.PAPER);

        List<Integer> killed = killedNodes();
        assertThat(killed).as("one node process SIGKILLed during the query").hasSize(1);
        assertThat(rows(result.rows())).isEqualTo(allUp);
        assertThat(result.report().degradedChunks()).as("chunks a stand-in rebuilt").isPositive();
        assertThat(deadlines).as("calls that ended at their deadline").hasValue(0);
        // The node is still down; a later query's operators for it go to stand-ins, as does the next test's.
        assertThat(rows(query(PushdownMode.PAPER))).isEqualTo(allUp);
        restart(killed);
    }

    @AfterAll
    void stopNodes() {
        try {
            if (fac != null) {
                fac.close();
            }
        } finally {
            processes.forEach(NodeProcess::kill);
        }
    }

    @Test
    @Order(1)
    void aNodeKilledDuringTheQueryChangesNoRow() {
        assertThat(allUp).hasSizeGreaterThan(100);
        assertThat(rows(query(PushdownMode.BASELINE))).as("baseline, all nodes up").isEqualTo(allUp);
        long degradedBefore = fac.statistics().degradedReads();
        AtomicInteger reads = new AtomicInteger();
        nodes.forEach(node -> node.killAtRead(reads, 5));

        // The baseline fetches every chunk here: the coordinator's own block reads meet the dead node.
        PushdownResult result = query(PushdownMode.BASELINE);

        List<Integer> killed = killedNodes();
        assertThat(killed).as("one node process SIGKILLed during the query").hasSize(1);
        assertThat(processes.get(killed.get(0)).exitCode()).as("exit code of SIGKILL").isEqualTo(137);
        assertThat(rows(result.rows())).isEqualTo(allUp);
        // The dead node refuses at once: no call to it, or to any node, waited out its deadline.
        assertThat(deadlines).as("calls that ended at their deadline").hasValue(0);
        assertThat(fac.statistics().degradedReads() - degradedBefore).as("reads rebuilt from other blocks")
                .isPositive();
        // Later queries, with the node still dead, answer the same.
        assertThat(rows(query(PushdownMode.BASELINE))).isEqualTo(allUp);
    }

    @Test
    @Order(2)
    void moreNodesKilledThanTheCodeToleratesIsOneErrorNamingTheStripeAndNodes() {
        List<Integer> killed = new ArrayList<>(killedNodes());
        for (int i = 0; killed.size() < 4; i++) {
            if (!killed.contains(i)) {
                processes.get(i).kill();
                killed.add(i);
            }
        }

        assertThatThrownBy(() -> query(PushdownMode.FUSION))
                .satisfies(e -> {
                    StripeUnavailableException lost = cause(e, StripeUnavailableException.class);
                    assertThat(lost).as("cause of %s", e).isNotNull();
                    assertThat(lost.key()).isEqualTo(KEY);
                    assertThat(lost.missingNodes()).hasSizeGreaterThan(3).isSubsetOf(killed);
                    assertThat(lost.getMessage()).contains(KEY, "stripe " + lost.stripe())
                            .contains(processes.get(lost.missingNodes().get(0)).uri().toString());
                });
    }

    @Test
    @Order(3)
    void killedNodesRestartedOnTheirDirectoriesAndPortsServeAgain() {
        List<Integer> killed = killedNodes();
        assertThat(killed).isNotEmpty();
        restart(killed);
        long degradedBefore = fac.statistics().degradedReads();

        PushdownResult pushed = query(PushdownMode.PAPER);
        assertThat(rows(pushed)).isEqualTo(allUp);
        assertThat(pushed.report().degradedChunks()).as("chunks rebuilt by a stand-in").isZero();
        assertThat(rows(query(PushdownMode.FUSION))).isEqualTo(allUp);
        assertThat(rows(query(PushdownMode.BASELINE))).isEqualTo(allUp);
        assertThat(fac.statistics().degradedReads() - degradedBefore).as("every block read from its own node")
                .isZero();
    }

    /** Restarts the {@code killed} nodes on their directories and ports. */
    private void restart(List<Integer> killed) {
        // All launched first, then waited for: the JVMs start side by side.
        Map<Integer, NodeProcess> restarted = new TreeMap<>();
        for (int i : killed) {
            NodeProcess launched = NodeProcess.launch(processes.get(i).settings(),
                    LocalCluster.log(dir.resolve("cluster"), i));
            // Known to stopNodes at once: a later launch or wait that fails leaves no JVM behind.
            processes.set(i, launched);
            restarted.put(i, launched);
        }
        restarted.forEach((i, process) -> {
            awaitRestart(process);
            nodes.get(i).process = process;
        });
    }

    /** Waits for a node restarted on its old port; aborts the test, not fails it, if another socket took the port. */
    private static void awaitRestart(NodeProcess restarted) {
        try {
            restarted.awaitReady(Duration.ofSeconds(60));
        } catch (StorageException e) {
            if (NodeProcess.accepts(restarted.settings().host(), restarted.settings().port(), Duration.ofSeconds(1))) {
                abort("Port " + restarted.settings().port() + " of the killed node was taken by another program: "
                        + e.getMessage());
            }
            throw e;
        }
    }

    private List<Integer> killedNodes() {
        List<Integer> killed = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++) {
            if (!processes.get(i).isAlive()) {
                killed.add(i);
            }
        }
        return killed;
    }

    /**
     * Runs the query with its operators on the node processes; the operator numbered {@link #killAtOperator} (if
     * set) first SIGKILLs the process of the node it is sent to, and waits until it is gone.
     */
    private PushdownResult query(PushdownMode mode) {
        List<URI> uris = processes.stream().map(NodeProcess::uri).toList();
        AtomicInteger sent = new AtomicInteger();
        try (FlightNodeOperators operators = FlightNodeOperators.open(uris, "", fac.options(),
                FlightNodeBackend.Options.defaults().withCallTimeout(CALL_TIMEOUT))) {
            NodeOperators killing = (node, operation) -> {
                if (sent.incrementAndGet() == killAtOperator) {
                    killAtOperator = 0;
                    processes.get(node).kill();
                }
                return operators.run(node, operation);
            };
            return new PushdownEngine(fac, ClusterModel.paper(), killing).execute(KEY, SQL, mode);
        }
    }

    private static List<List<Object>> rows(PushdownResult result) {
        return rows(result.rows());
    }

    private static List<List<Object>> rows(ColumnarTable table) {
        List<List<Object>> rows = new ArrayList<>();
        for (int row = 0; row < table.rowCount(); row++) {
            List<Object> values = new ArrayList<>();
            for (int column = 0; column < table.schema().columns().size(); column++) {
                values.add(table.isNull(column, row) ? null : table.get(column, row));
            }
            rows.add(values);
        }
        return rows;
    }

    private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    /** Whether {@code failure} is a call that ran over its deadline (Flight's TIMED_OUT). */
    private static boolean deadlineExceeded(Throwable failure) {
        FlightRuntimeException flight = cause(failure, FlightRuntimeException.class);
        return flight != null && flight.status().code() == FlightStatusCode.TIMED_OUT;
    }

    /**
     * A node's client that, once armed, SIGKILLs the node's process when the query's n-th read (counted over all
     * nodes) reaches this node, waits until the process is gone, and only then sends the read: it meets a dead node.
     * It counts the calls that failed at their deadline. (A call over its deadline is never retried: the retries'
     * time limit is the deadline, so such a failure is the call's last.)
     */
    private static final class KillOnRead implements ObjectBackend {
        private final ObjectBackend inner;
        private final AtomicInteger deadlines;
        private volatile NodeProcess process;
        private volatile AtomicInteger reads;
        private volatile int killAt;

        KillOnRead(ObjectBackend inner, NodeProcess process, AtomicInteger deadlines) {
            this.inner = inner;
            this.process = process;
            this.deadlines = deadlines;
        }

        private <T> CompletableFuture<T> counted(CompletableFuture<T> call) {
            return call.whenComplete((value, failure) -> {
                if (failure != null && deadlineExceeded(failure)) {
                    deadlines.incrementAndGet();
                }
            });
        }

        private <T> T counted(Supplier<T> call) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (deadlineExceeded(e)) {
                    deadlines.incrementAndGet();
                }
                throw e;
            }
        }

        void killAtRead(AtomicInteger reads, int killAt) {
            this.killAt = killAt;
            this.reads = reads;
        }

        private void beforeRead() {
            AtomicInteger counter = reads;
            if (counter != null && counter.incrementAndGet() == killAt) {
                reads = null;
                process.kill();
            }
        }

        @Override
        public URI uri() {
            return inner.uri();
        }

        @Override
        public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
            beforeRead();
            return counted(inner.readRangeAsync(key, range));
        }

        @Override
        public CompletableFuture<ByteBuffer> readAllAsync(String key) {
            beforeRead();
            return counted(inner.readAllAsync(key));
        }

        @Override
        public long size(String key) {
            return counted(() -> inner.size(key));
        }

        @Override
        public void put(String key, InputStream data, long length) {
            inner.put(key, data, length);
        }

        @Override
        public Stream<ObjectInfo> list(String prefix) {
            return inner.list(prefix);
        }

        @Override
        public void delete(String key) {
            inner.delete(key);
        }

        @Override
        public ObjectBackend withMetrics(RequestMetrics metrics) {
            return new KillOnRead(inner.withMetrics(metrics), process, deadlines);
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
