package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One operator of a pushed-down query, to run on the storage node that holds a column chunk: what the coordinator
 * sends a node ({@link NodeOperators}), and what the node's {@link ChunkOperator} runs. It names the chunk by object,
 * generation (the manifest the coordinator planned with), row group and column, so a node that holds the FAC blocks
 * finds the bytes itself; the rest depends on the kind:
 * <ul>
 *   <li>{@link Kind#FILTER}: the predicate, as SQL on that one column; the node answers the matching rows as a
 *       serialized Roaring bitmap.
 *   <li>{@link Kind#PROJECT}: the selected rows (a serialized Roaring bitmap); the node answers their values,
 *       uncompressed ({@code ProjectedValues}).
 *   <li>{@link Kind#GROUP_KEYS}: the selected rows; the node answers their distinct values and a bit-packed id per
 *       row ({@code GroupKeys}).
 *   <li>{@link Kind#AGGREGATE}: the selected rows, and with GROUP BY each selected row's group, bit-packed, of
 *       {@code groups}; the node answers one partial (count, sums, minimum, maximum) per group.
 * </ul>
 * {@code keep} asks the node to keep the decoded chunk for a later operator of the same query ({@code queryId}), so
 * that the projection after a filter on the same column decodes it once.
 *
 * <pre>{@code
 * ChunkOperation filter = ChunkOperation.filter(queryId, "lineitem.parquet", manifest.generation(), 0,
 *         "l_quantity", "l_quantity < 2", true);
 * NodeReply reply = operators.run(3, filter).join();
 * }</pre>
 *
 * @param rows     the selected rows, a serialized Roaring bitmap; empty for a filter
 * @param groupIds the selected rows' groups, bit-packed; empty but for a grouped aggregate
 * @param groups   how many groups the ids number, 1 without GROUP BY
 */
public record ChunkOperation(Kind kind, String queryId, String key, String generation, int rowGroup, String column,
        boolean keep, String predicate, ByteBuffer rows, ByteBuffer groupIds, int groups) {

    /** Bytes of a request besides its predicate, bitmap and ids: object, range, column, operation. */
    static final int HEADER_BYTES = 64;
    private static final byte VERSION = 1;

    /** What the node runs on the chunk. */
    public enum Kind {
        FILTER, PROJECT, GROUP_KEYS, AGGREGATE
    }

    public ChunkOperation {
        requireNonNull(kind, "kind is null");
        requireNonNull(queryId, "queryId is null");
        requireNonNull(key, "key is null");
        requireNonNull(generation, "generation is null");
        requireNonNull(column, "column is null");
        requireNonNull(predicate, "predicate is null");
        rows = requireNonNull(rows, "rows is null").duplicate();
        groupIds = requireNonNull(groupIds, "groupIds is null").duplicate();
        if (rowGroup < 0 || groups < 1) {
            throw new IllegalArgumentException("A chunk operation needs a row group of at least 0 and a group count"
                    + " of at least 1, got row group " + rowGroup + " and " + groups + " groups");
        }
        if (kind == Kind.FILTER && predicate.isEmpty()) {
            throw new IllegalArgumentException("A filter of " + column + " in row group " + rowGroup + " of " + key
                    + " needs a predicate");
        }
    }

    /** A filter of {@code column} by {@code predicate} (SQL on that column alone). */
    public static ChunkOperation filter(String queryId, String key, String generation, int rowGroup, String column,
            String predicate, boolean keep) {
        return new ChunkOperation(Kind.FILTER, queryId, key, generation, rowGroup, column, keep, predicate,
                ByteBuffer.allocate(0), ByteBuffer.allocate(0), 1);
    }

    /** The values of {@code column} in {@code rows}, or (kind {@link Kind#GROUP_KEYS}) their group keys. */
    public static ChunkOperation select(Kind kind, String queryId, String key, String generation, int rowGroup,
            String column, ByteBuffer rows, boolean keep) {
        if (kind != Kind.PROJECT && kind != Kind.GROUP_KEYS) {
            throw new IllegalArgumentException("select makes projections and group-key requests, not " + kind);
        }
        return new ChunkOperation(kind, queryId, key, generation, rowGroup, column, keep, "", rows,
                ByteBuffer.allocate(0), 1);
    }

    /** The partials of {@code column} over {@code rows} per group ({@code groupIds} empty without GROUP BY). */
    public static ChunkOperation aggregate(String queryId, String key, String generation, int rowGroup,
            String column, ByteBuffer rows, ByteBuffer groupIds, int groups) {
        return new ChunkOperation(Kind.AGGREGATE, queryId, key, generation, rowGroup, column, false, "", rows,
                groupIds, groups);
    }

    /** The selected rows; a view of its own, so reading it changes nothing here. */
    @Override
    public ByteBuffer rows() {
        return rows.duplicate();
    }

    /** The selected rows' groups; a view of its own, so reading it changes nothing here. */
    @Override
    public ByteBuffer groupIds() {
        return groupIds.duplicate();
    }

    /** Bytes the request moves to the node, as the cost model counts them. */
    public long requestBytes() {
        return HEADER_BYTES + predicate.getBytes(StandardCharsets.UTF_8).length + rows.remaining()
                + groupIds.remaining();
    }

    /** The request as bytes, for a transport. */
    public byte[] encode() {
        byte[][] strings = {utf8(queryId), utf8(key), utf8(generation), utf8(column), utf8(predicate)};
        int length = 1 + 1 + 4 + 1 + 4 + 4 + rows.remaining() + 4 + groupIds.remaining();
        for (byte[] s : strings) {
            length += 4 + s.length;
        }
        ByteBuffer out = ByteBuffer.allocate(length).put(VERSION).put((byte) kind.ordinal()).putInt(rowGroup)
                .put((byte) (keep ? 1 : 0)).putInt(groups);
        for (byte[] s : strings) {
            out.putInt(s.length).put(s);
        }
        out.putInt(rows.remaining()).put(rows.duplicate());
        out.putInt(groupIds.remaining()).put(groupIds.duplicate());
        return out.array();
    }

    /**
     * What {@link #encode} wrote.
     *
     * @throws IllegalArgumentException naming what is malformed
     */
    public static ChunkOperation decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            byte version = in.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("Malformed chunk operation: version " + version + ", this node"
                        + " speaks version " + VERSION);
            }
            int kind = in.get();
            if (kind < 0 || kind >= Kind.values().length) {
                throw new IllegalArgumentException("Malformed chunk operation: kind " + kind);
            }
            int rowGroup = in.getInt();
            boolean keep = in.get() != 0;
            int groups = in.getInt();
            String queryId = string(in);
            String key = string(in);
            String generation = string(in);
            String column = string(in);
            String predicate = string(in);
            ByteBuffer rows = ByteBuffer.wrap(bytes(in));
            ByteBuffer groupIds = ByteBuffer.wrap(bytes(in));
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("Malformed chunk operation: " + in.remaining()
                        + " bytes after its end");
            }
            return new ChunkOperation(Kind.values()[kind], queryId, key, generation, rowGroup, column, keep,
                    predicate, rows, groupIds, groups);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("Malformed chunk operation: cut short at " + bytes.length + " bytes",
                    e);
        }
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + " of " + column + " in row group " + rowGroup
                + " of " + key + (predicate.isEmpty() ? "" : " (" + predicate + ")");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(ByteBuffer in) {
        return new String(bytes(in), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new BufferUnderflowException();
        }
        byte[] out = new byte[length];
        in.get(out);
        return out;
    }
}
