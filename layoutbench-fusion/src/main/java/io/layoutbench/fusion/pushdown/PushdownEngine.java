package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.ColumnVectorBuilder;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.predicate.And;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.ColumnRef;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.api.predicate.Expression;
import io.layoutbench.api.predicate.ExpressionVisitor;
import io.layoutbench.api.predicate.Expressions;
import io.layoutbench.api.predicate.Literal;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.SelectStatement;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacManifest;
import io.layoutbench.fusion.store.FacStatistics;
import io.layoutbench.parquet.BackendInputFile;
import io.layoutbench.parquet.ColumnChunkInfo;
import io.layoutbench.parquet.FetchOptions;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.RowGroupInfo;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.IntStream;

import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator of Fusion's query pushdown over one {@link FacBackend}: runs a {@link SelectQuery} on a Parquet
 * object whose column chunks live, whole, on the store's nodes.
 *
 * <p>A query runs in two stages. <b>Filter</b>: row groups are pruned with the footer's statistics; the WHERE clause
 * is split into its top-level AND terms, the terms on one column go to the node holding that column's chunk, which
 * decodes the chunk, evaluates them and returns a compressed bitmap of matching rows; terms on several columns are
 * evaluated here on chunks fetched compressed. The bitmaps are ANDed: the selectivity is now exact. <b>Project</b>:
 * per selected row group and projected column, the projection is pushed down (the node returns the selected values,
 * uncompressed) when the {@link CostEquation} holds, else the chunk is fetched compressed and projected here.
 * With the pushdown plan, aggregates of a column are pushed down: a node returns a partial of 46 bytes. <b>GROUP BY</b>
 * adds a key round between the two: the node holding each key chunk returns the distinct keys of the selected rows
 * and a bit-packed id per row (or the chunk is fetched when it is smaller), the coordinator numbers the groups and
 * sends each node that aggregates the rows' group ids with the bitmap, and the node returns a partial per group.
 * Arithmetic in aggregates runs here on projected values. ORDER BY and LIMIT apply to the result here. With nodes
 * down, a chunk whose block is lost is rebuilt by another node from k blocks of its stripe, and the query still
 * answers.
 *
 * <p>Before the filter stage a {@link QueryPlan} is chosen per query ({@link PushdownMode#FUSION}): when pricing
 * both plans (bytes, round trips, where the work runs) says the filter round cannot pay for itself, as when the
 * filtered column is also projected and its projection would be fetched anyway, the query runs without it: every
 * chunk it needs is fetched whole and evaluated here, as the baseline does but from FAC blocks.
 *
 * <p>The operators pushed down run where its {@link NodeOperators} runs them: in this process one at a time, timed
 * ({@link LocalNodeOperators}, the default), or on storage-node servers ({@code FlightNodeOperators}). Each is a {@link
 * ChunkOperation} that a {@link ChunkOperator} runs on the node holding the chunk. A stage sends all its operators
 * before it reads any reply, so remote nodes work side by side. The reported latency is a model either way, the network
 * being the {@link ClusterModel}: each stage takes the slowest node's work (as the nodes measured it) and transfers, or
 * the coordinator link's transfers if longer, plus one RPC, plus the coordinator's own work. Every byte between nodes
 * and coordinator is counted in the {@link PushdownReport}. In {@link PushdownMode#BASELINE} the coordinator fetches
 * every chunk it needs and evaluates everything itself, as MinIO or Ceph with a Parquet-aware client would.
 *
 * <pre>{@code
 * try (FacBackend store = FacBackend.create(nodes, FacOptions.defaults(), true)) {
 *     store.put("lineitem.parquet", Path.of("lineitem.parquet"));
 *     PushdownEngine engine = new PushdownEngine(store, ClusterModel.paper());
 *     PushdownResult r = engine.execute("lineitem.parquet",
 *             "SELECT l_extendedprice FROM lineitem WHERE l_quantity < 2", PushdownMode.FUSION);
 *     System.out.println(r.rows().rowCount() + " rows, " + r.report().networkBytes() + " bytes moved");
 * }
 * }</pre>
 *
 * <p>Not thread-safe: one query at a time (the per-chunk accounting reads the store's counters around each read).
 */
public final class PushdownEngine {

    private static final Logger LOG = LoggerFactory.getLogger(PushdownEngine.class);
    /** Most key tuples a row group's groups are numbered through a table rather than a hash map (4 MiB of ints). */
    private static final int DIRECT_GROUP_TABLE = 1 << 20;

    private final FacBackend store;
    private final ClusterModel network;
    private final NodeOperators operators;

    /** An engine whose nodes' operators run in this process ({@link LocalNodeOperators}). */
    public PushdownEngine(FacBackend store, ClusterModel network) {
        this(store, network, LocalNodeOperators.of(requireNonNull(store, "store is null")));
    }

    /**
     * An engine whose nodes' operators run where {@code operators} runs them: on storage-node servers, for one.
     * The engine does not close them.
     */
    public PushdownEngine(FacBackend store, ClusterModel network, NodeOperators operators) {
        this.store = requireNonNull(store, "store is null");
        this.network = requireNonNull(network, "network is null");
        this.operators = requireNonNull(operators, "operators is null");
    }

    /**
     * Runs {@code sql} on the Parquet object {@code key}.
     *
     * @throws io.layoutbench.api.predicate.PredicateException if the query does not parse or names an unknown column
     * @throws io.layoutbench.api.backend.StorageException if a chunk cannot be read, even rebuilt
     * @throws io.layoutbench.parquet.ParquetFormatException naming the chunk that cannot be decoded
     */
    public PushdownResult execute(String key, String sql, PushdownMode mode) {
        requireNonNull(mode, "mode is null");
        Run run = new Run(key, mode);
        try {
            return run.execute(sql);
        } finally {
            operators.finish(run.queryId);
        }
    }

    /** The state of one query. */
    private final class Run {
        private final String key;
        private final PushdownMode mode;
        private final int nodeCount = store.nodes().size();
        private final List<ChunkDecision> decisions = new ArrayList<>();
        /** Names this query to the nodes, which keep decoded chunks for its later operators under it. */
        private final String queryId = UUID.randomUUID().toString();
        /** Columns read after the filter stage: a node filtering one keeps the decoded chunk for them. */
        private final Set<String> laterColumns = new HashSet<>();
        /** Per node, the bytes its link carried. */
        private final long[] linkBytes = new long[nodeCount];
        private FacManifest manifest;
        private ObjectColumns columns;
        private QueryPlan plan;
        /** Whether the query runs without a filter round, every chunk fetched and evaluated here. */
        private boolean fetchPlan;
        private Stage stage;
        private long latencyNanos;
        private long workNanos;
        private long toCoordinator;
        private long toNodes;
        private long betweenNodes;
        private long rpcs;
        private int degraded;

        Run(String key, PushdownMode mode) {
            this.key = requireNonNull(key, "key is null");
            this.mode = mode;
        }

        PushdownResult execute(String sql) {
            openObject();
            SelectQuery query = SelectQuery.parse(sql, columns.schema());
            BoundQuery where = query.where().bind(columns.schema());
            Expression predicate = where.predicate().expression();
            List<RowGroupInfo> rowGroups = columns.footer().rowGroups();
            Set<String> predicateColumns = columnsOf(predicate);
            Set<String> used = new LinkedHashSet<>(predicateColumns);
            query.items().forEach(item -> used.addAll(item instanceof SelectItem.ColumnItem c ? Set.of(c.column())
                    : ((SelectItem.Aggregate) item).columns()));
            used.addAll(query.groupBy());
            columns.checkSupported(used);
            query.items().forEach(item -> laterColumns.addAll(item instanceof SelectItem.ColumnItem c
                    ? Set.of(c.column()) : ((SelectItem.Aggregate) item).columns()));
            laterColumns.addAll(query.groupBy());

            List<RowGroupInfo> kept = new ArrayList<>();
            for (RowGroupInfo group : rowGroups) {
                if (!isFalse(predicate)
                        && !where.prune(columns.statistics(group.index(), predicateColumns)).canSkip()) {
                    kept.add(group);
                }
            }
            int pruned = rowGroups.size() - kept.size();
            long planning = System.nanoTime();
            plan = plan(query, kept, predicate);
            planning = System.nanoTime() - planning;
            fetchPlan = plan.kind() == QueryPlan.Kind.FETCH;
            LOG.debug("{} on {} ({}): {}", query, key, mode, plan);

            // Filter stage (with the fetch plan: the predicate columns fetched and evaluated here).
            stage = new Stage();
            stage.coordinatorNanos += planning;
            Map<Integer, RoaringBitmap> selected = new LinkedHashMap<>();
            Map<Integer, Map<String, ColumnVector>> fetched = new HashMap<>();
            List<PendingFilter> filters = new ArrayList<>();
            for (RowGroupInfo group : kept) {
                filters.add(startFilter(group, predicate));
            }
            for (PendingFilter filter : filters) {
                Map<String, ColumnVector> here = new LinkedHashMap<>();
                fetched.put(filter.group.index(), here);
                selected.put(filter.group.index(), filter.finish(here));
            }
            if (!query.isAggregate() && query.orderBy().isEmpty()) {
                // Otherwise LIMIT applies to the result: the groups, or the rows once ordered.
                applyLimit(selected, query.where());
            }
            finishStage();

            ResultTable result = query.isAggregate() ? new Grouping(query).run(selected, fetched)
                    : projection(query, selected, fetched);
            long start = System.nanoTime();
            result = result.ordered(query.orderBy(), query.isAggregate() ? query.where().limit()
                    : query.orderBy().isEmpty() ? OptionalLong.empty() : query.where().limit());
            latencyNanos += System.nanoTime() - start;
            workNanos += System.nanoTime() - start;
            PushdownReport report = new PushdownReport(mode, plan, rowGroups.size(), pruned, toCoordinator, toNodes,
                    betweenNodes, rpcs, Duration.ofNanos(latencyNanos), workNanos, degraded, decisions,
                    Arrays.stream(linkBytes).boxed().toList());
            LOG.debug("{} on {} ({}): {} rows, {} bytes moved, {} ms modelled", query, key, mode,
                    result.table().rowCount(), report.networkBytes(), report.latency().toMillis());
            return new PushdownResult(query, query.items().stream().map(SelectItem::label).toList(), result.table(),
                    report, result.decimals());
        }

        /** The projection stage of a query without aggregates: every selected row's values. */
        private ResultTable projection(SelectQuery query, Map<Integer, RoaringBitmap> selected,
                Map<Integer, Map<String, ColumnVector>> fetched) {
            stage = new Stage();
            List<ColumnVectorBuilder> results = new ArrayList<>();
            List<List<BigDecimal>> exact = new ArrayList<>();
            for (SelectItem item : query.items()) {
                String column = ((SelectItem.ColumnItem) item).column();
                results.add(columns.resultBuilder(column));
                exact.add(columns.decimalScale(column).isPresent() ? new ArrayList<>() : null);
            }
            project(query, selected, fetched, results, exact);
            finishStage();
            List<Column> schema = new ArrayList<>();
            Map<Integer, List<BigDecimal>> decimals = new HashMap<>();
            for (int i = 0; i < query.items().size(); i++) {
                String name = ((SelectItem.ColumnItem) query.items().get(i)).column();
                if (taken(schema, name)) {
                    throw new IllegalArgumentException("Column " + name + " is selected twice in " + query);
                }
                schema.add(columns.schema().column(name));
                if (exact.get(i) != null) {
                    decimals.put(i, exact.get(i));
                }
            }
            return new ResultTable(ColumnarTable.fromColumns(new MetadataSchema(schema),
                    results.stream().map(ColumnVectorBuilder::build).toList()), decimals);
        }

        /**
         * The plan: the baseline always fetches; {@link PushdownMode#PAPER} and {@link PushdownMode#PUSH_ALL} always
         * push down; {@link PushdownMode#FUSION} prices both and runs the cheaper.
         */
        private QueryPlan plan(SelectQuery query, List<RowGroupInfo> kept, Expression predicate) {
            if (mode == PushdownMode.BASELINE) {
                return new QueryPlan(QueryPlan.Kind.FETCH, Duration.ZERO, Duration.ZERO,
                        "the baseline fetches every chunk it needs");
            }
            Set<String> projected = new LinkedHashSet<>();
            Set<String> aggregated = new LinkedHashSet<>();
            for (SelectItem item : query.items()) {
                if (item instanceof SelectItem.ColumnItem c && !query.isAggregate()) {
                    projected.add(c.column());
                } else if (item instanceof SelectItem.Aggregate a && a.column().isPresent()) {
                    aggregated.add(a.column().get());
                } else if (item instanceof SelectItem.Aggregate a) {
                    projected.addAll(a.columns());   // arithmetic runs at the coordinator on projected values
                }
            }
            aggregated.removeAll(projected);
            QueryPlan priced = new QueryPlanner(columns, network, nodeCount, chunk -> homeNode(chunk.byteRange()))
                    .choose(kept, predicate, List.copyOf(projected), List.copyOf(aggregated), query.groupBy(),
                            mode == PushdownMode.PUSH_ALL);
            if (mode == PushdownMode.FUSION) {
                return priced;
            }
            return new QueryPlan(QueryPlan.Kind.PUSHDOWN, priced.pushdownEstimate(), priced.fetchEstimate(),
                    mode + " always pushes down (" + priced.reason() + ")");
        }

        /** The manifest (the chunk location map) and the footer, read from the nodes as a coordinator would. */
        private void openObject() {
            stage = new Stage();
            manifest = store.manifest(key);
            QueryMetrics footerReads = new QueryMetrics();
            long start = System.nanoTime();
            ParquetObject object = ParquetObject.open(new BackendInputFile(store.withMetrics(footerReads), key,
                    manifest.objectSize(), FetchOptions.defaults().withTailSize(footerTail(manifest))));
            stage.coordinatorNanos += System.nanoTime() - start;
            var reads = footerReads.snapshot();
            stage.coordinatorIn += reads.bytesReceived();
            stage.rpcs += reads.totalRequests();
            columns = new ObjectColumns(object.footer());
            finishStage();
        }

        // ---- filter

        /**
         * The filter stage of one row group, started: the terms on one column sent to the nodes holding their chunks,
         * which run side by side with everything else this stage sends; {@link PendingFilter#finish} evaluates the
         * terms on several columns here and ANDs the bitmaps.
         */
        private PendingFilter startFilter(RowGroupInfo group, Expression predicate) {
            List<Expression> atCoordinator = new ArrayList<>();
            List<NodeCall> onNodes = new ArrayList<>();
            if (isTrue(predicate)) {
                return new PendingFilter(group, onNodes, atCoordinator);
            }
            Map<String, List<Expression>> perColumn = new LinkedHashMap<>();
            for (Expression term : predicate instanceof And and ? and.operands() : List.of(predicate)) {
                Set<String> used = columnsOf(term);
                if (used.size() == 1 && !fetchPlan) {
                    perColumn.computeIfAbsent(used.iterator().next(), c -> new ArrayList<>()).add(term);
                } else {
                    atCoordinator.add(term);
                }
            }
            for (Map.Entry<String, List<Expression>> terms : perColumn.entrySet()) {
                String column = terms.getKey();
                ChunkOperation filter = ChunkOperation.filter(queryId, key, manifest.generation(), group.index(),
                        column, Expressions.and(terms.getValue()).toString(), laterColumns.contains(column));
                onNodes.add(send(group, column, filter, 1.0));
            }
            return new PendingFilter(group, onNodes, atCoordinator);
        }

        /** A row group's filter: the node filters sent, and the terms left for the coordinator. */
        private final class PendingFilter {
            private final RowGroupInfo group;
            private final List<NodeCall> onNodes;
            private final List<Expression> atCoordinator;

            PendingFilter(RowGroupInfo group, List<NodeCall> onNodes, List<Expression> atCoordinator) {
                this.group = group;
                this.onNodes = onNodes;
                this.atCoordinator = atCoordinator;
            }

            /** The selected rows; chunks fetched for the coordinator's terms go to {@code fetched}. */
            RoaringBitmap finish(Map<String, ColumnVector> fetched) {
                int rowCount = Math.toIntExact(group.rowCount());
                RoaringBitmap rows = RoaringBitmap.bitmapOf();
                rows.add(0L, rowCount);
                if (!atCoordinator.isEmpty()) {
                    Expression rest = Expressions.and(atCoordinator);
                    Map<String, ColumnVector> chunks = new LinkedHashMap<>();
                    for (String column : columnsOf(rest)) {
                        chunks.put(column, fetchChunk(group, column, "filter", 1.0, fetched));
                    }
                    long start = System.nanoTime();
                    RoaringBitmap matches = select(rest, columns.table(chunks, rowCount));
                    stage.coordinatorNanos += System.nanoTime() - start;
                    rows.and(matches);
                }
                for (NodeCall call : onNodes) {
                    ByteBuffer reply = await(call);
                    long start = System.nanoTime();
                    RoaringBitmap matches = new RoaringBitmap();
                    try {
                        matches.deserialize(reply);
                    } catch (IOException | RuntimeException e) {
                        throw new IllegalStateException("Node " + call.node() + " answered the " + call.operation()
                                + " with a malformed bitmap", e);
                    }
                    rows.and(matches);
                    stage.coordinatorNanos += System.nanoTime() - start;
                }
                return rows;
            }
        }

        private RoaringBitmap select(Expression predicate, ColumnarTable table) {
            BoundQuery bound = Query.of(predicate).bind(table.schema());
            return RoaringBitmap.bitmapOf(bound.select(table).toArray());
        }

        // ---- projection and aggregation

        /** Projects every item of {@code query} from the selected rows of each row group, projections sent first. */
        private void project(SelectQuery query, Map<Integer, RoaringBitmap> selected,
                Map<Integer, Map<String, ColumnVector>> fetched, List<ColumnVectorBuilder> results,
                List<List<BigDecimal>> exact) {
            Map<Integer, List<NodeCall>> sent = new LinkedHashMap<>();
            for (Map.Entry<Integer, RoaringBitmap> entry : selected.entrySet()) {
                if (entry.getValue().isEmpty()) {
                    continue;
                }
                RowGroupInfo group = columns.footer().rowGroup(entry.getKey());
                List<NodeCall> calls = new ArrayList<>();
                for (SelectItem item : query.items()) {
                    String column = ((SelectItem.ColumnItem) item).column();
                    calls.add(startValues(group, column, entry.getValue(), fetched.get(group.index()), false));
                }
                sent.put(group.index(), calls);
            }
            for (Map.Entry<Integer, List<NodeCall>> entry : sent.entrySet()) {
                RowGroupInfo group = columns.footer().rowGroup(entry.getKey());
                for (int i = 0; i < query.items().size(); i++) {
                    String column = ((SelectItem.ColumnItem) query.items().get(i)).column();
                    ColumnVector values = finishValues(entry.getValue().get(i), group, column,
                            selected.get(group.index()), fetched.get(group.index()));
                    long start = System.nanoTime();
                    columns.append(results.get(i), exact.get(i), column, values, null);
                    stage.coordinatorNanos += System.nanoTime() - start;
                }
                fetched.remove(group.index());
            }
        }

        /**
         * The projection of {@code column} in {@code rows}, sent to the node holding the chunk when the
         * {@link CostEquation} says so; null when the chunk is to be fetched ({@link #finishValues}).
         */
        private NodeCall startValues(RowGroupInfo group, String column, RoaringBitmap rows,
                Map<String, ColumnVector> fetched, boolean keep) {
            double selectivity = (double) rows.getCardinality() / group.rowCount();
            ColumnChunkInfo chunk = group.column(column);
            boolean push = !fetchPlan && (mode == PushdownMode.PUSH_ALL
                    || CostEquation.pushesProjection(selectivity, chunk.compressibility()));
            if (!push || fetched.containsKey(column)) {
                return null;
            }
            return send(group, column, ChunkOperation.select(ChunkOperation.Kind.PROJECT, queryId, key,
                    manifest.generation(), group.index(), column, serialized(rows), keep), selectivity);
        }

        /**
         * The values of {@code column} in {@code rows}, densely (row i is the i-th selected row), raw (a date as its
         * day number, a DECIMAL unscaled): the node's projection ({@code call}), or from the chunk fetched compressed.
         */
        private ColumnVector finishValues(NodeCall call, RowGroupInfo group, String column, RoaringBitmap rows,
                Map<String, ColumnVector> fetched) {
            if (call != null) {
                ByteBuffer values = await(call);
                long start = System.nanoTime();
                ColumnVector decoded = ProjectedValues.decode(column, values);
                stage.coordinatorNanos += System.nanoTime() - start;
                return decoded;
            }
            double selectivity = (double) rows.getCardinality() / group.rowCount();
            ColumnVector values = fetchChunk(group, column, "project", selectivity, fetched);
            long start = System.nanoTime();
            ColumnVectorBuilder dense = ColumnVectorBuilder.of(values.type(), rows.getCardinality());
            for (IntIterator it = rows.getIntIterator(); it.hasNext(); ) {
                dense.append(values, it.next());
            }
            stage.coordinatorNanos += System.nanoTime() - start;
            return dense.build();
        }

        /**
         * The group keys of {@code rows} in {@code column}, sent to the node holding the key chunk (distinct values
         * and bit-packed ids, {@link GroupKeys}) when that moves fewer bytes than the chunk; null when the chunk is to
         * be fetched.
         */
        private NodeCall startGroupKeys(RowGroupInfo group, String column, RoaringBitmap rows,
                Map<String, ColumnVector> fetched, boolean keep) {
            ColumnChunkInfo chunk = group.column(column);
            double selectivity = (double) rows.getCardinality() / group.rowCount();
            ChunkOperation operation = ChunkOperation.select(ChunkOperation.Kind.GROUP_KEYS, queryId, key,
                    manifest.generation(), group.index(), column, serialized(rows), keep);
            boolean push = !fetchPlan && !fetched.containsKey(column) && (mode == PushdownMode.PUSH_ALL
                    || operation.requestBytes() + QueryPlanner.groupKeyBytes(chunk, rows.getCardinality())
                    < chunk.byteRange().length());
            return push ? send(group, column, operation, selectivity) : null;
        }

        private GroupKeys.Decoded finishGroupKeys(NodeCall call, RowGroupInfo group, String column,
                RoaringBitmap rows, Map<String, ColumnVector> fetched) {
            if (call == null) {
                double selectivity = (double) rows.getCardinality() / group.rowCount();
                ColumnVector values = fetchChunk(group, column, "group", selectivity, fetched);
                long start = System.nanoTime();
                GroupKeys.Decoded keys = GroupKeys.decode(column, GroupKeys.encode(values, rows, isNarrow(column)));
                stage.coordinatorNanos += System.nanoTime() - start;
                return keys;
            }
            ByteBuffer reply = await(call);
            long start = System.nanoTime();
            GroupKeys.Decoded keys = GroupKeys.decode(column, reply);
            stage.coordinatorNanos += System.nanoTime() - start;
            return keys;
        }

        private boolean isNarrow(String column) {
            return columns.footer().column(column).physicalType() == PrimitiveTypeName.INT32;
        }

        // ---- node operators

        /** Sends {@code operation} to the node holding (most of) the chunk; {@link #await} accounts for it. */
        private NodeCall send(RowGroupInfo group, String column, ChunkOperation operation, double selectivity) {
            int node = homeNode(group.column(column).byteRange());
            CompletableFuture<NodeReply> reply;
            try {
                reply = operators.run(node, operation);
            } catch (RuntimeException e) {
                reply = CompletableFuture.failedFuture(e);
            }
            return new NodeCall(reply, operation, node, group.column(column).compressibility(), selectivity);
        }

        /**
         * The reply's body, once the node answered; its work and traffic added to the stage. A failed operator fails
         * the query with its cause (the chunk could not be read even rebuilt, or the node found it malformed).
         */
        private ByteBuffer await(NodeCall call) {
            NodeReply reply;
            try {
                reply = call.reply().join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
            if (reply.degraded()) {
                degraded++;
            }
            ChunkOperation operation = call.operation();
            stage.nodeWork(reply.node(), reply.workNanos(), operation.requestBytes(), reply.body().remaining(),
                    reply.fromOtherNodes());
            decide(operation.rowGroup(), operation.column(), switch (operation.kind()) {
                case FILTER -> "filter";
                case PROJECT -> "project";
                case GROUP_KEYS -> "group";
                case AGGREGATE -> "aggregate";
            }, call.selectivity(), call.compressibility(), true, operation.requestBytes() + reply.body().remaining());
            return reply.body();
        }

        private static ByteBuffer serialized(RoaringBitmap rows) {
            ByteBuffer out = ByteBuffer.allocate(rows.serializedSizeInBytes());
            rows.serialize(out);
            return out.flip();
        }

        // ---- reading chunks

        private int homeNode(ByteRange range) {
            return piecesByNode(range).entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        }

        /** A chunk decoded at the coordinator after fetching it compressed; each chunk is fetched once per query. */
        private ColumnVector fetchChunk(RowGroupInfo group, String column, String operation, double selectivity,
                Map<String, ColumnVector> fetched) {
            ColumnVector cached = fetched.get(column);
            if (cached != null) {
                return cached;
            }
            ColumnChunkInfo chunk = group.column(column);
            Map<Integer, Long> pieces = piecesByNode(chunk.byteRange());
            long start = System.nanoTime();
            Read read = readCounted(chunk.byteRange());
            ColumnVector values = columns.decode(group.index(), column, read.bytes());
            stage.coordinatorNanos += System.nanoTime() - start;
            long moved = read.degraded() ? read.fromNodes() : chunk.byteRange().length();
            if (read.degraded()) {
                stage.coordinatorIn += read.fromNodes();
            } else {
                pieces.forEach((node, bytes) -> stage.send(node, bytes));
            }
            stage.rpcs += pieces.size();
            decide(group.index(), column, operation, selectivity, chunk.compressibility(), false, moved);
            fetched.put(column, values);
            return values;
        }

        private Read readCounted(ByteRange range) {
            FacStatistics before = store.statistics();
            // The version the plan was made with, whatever another writer puts meanwhile.
            ByteBuffer bytes = ObjectBackend.await(store.readRangeAsync(manifest, range));
            FacStatistics after = store.statistics();
            boolean rebuilt = after.degradedReads() > before.degradedReads();
            if (rebuilt) {
                degraded++;
            }
            return new Read(bytes, rebuilt, after.bytesFromNodes() - before.bytesFromNodes());
        }

        /** Bytes of {@code range} held by each node, from the chunk location map. */
        private Map<Integer, Long> piecesByNode(ByteRange range) {
            Map<Integer, Long> bytes = new LinkedHashMap<>();
            for (FacManifest.Segment segment : manifest.segments()) {
                long from = Math.max(range.offset(), segment.objectOffset());
                long to = Math.min(range.end(), segment.objectOffset() + segment.length());
                if (from < to) {
                    int node = manifest.block(segment.stripe(), segment.block()).node();
                    bytes.merge(node, to - from, Long::sum);
                }
            }
            if (bytes.isEmpty()) {
                throw new IllegalStateException("No block of " + key + " holds " + range + " according to its "
                        + "chunk location map");
            }
            return bytes;
        }

        // ---- results

        private void applyLimit(Map<Integer, RoaringBitmap> selected, Query query) {
            if (query.limit().isEmpty()) {
                return;
            }
            long left = query.limit().getAsLong();
            for (Map.Entry<Integer, RoaringBitmap> entry : selected.entrySet()) {
                RoaringBitmap rows = entry.getValue();
                if (rows.getLongCardinality() > left) {
                    entry.setValue(left == 0 ? RoaringBitmap.bitmapOf() : rows.limit((int) left));
                }
                left -= entry.getValue().getLongCardinality();
            }
        }

        /**
         * Aggregates, over groups with GROUP BY, else over one group. The <b>key round</b> obtains each selected row's
         * group: per row group and key, the node holding the key chunk returns the distinct keys of the selected rows
         * and a bit-packed id per row ({@link GroupKeys}), or the key chunk is fetched when that moves fewer bytes;
         * the coordinator numbers the row group's groups (the key tuples it met). The <b>aggregate round</b>: each
         * node holding an aggregated chunk is sent the selection bitmap and the rows' group ids, bit-packed, and
         * returns one partial per group; arithmetic arguments are evaluated here on their columns' selected values
         * (projected or fetched per the cost equation). The coordinator merges the partials into the groups.
         */
        private final class Grouping {
            private final SelectQuery query;
            private final List<String> keys;
            /** Groups by their raw key values, numbered in order of discovery. */
            private final Map<List<Object>, Integer> groupIndex = new HashMap<>();
            private final List<List<Object>> groupKeys = new ArrayList<>();
            /** COUNT(*) per group. */
            private final List<long[]> rowCounts = new ArrayList<>();
            /**
             * Per aggregate argument, keyed by its SQL ({@link #argumentKey}: a column is keyed as it prints,
             * {@code "order"} quoted), the partial of each group.
             */
            private final Map<String, List<AggregatePartial>> partials = new HashMap<>();
            /** Arguments that are one column, aggregated on the node holding its chunk: column to argument key. */
            private final Map<String, String> onNodes = new LinkedHashMap<>();
            /** Arithmetic arguments, evaluated here. */
            private final Map<String, Expression> arithmetic = new LinkedHashMap<>();
            /** The columns arithmetic arguments read: their selected values are projected or fetched. */
            private final Set<String> arithmeticColumns = new LinkedHashSet<>();

            Grouping(SelectQuery query) {
                this.query = query;
                this.keys = query.groupBy();
                for (SelectItem item : query.items()) {
                    if (item instanceof SelectItem.Aggregate a && a.column().isPresent()) {
                        onNodes.put(a.column().get(), argumentKey(a));
                    } else if (item instanceof SelectItem.Aggregate a && a.argument().isPresent()) {
                        arithmetic.put(argumentKey(a), a.argument().get());
                        arithmeticColumns.addAll(columnsOf(a.argument().get()));
                    }
                }
                if (!query.isGrouped()) {
                    group(List.of());   // one row even when no row is selected
                }
            }

            ResultTable run(Map<Integer, RoaringBitmap> selected, Map<Integer, Map<String, ColumnVector>> fetched) {
                // Key round: every row group's key requests sent before any reply is read.
                stage = new Stage();
                Map<Integer, List<NodeCall>> keyCalls = new LinkedHashMap<>();
                for (Map.Entry<Integer, RoaringBitmap> entry : selected.entrySet()) {
                    if (!entry.getValue().isEmpty()) {
                        RowGroupInfo group = columns.footer().rowGroup(entry.getKey());
                        List<NodeCall> calls = new ArrayList<>();
                        for (String column : keys) {
                            calls.add(startGroupKeys(group, column, entry.getValue(), fetched.get(group.index()),
                                    onNodes.containsKey(column) || arithmeticColumns.contains(column)));
                        }
                        keyCalls.put(group.index(), calls);
                    }
                }
                Map<Integer, LocalGroups> local = new LinkedHashMap<>();   // row group order: sums add in file order
                for (Map.Entry<Integer, List<NodeCall>> entry : keyCalls.entrySet()) {
                    RowGroupInfo group = columns.footer().rowGroup(entry.getKey());
                    local.put(group.index(), localGroups(group, selected.get(group.index()), entry.getValue(),
                            fetched.get(group.index())));
                }
                finishStage();
                // Aggregate round: likewise, then the partials merged in row group order.
                stage = new Stage();
                Map<Integer, PendingAggregate> pending = new LinkedHashMap<>();
                for (Map.Entry<Integer, LocalGroups> entry : local.entrySet()) {
                    RowGroupInfo group = columns.footer().rowGroup(entry.getKey());
                    pending.put(group.index(), startAggregate(group, selected.get(group.index()), entry.getValue(),
                            fetched.get(group.index())));
                }
                for (Map.Entry<Integer, PendingAggregate> entry : pending.entrySet()) {
                    RowGroupInfo group = columns.footer().rowGroup(entry.getKey());
                    finishAggregate(group, selected.get(group.index()), local.get(group.index()), entry.getValue(),
                            fetched.get(group.index()));
                    fetched.remove(group.index());
                }
                finishStage();
                long start = System.nanoTime();
                ResultTable result = result();
                latencyNanos += System.nanoTime() - start;
                workNanos += System.nanoTime() - start;
                return result;
            }

            /** The global group of a key tuple, created on first sight. */
            private int group(List<Object> key) {
                Integer g = groupIndex.get(key);
                if (g == null) {
                    g = groupKeys.size();
                    groupIndex.put(key, g);
                    groupKeys.add(key);
                    rowCounts.add(new long[1]);
                }
                return g;
            }

            /** The groups of one row group's selected rows: per row a local group, per local group a global one. */
            private LocalGroups localGroups(RowGroupInfo group, RoaringBitmap rows, List<NodeCall> keyCalls,
                    Map<String, ColumnVector> fetched) {
                int count = rows.getCardinality();
                if (keys.isEmpty()) {
                    return new LocalGroups(new int[count], new int[] {0});
                }
                List<GroupKeys.Decoded> perKey = new ArrayList<>();
                for (int k = 0; k < keys.size(); k++) {
                    perKey.add(finishGroupKeys(keyCalls.get(k), group, keys.get(k), rows, fetched));
                }
                long start = System.nanoTime();
                // A row's tuple of key ids as one number (mixed radix over the dictionaries' sizes): a table lookup
                // when the tuples are few, as they are for keys of few values, else a hash lookup.
                long tuples = 1;
                for (GroupKeys.Decoded k : perKey) {
                    tuples = tuples > Long.MAX_VALUE / Math.max(1, k.dictionary().size()) ? -1
                            : tuples * Math.max(1, k.dictionary().size());
                    if (tuples < 0) {
                        break;
                    }
                }
                int[] table = tuples >= 0 && tuples <= DIRECT_GROUP_TABLE ? new int[(int) tuples] : null;
                if (table != null) {
                    Arrays.fill(table, -1);
                }
                Map<Object, Integer> seen = new HashMap<>();
                int[] ids = new int[count];
                List<Integer> toGlobal = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    long code = 0;
                    for (int k = perKey.size() - 1; k >= 0 && tuples >= 0; k--) {
                        code = code * perKey.get(k).dictionary().size() + perKey.get(k).ids()[i];
                    }
                    int g = table != null ? table[(int) code] : -1;
                    if (table == null) {
                        Object tuple = tuples >= 0 ? (Object) code : tupleOf(perKey, i);
                        Integer known = seen.get(tuple);
                        g = known == null ? -1 : known;
                        if (g < 0) {
                            seen.put(tuple, toGlobal.size());
                        }
                    }
                    if (g < 0) {
                        g = toGlobal.size();
                        if (table != null) {
                            table[(int) code] = g;
                        }
                        toGlobal.add(group(keyValues(perKey, i)));
                    }
                    ids[i] = g;
                }
                stage.coordinatorNanos += System.nanoTime() - start;
                return new LocalGroups(ids, toGlobal.stream().mapToInt(Integer::intValue).toArray());
            }

            private static List<Integer> tupleOf(List<GroupKeys.Decoded> perKey, int row) {
                List<Integer> tuple = new ArrayList<>(perKey.size());
                perKey.forEach(k -> tuple.add(k.ids()[row]));
                return tuple;
            }

            /** The raw key values of the {@code row}-th selected row; SQL puts 0.0 and -0.0 in one group. */
            private static List<Object> keyValues(List<GroupKeys.Decoded> perKey, int row) {
                Object[] values = new Object[perKey.size()];
                for (int k = 0; k < values.length; k++) {
                    Object value = perKey.get(k).dictionary().get(perKey.get(k).ids()[row]);
                    values[k] = value instanceof Double d && d == 0 ? (Object) 0.0 : value;
                }
                return Arrays.asList(values);
            }

            /**
             * Sends a row group's aggregates to the nodes holding their chunks (with the rows' groups), and the
             * projections that arithmetic arguments need, before any reply is read.
             */
            private PendingAggregate startAggregate(RowGroupInfo group, RoaringBitmap rows, LocalGroups local,
                    Map<String, ColumnVector> fetched) {
                double selectivity = (double) rows.getCardinality() / group.rowCount();
                int groups = local.toGlobal().length;
                Map<String, NodeCall> values = new LinkedHashMap<>();
                for (String column : arithmeticColumns) {
                    values.put(column, startValues(group, column, rows, fetched, false));
                }
                Map<String, NodeCall> aggregates = new HashMap<>();
                ByteBuffer selection = null;
                ByteBuffer ids = null;   // the selection and the group ids, encoded once for all columns
                for (String column : onNodes.keySet()) {
                    if (arithmeticColumns.contains(column) || fetchPlan || fetched.containsKey(column)) {
                        continue;   // its values are here, or the plan fetches its chunk: aggregated here
                    }
                    if (selection == null) {
                        selection = serialized(rows);
                        ids = query.isGrouped() ? GroupKeys.packIds(local.ids(), groups) : ByteBuffer.allocate(0);
                    }
                    aggregates.put(column, send(group, column, ChunkOperation.aggregate(queryId, key,
                            manifest.generation(), group.index(), column, selection, ids, groups), selectivity));
                }
                return new PendingAggregate(values, aggregates);
            }

            private void finishAggregate(RowGroupInfo group, RoaringBitmap rows, LocalGroups local,
                    PendingAggregate pending, Map<String, ColumnVector> fetched) {
                int count = rows.getCardinality();
                double selectivity = (double) count / group.rowCount();
                int groups = local.toGlobal().length;
                long start = System.nanoTime();
                for (int id : local.ids()) {
                    rowCounts.get(local.toGlobal()[id])[0]++;
                }
                stage.coordinatorNanos += System.nanoTime() - start;
                Map<String, ColumnVector> dense = new HashMap<>();
                pending.values().forEach((column, call) ->
                        dense.put(column, finishValues(call, group, column, rows, fetched)));
                RoaringBitmap all = RoaringBitmap.bitmapOf();
                all.add(0L, count);
                for (Map.Entry<String, String> onNode : onNodes.entrySet()) {
                    String column = onNode.getKey();
                    AggregatePartial[] parts;
                    NodeCall call = pending.aggregates().get(column);
                    if (call != null) {
                        ByteBuffer reply = await(call);
                        start = System.nanoTime();
                        parts = AggregatePartial.decode(reply);
                        stage.coordinatorNanos += System.nanoTime() - start;
                        if (parts.length != groups) {
                            throw new IllegalStateException("Node " + call.node() + " answered the "
                                    + call.operation() + " with " + parts.length + " partials for " + groups
                                    + " groups");
                        }
                    } else {
                        ColumnVector values = dense.containsKey(column) ? dense.get(column)
                                : fetchChunk(group, column, "aggregate", selectivity, fetched);
                        start = System.nanoTime();
                        parts = AggregatePartial.ofGroups(values, dense.containsKey(column) ? all : rows,
                                local.ids(), groups);
                        stage.coordinatorNanos += System.nanoTime() - start;
                    }
                    merge(onNode.getValue(), parts, local);
                }
                for (Map.Entry<String, Expression> argument : arithmetic.entrySet()) {
                    start = System.nanoTime();
                    ColumnVector values;
                    try {
                        values = ArgumentValues.evaluate(argument.getValue(), dense, count, columns);
                    } catch (ArithmeticException e) {
                        throw new ArithmeticException(e.getMessage() + " (row group " + group.index() + " of " + key
                                + ")");
                    }
                    merge(argument.getKey(), AggregatePartial.ofGroups(values, all, local.ids(), groups), local);
                    stage.coordinatorNanos += System.nanoTime() - start;
                }
            }

            private void merge(String argument, AggregatePartial[] parts, LocalGroups local) {
                long start = System.nanoTime();
                for (int g = 0; g < parts.length; g++) {
                    partial(argument, local.toGlobal()[g]).merge(parts[g]);
                }
                stage.coordinatorNanos += System.nanoTime() - start;
            }

            private AggregatePartial partial(String argument, int group) {
                List<AggregatePartial> list = partials.computeIfAbsent(argument, a -> new ArrayList<>());
                while (list.size() <= group) {
                    list.add(new AggregatePartial());
                }
                return list.get(group);
            }

            /** One row per group, groups in ascending order of their keys (NULLs last). */
            private ResultTable result() {
                List<Integer> order = new ArrayList<>(IntStream.range(0, groupKeys.size()).boxed().toList());
                order.sort((a, b) -> {
                    for (int k = 0; k < keys.size(); k++) {
                        int c = ResultTable.compareNullsLast(groupKeys.get(a).get(k), groupKeys.get(b).get(k));
                        if (c != 0) {
                            return c;
                        }
                    }
                    return 0;
                });
                List<Column> schema = new ArrayList<>();
                Map<Integer, List<BigDecimal>> decimals = new HashMap<>();
                List<Object[]> rows = new ArrayList<>();
                order.forEach(g -> rows.add(new Object[query.items().size()]));
                for (int i = 0; i < query.items().size(); i++) {
                    SelectItem item = query.items().get(i);
                    schema.add(new Column(uniqueName(schema, name(item)), type(item)));
                    List<BigDecimal> exact = new ArrayList<>();
                    for (int r = 0; r < order.size(); r++) {
                        Object value = value(item, order.get(r));
                        exact.add(value instanceof BigDecimal d ? d : null);
                        rows.get(r)[i] = value instanceof BigDecimal d ? (Object) d.doubleValue() : value;
                    }
                    if (isDecimal(item)) {
                        decimals.put(i, Collections.unmodifiableList(exact));
                    }
                }
                ColumnarTable.Builder table = ColumnarTable.builder(new MetadataSchema(schema), rows.size());
                rows.forEach(table::add);
                return new ResultTable(table.build(), decimals);
            }

            private Object value(SelectItem item, int group) {
                if (item instanceof SelectItem.ColumnItem c) {
                    return columns.resultValue(c.column(), groupKeys.get(group).get(keys.indexOf(c.column())));
                }
                SelectItem.Aggregate a = (SelectItem.Aggregate) item;
                if (a.argument().isEmpty()) {
                    return rowCounts.get(group)[0];
                }
                AggregatePartial p = partial(argumentKey(a), group);
                OptionalInt scale = ArgumentValues.scale(a.argument().get(), columns);
                return switch (a.function()) {
                    case COUNT -> p.count;
                    case SUM -> p.count == 0 ? null : scale.isEmpty() ? (Object) p.doubleSum
                            : scale.getAsInt() == 0 ? (Object) exactLong(p.exactSum(), a)
                            : new BigDecimal(p.exactSum(), scale.getAsInt());
                    case AVG -> p.count == 0 ? null : scale.isEmpty() ? p.doubleSum / p.count
                            : new BigDecimal(p.exactSum(), scale.getAsInt())
                                    .divide(BigDecimal.valueOf(p.count), MathContext.DECIMAL128).doubleValue();
                    case MIN, MAX -> {
                        Object raw = a.function() == SelectStatement.Function.MIN ? p.min : p.max;
                        if (a.column().isPresent()) {
                            yield columns.resultValue(a.column().get(), raw);
                        }
                        yield raw != null && scale.isPresent() && scale.getAsInt() > 0
                                ? BigDecimal.valueOf((Long) raw, scale.getAsInt()) : raw;
                    }
                };
            }

            /**
             * The key of an aggregate's partials, the same where they are merged and where they are read: its
             * argument as SQL, so a column whose name is a keyword is keyed quoted ({@code "order"}), as it prints.
             */
            private static String argumentKey(SelectItem.Aggregate aggregate) {
                return aggregate.argument().orElseThrow().toString();
            }

            private boolean isDecimal(SelectItem item) {
                if (item instanceof SelectItem.ColumnItem c) {
                    return columns.decimalScale(c.column()).isPresent();
                }
                SelectItem.Aggregate a = (SelectItem.Aggregate) item;
                return a.function() != SelectStatement.Function.COUNT && a.function() != SelectStatement.Function.AVG
                        && a.argument().isPresent()
                        && ArgumentValues.scale(a.argument().get(), columns).orElse(0) > 0;
            }

            private ColumnType type(SelectItem item) {
                if (item instanceof SelectItem.ColumnItem c) {
                    return columns.type(c.column());
                }
                SelectItem.Aggregate a = (SelectItem.Aggregate) item;
                return switch (a.function()) {
                    case COUNT -> ColumnType.BIGINT;
                    case AVG -> ColumnType.DOUBLE;
                    default -> a.column().isPresent() ? columns.type(a.column().get())
                            : ArgumentValues.scale(a.argument().get(), columns).orElse(-1) == 0 ? ColumnType.BIGINT
                            : ColumnType.DOUBLE;
                };
            }

            /** {@code sum_l_tax}, {@code count_star}, {@code sum_expr} for arithmetic; a key keeps its name. */
            private String name(SelectItem item) {
                if (item instanceof SelectItem.ColumnItem c) {
                    return c.column();
                }
                SelectItem.Aggregate a = (SelectItem.Aggregate) item;
                return a.function().name().toLowerCase(Locale.ROOT) + "_"
                        + (a.argument().isEmpty() ? "star" : a.column().orElse("expr"));
            }

            private long exactLong(BigInteger sum, SelectItem.Aggregate aggregate) {
                if (sum.bitLength() > 63) {
                    throw new ArithmeticException(aggregate.label() + " of " + key + " is " + sum
                            + ", which does not fit a BIGINT");
                }
                return sum.longValue();
            }
        }

        /**
         * The groups of one row group's selected rows.
         *
         * @param ids      per selected row, its local group
         * @param toGlobal per local group, its group in the result
         */
        private record LocalGroups(int[] ids, int[] toGlobal) {
        }

        /**
         * A row group's aggregate round, sent.
         *
         * @param values     per column of an arithmetic argument, its projection, or null to fetch the chunk
         * @param aggregates per column aggregated on its node, the operator sent
         */
        private record PendingAggregate(Map<String, NodeCall> values, Map<String, NodeCall> aggregates) {
        }

        private static String uniqueName(List<Column> schema, String base) {
            String name = base;
            for (int n = 2; taken(schema, name); n++) {
                name = base + "_" + n;
            }
            return name;
        }

        private static boolean taken(List<Column> schema, String name) {
            return schema.stream().anyMatch(c -> c.name().equalsIgnoreCase(name));
        }

        // ---- accounting

        private void decide(int rowGroup, String column, String operation, double selectivity,
                double compressibility, boolean pushed, long bytes) {
            ChunkDecision decision = new ChunkDecision(rowGroup, column, operation, selectivity, compressibility,
                    pushed, bytes);
            LOG.debug("{} of {}: {}", mode, key, decision);
            decisions.add(decision);
        }

        /** Adds the stage's modelled time and traffic to the query's. */
        private void finishStage() {
            long slowestNode = 0;
            long fromNodes = 0;
            long toNodesNow = 0;
            for (int n = 0; n < nodeCount; n++) {
                long busy = stage.busy[n] + network.transferNanos(stage.out[n]) + network.transferNanos(stage.in[n])
                        + network.transferNanos(stage.remoteIn[n]);
                slowestNode = Math.max(slowestNode, busy);
                fromNodes += stage.out[n];
                toNodesNow += stage.in[n];
                betweenNodes += stage.remoteIn[n];
                linkBytes[n] += stage.in[n] + stage.out[n] + stage.remoteIn[n];
                workNanos += stage.busy[n];
            }
            long coordinatorLink = network.transferNanos(fromNodes + stage.coordinatorIn)
                    + network.transferNanos(toNodesNow);
            if (stage.rpcs > 0) {
                latencyNanos += network.rpc().toNanos() + Math.max(slowestNode, coordinatorLink);
            }
            latencyNanos += stage.coordinatorNanos;
            workNanos += stage.coordinatorNanos;
            toCoordinator += fromNodes + stage.coordinatorIn;
            toNodes += toNodesNow;
            rpcs += stage.rpcs;
        }

        /** Work and traffic of one stage, per node. */
        private final class Stage {
            final long[] busy = new long[nodeCount];
            final long[] out = new long[nodeCount];
            final long[] in = new long[nodeCount];
            final long[] remoteIn = new long[nodeCount];
            long coordinatorNanos;
            long coordinatorIn;
            long rpcs;

            void nodeWork(int node, long nanos, long requestBytes, long replyBytes, long fromOtherNodes) {
                busy[node] += nanos;
                in[node] += requestBytes;
                out[node] += replyBytes;
                remoteIn[node] += fromOtherNodes;
                rpcs++;
            }

            void send(int node, long bytes) {
                out[node] += bytes;
            }
        }
    }

    /**
     * How much of the object's end to read for its footer: what its last piece holds (one node read), between 8 bytes
     * and the default 64 KiB. A longer tail crosses the small chunks of the last row group, which Algorithm 1 spreads
     * over the stripe's data blocks: on TPC-H lineitem SF 0.1 the last 64 KiB lie in 16 pieces on 6 nodes, 16 node
     * reads where one holds the footer (measured on node processes: 35-70 ms against 6 ms for fixed blocks).
     */
    static int footerTail(FacManifest manifest) {
        long size = manifest.objectSize();
        long lastPiece = manifest.segments().stream()
                .filter(s -> s.objectOffset() + s.length() == size)
                .mapToLong(FacManifest.Segment::length).findFirst().orElse(FetchOptions.DEFAULT_TAIL_SIZE);
        return (int) Math.max(8, Math.min(FetchOptions.DEFAULT_TAIL_SIZE, lastPiece));
    }

    private static boolean isTrue(Expression predicate) {
        return predicate instanceof Literal literal && Boolean.TRUE.equals(literal.value());
    }

    private static boolean isFalse(Expression predicate) {
        return predicate instanceof Literal literal && !Boolean.TRUE.equals(literal.value());
    }

    /** The columns {@code expression} reads. */
    static Set<String> columnsOf(Expression expression) {
        Set<String> columns = new LinkedHashSet<>();
        expression.accept(new ExpressionVisitor.Walker() {
            @Override
            public Void visitColumn(ColumnRef column) {
                columns.add(column.name());
                return null;
            }
        });
        return columns;
    }

    private record Read(ByteBuffer bytes, boolean degraded, long fromNodes) {
    }

    /**
     * An operator sent to a node.
     *
     * @param node the node it was sent to: the chunk's
     */
    private record NodeCall(CompletableFuture<NodeReply> reply, ChunkOperation operation, int node,
            double compressibility, double selectivity) {
    }
}
