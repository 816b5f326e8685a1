package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
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
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacManifest;
import io.layoutbench.fusion.store.FacStatistics;
import io.layoutbench.parquet.ColumnChunkInfo;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.RowGroupInfo;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
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
 * With the pushdown plan, aggregates are pushed down: a node returns a 32-byte partial. With nodes down, a chunk
 * whose block is lost is rebuilt by another node from k blocks of its stripe, and the query still answers.
 *
 * <p>Before the filter stage a {@link QueryPlan} is chosen per query ({@link PushdownMode#FUSION}): when pricing
 * both plans (bytes, round trips, where the work runs) says the filter round cannot pay for itself, as when the
 * filtered column is also projected and its projection would be fetched anyway, the query runs without it: every
 * chunk it needs is fetched whole and evaluated here, as the baseline does but from FAC blocks.
 *
 * <p>Node operations run in this process one at a time and are timed; the network is the {@link ClusterModel}.
 * Each stage takes the slowest node's work and transfers, or the coordinator link's transfers if longer, plus one
 * RPC, plus the coordinator's own work. Every byte between nodes and coordinator is counted in the
 * {@link PushdownReport}. In {@link PushdownMode#BASELINE} the coordinator fetches every chunk it needs and
 * evaluates everything itself, as MinIO or Ceph with a Parquet-aware client would.
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
    /** Bytes of an operation request besides its predicate and bitmap: object, range, column, operation. */
    private static final int REQUEST_HEADER_BYTES = 64;

    private final FacBackend store;
    private final ClusterModel network;

    public PushdownEngine(FacBackend store, ClusterModel network) {
        this.store = requireNonNull(store, "store is null");
        this.network = requireNonNull(network, "network is null");
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
        return new Run(key, mode).execute(sql);
    }

    /** The state of one query. */
    private final class Run {
        private final String key;
        private final PushdownMode mode;
        private final int nodeCount = store.nodes().size();
        private final List<ChunkDecision> decisions = new ArrayList<>();
        /** Chunks a node decoded in the filter stage, kept by that node until the query ends. */
        private final Map<String, ColumnVector> decodedOnNodes = new HashMap<>();
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
                    : ((SelectItem.Aggregate) item).column().map(Set::of).orElse(Set.of())));
            columns.checkSupported(used);

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
            for (RowGroupInfo group : kept) {
                Map<String, ColumnVector> here = new LinkedHashMap<>();
                fetched.put(group.index(), here);
                selected.put(group.index(), filter(group, predicate, here));
            }
            if (!query.isAggregate()) {
                applyLimit(selected, query.where());   // an aggregate's LIMIT applies to its one result row
            }
            finishStage();

            // Projection stage.
            stage = new Stage();
            List<ColumnVectorBuilder> results = new ArrayList<>();
            List<AggregatePartial> partials = new ArrayList<>();
            for (SelectItem item : query.items()) {
                if (item instanceof SelectItem.ColumnItem c) {
                    results.add(columns.resultBuilder(c.column()));
                } else {
                    partials.add(new AggregatePartial());
                }
            }
            for (Map.Entry<Integer, RoaringBitmap> entry : selected.entrySet()) {
                RowGroupInfo group = columns.footer().rowGroup(entry.getKey());
                RoaringBitmap rows = entry.getValue();
                if (rows.isEmpty()) {
                    continue;
                }
                project(query, group, rows, fetched.get(group.index()), results, partials);
                fetched.remove(group.index());   // decoded chunks are dropped row group by row group
                decodedOnNodes.keySet().removeIf(id -> id.startsWith(group.index() + "/"));
            }
            finishStage();

            ColumnarTable table = query.isAggregate() ? aggregates(query, partials, query.where().limit().orElse(1))
                    : rows(query, results);
            PushdownReport report = new PushdownReport(mode, plan, rowGroups.size(), pruned, toCoordinator, toNodes,
                    betweenNodes, rpcs, Duration.ofNanos(latencyNanos), workNanos, degraded, decisions);
            LOG.debug("{} on {} ({}): {} rows, {} bytes moved, {} ms modelled", query, key, mode, table.rowCount(),
                    report.networkBytes(), report.latency().toMillis());
            return new PushdownResult(query, query.items().stream().map(SelectItem::label).toList(), table, report);
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
            List<String> projected = new ArrayList<>();
            List<String> aggregated = new ArrayList<>();
            for (SelectItem item : query.items()) {
                if (item instanceof SelectItem.ColumnItem c) {
                    projected.add(c.column());
                } else {
                    ((SelectItem.Aggregate) item).column().ifPresent(aggregated::add);
                }
            }
            QueryPlan priced = new QueryPlanner(columns, network, nodeCount, chunk -> homeNode(chunk.byteRange()))
                    .choose(kept, predicate, projected, aggregated, mode == PushdownMode.PUSH_ALL);
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
            ParquetObject object = ParquetObject.open(store.withMetrics(footerReads), key);
            stage.coordinatorNanos += System.nanoTime() - start;
            var reads = footerReads.snapshot();
            stage.coordinatorIn += reads.bytesReceived();
            stage.rpcs += reads.totalRequests();
            columns = new ObjectColumns(object.footer());
            finishStage();
        }

        // ---- filter

        private RoaringBitmap filter(RowGroupInfo group, Expression predicate, Map<String, ColumnVector> fetched) {
            int rowCount = Math.toIntExact(group.rowCount());
            RoaringBitmap rows = RoaringBitmap.bitmapOf();
            rows.add(0L, rowCount);
            if (isTrue(predicate)) {
                return rows;
            }
            Map<String, List<Expression>> perColumn = new LinkedHashMap<>();
            List<Expression> atCoordinator = new ArrayList<>();
            for (Expression term : predicate instanceof And and ? and.operands() : List.of(predicate)) {
                Set<String> used = columnsOf(term);
                if (used.size() == 1 && !fetchPlan) {
                    perColumn.computeIfAbsent(used.iterator().next(), c -> new ArrayList<>()).add(term);
                } else {
                    atCoordinator.add(term);
                }
            }
            for (Map.Entry<String, List<Expression>> terms : perColumn.entrySet()) {
                Expression onColumn = Expressions.and(terms.getValue());
                rows.and(filterOnNode(group, terms.getKey(), onColumn));
            }
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
            return rows;
        }

        private RoaringBitmap filterOnNode(RowGroupInfo group, String column, Expression predicate) {
            ColumnChunkInfo chunk = group.column(column);
            long request = REQUEST_HEADER_BYTES + predicate.toString().getBytes(StandardCharsets.UTF_8).length;
            long start = System.nanoTime();
            NodeChunk decoded = decodeOnNode(group, column);
            RoaringBitmap matches = select(predicate, columns.table(Map.of(column, decoded.values()),
                    Math.toIntExact(group.rowCount())));
            matches.runOptimize();
            long reply = matches.serializedSizeInBytes();
            stage.nodeWork(decoded.node(), System.nanoTime() - start, request, reply, decoded.remoteBytes());
            decide(group.index(), column, "filter", 1.0, chunk.compressibility(), true, request + reply);
            return matches;
        }

        private RoaringBitmap select(Expression predicate, ColumnarTable table) {
            BoundQuery bound = Query.of(predicate).bind(table.schema());
            return RoaringBitmap.bitmapOf(bound.select(table).toArray());
        }

        // ---- projection and aggregation

        private void project(SelectQuery query, RowGroupInfo group, RoaringBitmap rows,
                Map<String, ColumnVector> fetched, List<ColumnVectorBuilder> results,
                List<AggregatePartial> partials) {
            double selectivity = (double) rows.getCardinality() / group.rowCount();
            int nextColumn = 0;
            int nextPartial = 0;
            for (SelectItem item : query.items()) {
                if (item instanceof SelectItem.ColumnItem c) {
                    ColumnVectorBuilder result = results.get(nextColumn++);
                    ColumnChunkInfo chunk = group.column(c.column());
                    boolean push = !fetchPlan && (mode == PushdownMode.PUSH_ALL
                            || CostEquation.pushesProjection(selectivity, chunk.compressibility()));
                    if (push && !fetched.containsKey(c.column())) {
                        ByteBuffer values = projectOnNode(group, c.column(), rows, selectivity);
                        long start = System.nanoTime();
                        columns.append(result, c.column(), ProjectedValues.decode(c.column(), values), null);
                        stage.coordinatorNanos += System.nanoTime() - start;
                    } else {
                        ColumnVector values = fetchChunk(group, c.column(), "project", selectivity, fetched);
                        long start = System.nanoTime();
                        columns.append(result, c.column(), values, rows);
                        stage.coordinatorNanos += System.nanoTime() - start;
                    }
                } else {
                    SelectItem.Aggregate aggregate = (SelectItem.Aggregate) item;
                    AggregatePartial total = partials.get(nextPartial++);
                    if (aggregate.column().isEmpty()) {
                        total.count += rows.getCardinality();   // COUNT(*): the bitmap says it all
                        continue;
                    }
                    String column = aggregate.column().get();
                    String where = aggregate.label() + " over row group " + group.index() + " of " + key;
                    AggregatePartial partial;
                    if (fetchPlan || fetched.containsKey(column)) {
                        ColumnVector values = fetchChunk(group, column, "aggregate", selectivity, fetched);
                        long start = System.nanoTime();
                        partial = AggregatePartial.of(values, rows, where);
                        stage.coordinatorNanos += System.nanoTime() - start;
                    } else {
                        partial = aggregateOnNode(group, column, rows, selectivity, where);
                    }
                    total.merge(partial, aggregate.label() + " of " + key);
                }
            }
        }

        private ByteBuffer projectOnNode(RowGroupInfo group, String column, RoaringBitmap rows, double selectivity) {
            ColumnChunkInfo chunk = group.column(column);
            long request = REQUEST_HEADER_BYTES + rows.serializedSizeInBytes();
            long start = System.nanoTime();
            NodeChunk decoded = decodeOnNode(group, column);
            ByteBuffer reply = ProjectedValues.encode(decoded.values(), rows, isNarrow(column));
            stage.nodeWork(decoded.node(), System.nanoTime() - start, request, reply.remaining(),
                    decoded.remoteBytes());
            decide(group.index(), column, "project", selectivity, chunk.compressibility(), true,
                    request + reply.remaining());
            return reply;
        }

        private AggregatePartial aggregateOnNode(RowGroupInfo group, String column, RoaringBitmap rows,
                double selectivity, String where) {
            ColumnChunkInfo chunk = group.column(column);
            long request = REQUEST_HEADER_BYTES + rows.serializedSizeInBytes();
            long start = System.nanoTime();
            NodeChunk decoded = decodeOnNode(group, column);
            AggregatePartial partial = AggregatePartial.of(decoded.values(), rows, where);
            stage.nodeWork(decoded.node(), System.nanoTime() - start, request, AggregatePartial.WIRE_BYTES,
                    decoded.remoteBytes());
            decide(group.index(), column, "aggregate", selectivity, chunk.compressibility(), true,
                    request + AggregatePartial.WIRE_BYTES);
            return partial;
        }

        private boolean isNarrow(String column) {
            return columns.footer().column(column).physicalType() == PrimitiveTypeName.INT32;
        }

        // ---- reading chunks

        /**
         * The chunk decoded by the node that holds it. A node keeps what it decoded in the filter stage for the
         * projection stage of the same query (Fusion's nodes decode it again; keeping it costs the node memory for
         * the length of one query and saves a second read and decode).
         */
        private NodeChunk decodeOnNode(RowGroupInfo group, String column) {
            ColumnChunkInfo chunk = group.column(column);
            String id = group.index() + "/" + chunk.column();
            ColumnVector kept = decodedOnNodes.get(id);
            if (kept != null) {
                return new NodeChunk(kept, homeNode(chunk.byteRange()), 0);
            }
            NodeRead read = readOnNode(chunk);
            ColumnVector values = columns.decode(group.index(), column, read.bytes());
            decodedOnNodes.put(id, values);
            return new NodeChunk(values, read.node(), read.remoteBytes());
        }

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

        /**
         * The chunk as the node holding (most of) it reads it: locally, with the pieces other nodes hold sent to it,
         * or, when that node is down, rebuilt by a stand-in node from other blocks.
         */
        private NodeRead readOnNode(ColumnChunkInfo chunk) {
            Map<Integer, Long> pieces = piecesByNode(chunk.byteRange());
            int home = homeNode(chunk.byteRange());
            Read read = readCounted(chunk.byteRange());
            if (read.degraded()) {
                return new NodeRead(read.bytes(), (home + 1) % nodeCount, read.fromNodes());
            }
            return new NodeRead(read.bytes(), home, chunk.byteRange().length() - pieces.get(home));
        }

        private Read readCounted(ByteRange range) {
            FacStatistics before = store.statistics();
            ByteBuffer bytes = store.readRange(key, range);
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

        private ColumnarTable rows(SelectQuery query, List<ColumnVectorBuilder> results) {
            List<Column> schema = new ArrayList<>();
            for (SelectItem item : query.items()) {
                String name = ((SelectItem.ColumnItem) item).column();
                if (schema.stream().anyMatch(c -> c.name().equalsIgnoreCase(name))) {
                    throw new IllegalArgumentException("Column " + name + " is selected twice in " + query);
                }
                schema.add(columns.schema().column(name));
            }
            return ColumnarTable.fromColumns(new MetadataSchema(schema),
                    results.stream().map(ColumnVectorBuilder::build).toList());
        }

        private ColumnarTable aggregates(SelectQuery query, List<AggregatePartial> partials, long limit) {
            List<Column> schema = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < partials.size(); i++) {
                SelectItem.Aggregate item = (SelectItem.Aggregate) query.items().get(i);
                AggregatePartial p = partials.get(i);
                ColumnType type = item.column().map(columns::type).orElse(ColumnType.BIGINT);
                boolean date = item.column().map(columns::isDate).orElse(false);
                Object value = switch (item.function()) {
                    case COUNT -> p.count;
                    case SUM -> p.count == 0 ? null : type == ColumnType.BIGINT ? (Object) p.longSum : p.doubleSum;
                    case AVG -> p.count == 0 ? null : p.doubleSum / p.count;
                    case MIN -> date && p.min != null ? ObjectColumns.isoDate((Long) (Object) p.min) : p.min;
                    case MAX -> date && p.max != null ? ObjectColumns.isoDate((Long) (Object) p.max) : p.max;
                };
                ColumnType resultType = switch (item.function()) {
                    case COUNT -> ColumnType.BIGINT;
                    case AVG -> ColumnType.DOUBLE;
                    default -> type;
                };
                String name = uniqueName(schema, item.function().name().toLowerCase(Locale.ROOT) + "_"
                        + item.column().orElse("star"));
                schema.add(new Column(name, resultType));
                values.add(value);
            }
            ColumnarTable.Builder table = ColumnarTable.builder(new MetadataSchema(schema), 1);
            if (limit > 0) {
                table.add(values.toArray());
            }
            return table.build();
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

    private record NodeRead(ByteBuffer bytes, int node, long remoteBytes) {
    }

    private record NodeChunk(ColumnVector values, int node, long remoteBytes) {
    }
}
