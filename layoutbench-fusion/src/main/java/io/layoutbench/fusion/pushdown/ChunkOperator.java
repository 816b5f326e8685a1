package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.ColumnVectorBuilder;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacManifest;
import io.layoutbench.fusion.store.FacStatistics;
import io.layoutbench.parquet.BackendInputFile;
import io.layoutbench.parquet.ColumnChunkInfo;
import io.layoutbench.parquet.FetchOptions;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.RowGroupInfo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Runs {@link ChunkOperation}s where the chunk's blocks are: the storage node's side of pushdown. It reads the chunk
 * through a {@link FacBackend} over the store's nodes (its own blocks locally, the pieces other nodes hold from them,
 * and a chunk whose block is lost rebuilt from k blocks of its stripe), decodes it with the object's footer, and
 * evaluates the operator.
 *
 * <ul>
 *   <li>Per object version (key and manifest generation) it keeps the manifest and the footer, read once: the last
 *       {@value #OBJECTS} objects.
 *   <li>A chunk decoded for an operation marked {@code keep} is kept for the next operation on it in the same query,
 *       which takes it; kept chunks are bounded by a byte budget, the least recently kept dropped first (a query
 *       that stopped early leaves its chunks to be dropped so). A filter that matched at most a quarter of the rows
 *       keeps only their values, all that {@link PushdownEngine}'s later operators ask for (other rows are read
 *       again): so a chunk too large for the budget (TPC-H's {@code l_comment}, 95 MB decoded a row group) is
 *       decoded once, not twice, when those values fit it.
 *   <li>An operation planned with another generation than the store holds when the node first meets it fails, naming
 *       both: the object was replaced during the query. Chunks are read from the blocks of the generation planned
 *       with ({@link FacBackend#readRangeAsync(FacManifest, ByteRange)}), never from another writer's.
 * </ul>
 *
 * <p>Thread-safe. The chunk reads of one operator are serialized (its manifest and footer reads too), so that each
 * reports exactly what it read from other nodes (the store's statistics are counted around it); decoding and
 * evaluation run in parallel. The work time a reply reports is the operator's own read, decode and evaluation, not
 * the time it waited for another's read.
 *
 * <pre>{@code
 * ChunkOperator operator = new ChunkOperator(store, ChunkOperator.DEFAULT_KEEP_BYTES);
 * NodeReply reply = operator.run(3, ChunkOperation.filter(queryId, key, generation, 0, "l_quantity",
 *         "l_quantity < 2", false));
 * }</pre>
 */
public final class ChunkOperator {

    /** Bytes of decoded chunks kept for later operators when not configured. */
    public static final long DEFAULT_KEEP_BYTES = 64L << 20;
    private static final int OBJECTS = 32;
    /** A filter keeps only its matched rows' values when they are at most one in this many of the chunk's rows. */
    private static final int SUBSET_ONE_IN = 4;

    private final FacBackend store;
    private final long keepBytes;
    private final Object reads = new Object();
    private final Map<String, ObjectState> objects = new LinkedHashMap<>(16, 0.75f, true);
    private final LinkedHashMap<String, ChunkValues> kept = new LinkedHashMap<>();
    private long keptBytes;

    /**
     * @param store     the FAC store the chunks are read through
     * @param keepBytes most bytes of decoded chunks kept for later operators of a query; 0 keeps none
     */
    public ChunkOperator(FacBackend store, long keepBytes) {
        this.store = requireNonNull(store, "store is null");
        if (keepBytes < 0) {
            throw new IllegalArgumentException("A chunk operator cannot keep " + keepBytes + " bytes");
        }
        this.keepBytes = keepBytes;
    }

    /**
     * Runs {@code operation} as node {@code node}.
     *
     * @throws IllegalArgumentException if the row group or column does not exist, or the operation is malformed
     * @throws StorageException if the chunk cannot be read, even rebuilt, or the object changed
     */
    public NodeReply run(int node, ChunkOperation operation) {
        requireNonNull(operation, "operation is null");
        ObjectState object = object(operation.key(), operation.generation());
        int groupCount = object.columns().footer().rowGroups().size();
        if (operation.rowGroup() >= groupCount) {
            throw new IllegalArgumentException("No row group " + operation.rowGroup() + " in " + operation.key()
                    + ", which has " + groupCount);
        }
        RowGroupInfo group = object.columns().footer().rowGroup(operation.rowGroup());
        ColumnChunkInfo chunk = group.column(operation.column());
        String id = operation.queryId() + "\u0000" + operation.key() + "\u0000" + operation.generation() + "\u0000"
                + operation.rowGroup() + "\u0000" + operation.column();
        long parsing = System.nanoTime();
        RoaringBitmap rows = operation.kind() == ChunkOperation.Kind.FILTER ? null : rows(operation);
        parsing = System.nanoTime() - parsing;
        Decoded decoded = decoded(node, id, operation, object, group, chunk, rows);
        long start = System.nanoTime();
        boolean narrow = object.columns().footer().column(operation.column()).physicalType()
                == PrimitiveTypeName.INT32;
        ByteBuffer body;
        ChunkValues toKeep = decoded.values();
        if (operation.kind() == ChunkOperation.Kind.FILTER) {
            RoaringBitmap matches = filter(object.columns(), operation, decoded.values().vector(), group);
            body = serialized(matches);
            if (operation.keep()) {
                toKeep = ChunkValues.after(decoded.values().vector(), matches);
            }
        } else {
            ColumnVector vector = decoded.values().vector();
            RoaringBitmap positions = decoded.values().positionsOf(rows);
            body = switch (operation.kind()) {
                case PROJECT -> ProjectedValues.encode(vector, positions, narrow);
                case GROUP_KEYS -> GroupKeys.encode(vector, positions, narrow);
                case AGGREGATE -> aggregate(operation, vector, positions);
                case FILTER -> throw new AssertionError();
            };
        }
        long work = parsing + decoded.nanos() + System.nanoTime() - start;
        if (operation.keep()) {
            synchronized (kept) {
                keep(id, toKeep);
            }
        }
        return new NodeReply(node, body, work, decoded.fromOtherNodes(), decoded.degraded());
    }

    /** The rows of the chunk for which the operation's predicate holds. */
    private static RoaringBitmap filter(ObjectColumns columns, ChunkOperation operation, ColumnVector values,
            RowGroupInfo group) {
        var table = columns.table(Map.of(operation.column(), values), Math.toIntExact(group.rowCount()));
        BoundQuery bound = Query.parse(operation.predicate()).bind(table.schema());
        RoaringBitmap matches = RoaringBitmap.bitmapOf(bound.select(table).toArray());
        matches.runOptimize();
        return matches;
    }

    private static ByteBuffer serialized(RoaringBitmap rows) {
        ByteBuffer out = ByteBuffer.allocate(rows.serializedSizeInBytes());
        rows.serialize(out);
        return out.flip();
    }

    /** The partials of {@code values} at {@code rows}, the positions of the operation's selected rows in them. */
    private static ByteBuffer aggregate(ChunkOperation operation, ColumnVector values, RoaringBitmap rows) {
        int selected = rows.getCardinality();
        if (operation.groups() > Math.max(1, selected)) {
            throw new IllegalArgumentException(operation + " announces " + operation.groups() + " groups for "
                    + selected + " selected rows");
        }
        ByteBuffer packed = operation.groupIds();
        if (packed.hasRemaining() && (packed.remaining() < 4 || packed.getInt(packed.position()) != selected)) {
            throw new IllegalArgumentException(operation + " sends group ids that are not one per selected row ("
                    + selected + ")");
        }
        int[] ids = packed.hasRemaining() ? GroupKeys.unpackIds(packed) : new int[selected];
        if (ids.length != rows.getCardinality()) {
            throw new IllegalArgumentException(operation + " sends " + ids.length + " group ids for "
                    + rows.getCardinality() + " selected rows");
        }
        for (int id : ids) {
            if (id >= operation.groups()) {
                throw new IllegalArgumentException(operation + " sends group id " + id + " of "
                        + operation.groups() + " groups");
            }
        }
        return AggregatePartial.encode(AggregatePartial.ofGroups(values, rows, ids, operation.groups()));
    }

    /** The selected rows of {@code operation}. */
    static RoaringBitmap rows(ChunkOperation operation) {
        RoaringBitmap rows = new RoaringBitmap();
        try {
            rows.deserialize(operation.rows().duplicate());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(operation + " sends malformed selected rows", e);
        }
        return rows;
    }

    /**
     * The chunk decoded: kept from an earlier operator of the query, or read now. What was kept serves {@code rows}
     * (null: every row, for a filter) if it holds them all; else it is dropped and the chunk read again.
     */
    private Decoded decoded(int node, String id, ChunkOperation operation, ObjectState object, RowGroupInfo group,
            ColumnChunkInfo chunk, RoaringBitmap rows) {
        synchronized (kept) {
            ChunkValues values = kept.remove(id);
            if (values != null) {
                keptBytes -= values.estimatedBytes();
                if (values.holds(rows)) {
                    return new Decoded(values, 0, false, 0);
                }
            }
        }
        ByteRange range = chunk.byteRange();
        ByteBuffer bytes;
        long fromOthers;
        boolean degraded;
        long start;
        synchronized (reads) {
            start = System.nanoTime();
            FacStatistics before = store.statistics();
            bytes = ObjectBackend.await(store.readRangeAsync(object.manifest(), range));
            FacStatistics after = store.statistics();
            degraded = after.degradedReads() > before.degradedReads();
            fromOthers = degraded ? after.bytesFromNodes() - before.bytesFromNodes()
                    : range.length() - held(object.manifest(), range, node);
        }
        ColumnVector values = object.columns().decode(group.index(), operation.column(), bytes);
        long nanos = System.nanoTime() - start;
        return new Decoded(ChunkValues.all(values), fromOthers, degraded, nanos);
    }

    /** Drops what {@code queryId}'s operators kept: the query ended. */
    public void release(String queryId) {
        String prefix = queryId + "\u0000";
        synchronized (kept) {
            for (Iterator<Map.Entry<String, ChunkValues>> it = kept.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<String, ChunkValues> entry = it.next();
                if (entry.getKey().startsWith(prefix)) {
                    keptBytes -= entry.getValue().estimatedBytes();
                    it.remove();
                }
            }
        }
    }

    /**
     * Keeps {@code values} under {@code id} if they fit the budget, in place of what was kept under it, dropping the
     * least recently kept to fit. Called holding {@code kept}.
     */
    private void keep(String id, ChunkValues values) {
        if (values.estimatedBytes() > keepBytes) {
            return;
        }
        ChunkValues replaced = kept.put(id, values);
        keptBytes += values.estimatedBytes() - (replaced == null ? 0 : replaced.estimatedBytes());
        for (Iterator<ChunkValues> oldest = kept.values().iterator(); keptBytes > keepBytes && oldest.hasNext(); ) {
            keptBytes -= oldest.next().estimatedBytes();
            oldest.remove();
        }
    }

    /** Bytes of {@code range} that {@code node} holds. */
    private static long held(FacManifest manifest, ByteRange range, int node) {
        long bytes = 0;
        for (FacManifest.Segment segment : manifest.segments()) {
            long from = Math.max(range.offset(), segment.objectOffset());
            long to = Math.min(range.end(), segment.objectOffset() + segment.length());
            if (from < to && manifest.block(segment.stripe(), segment.block()).node() == node) {
                bytes += to - from;
            }
        }
        return bytes;
    }

    /** The manifest and footer of the object's version {@code generation}, read once. */
    private ObjectState object(String key, String generation) {
        String id = key + "\u0000" + generation;
        synchronized (objects) {
            ObjectState known = objects.get(id);
            if (known != null) {
                return known;
            }
        }
        FacManifest manifest;
        ParquetObject parquet;
        synchronized (reads) {   // not inside a chunk read's statistics
            manifest = store.manifest(key);
            if (!manifest.generation().equals(generation)) {
                throw new StorageException("The query planned with generation " + generation + " of " + key
                        + ", but the store holds generation " + manifest.generation() + ": the object was replaced");
            }
            try {
                parquet = ParquetObject.open(new BackendInputFile(store, key, manifest.objectSize(),
                        FetchOptions.defaults().withTailSize(PushdownEngine.footerTail(manifest))));
            } catch (UncheckedIOException e) {
                throw new StorageException("Cannot read the footer of " + key + ": " + e.getMessage(), e);
            }
        }
        ObjectState state = new ObjectState(manifest, new ObjectColumns(parquet.footer()));
        synchronized (objects) {
            objects.put(id, state);
            if (objects.size() > OBJECTS) {
                Iterator<ObjectState> eldest = objects.values().iterator();
                eldest.next();
                eldest.remove();
            }
        }
        return state;
    }

    private record ObjectState(FacManifest manifest, ObjectColumns columns) {
    }

    /** A chunk decoded; {@code nanos} is what reading and decoding it took (0 when it was kept). */
    private record Decoded(ChunkValues values, long fromOtherNodes, boolean degraded, long nanos) {
    }

    /**
     * A chunk's values: all of them ({@code rows} null), or those of the rows a filter matched, in row order, as a
     * filter keeps them for the query's later operators. The engine's later operators ask only for rows among a
     * filter's matches (the query's selected rows are the AND of its filters); other rows are read again.
     */
    private record ChunkValues(ColumnVector vector, RoaringBitmap rows) {

        /** Every value of the chunk, row i at position i. */
        static ChunkValues all(ColumnVector vector) {
            return new ChunkValues(vector, null);
        }

        /**
         * What a filter that matched {@code matches} keeps: the matched rows' values when they are at most a quarter
         * of the chunk's rows ({@code SUBSET_ONE_IN}; a short copy for a large saving, even when the whole chunk
         * would fit the budget), else all of them.
         */
        static ChunkValues after(ColumnVector vector, RoaringBitmap matches) {
            if ((long) matches.getCardinality() * SUBSET_ONE_IN > vector.size()) {
                return all(vector);
            }
            ColumnVectorBuilder subset = ColumnVectorBuilder.of(vector.type(), matches.getCardinality());
            for (IntIterator it = matches.getIntIterator(); it.hasNext(); ) {
                subset.append(vector, it.next());
            }
            return new ChunkValues(subset.build(), matches);
        }

        /** Whether these values hold every row of {@code wanted} (null: every row of the chunk). */
        boolean holds(RoaringBitmap wanted) {
            return rows == null || wanted != null && RoaringBitmap.andNotCardinality(wanted, rows) == 0;
        }

        /** Where the rows of {@code wanted}, all held, are among these values. */
        RoaringBitmap positionsOf(RoaringBitmap wanted) {
            if (rows == null) {
                return wanted;
            }
            RoaringBitmap at = new RoaringBitmap();
            IntIterator held = rows.getIntIterator();
            int position = -1;
            int row = -1;
            for (IntIterator it = wanted.getIntIterator(); it.hasNext(); ) {
                int next = it.next();
                while (row < next) {   // every wanted row is held: holds() was asked first
                    row = held.next();
                    position++;
                }
                at.add(position);
            }
            return at;
        }

        long estimatedBytes() {
            return vector.estimatedBytes() + (rows == null ? 0 : rows.getLongSizeInBytes());
        }
    }
}
