package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * What a storage node answers to a {@link ChunkOperation}: the operator's result in its wire form (a Roaring bitmap,
 * projected values, group keys or partials, by the operation's kind) and what running it took.
 *
 * <pre>{@code
 * NodeReply reply = operators.run(3, filter).join();
 * RoaringBitmap rows = new RoaringBitmap();
 * rows.deserialize(reply.body().duplicate());
 * }</pre>
 *
 * @param node              the node that ran the operator: the chunk's, or a stand-in when that one was down
 * @param body              the result
 * @param workNanos         the node's time on it: reading the chunk, decoding and evaluating
 * @param fromOtherNodes    bytes the node read from other nodes for it (pieces of the chunk it does not hold, or the
 *                          blocks it rebuilt the chunk from)
 * @param degraded          whether the chunk was rebuilt from other blocks of its stripe
 */
public record NodeReply(int node, ByteBuffer body, long workNanos, long fromOtherNodes, boolean degraded) {

    public NodeReply {
        body = requireNonNull(body, "body is null").duplicate();
        if (workNanos < 0 || fromOtherNodes < 0) {
            throw new IllegalArgumentException("A node reply cannot take " + workNanos + " ns or read "
                    + fromOtherNodes + " bytes from other nodes");
        }
    }

    /** The result; a view of its own, so reading it changes nothing here. */
    @Override
    public ByteBuffer body() {
        return body.duplicate();
    }

    /** This reply as run by {@code runner}: a client sets the node it reached. */
    public NodeReply ranOn(int runner) {
        return new NodeReply(runner, body, workNanos, fromOtherNodes, degraded);
    }

    /** This reply as bytes, for a transport (the node is the client's to set). */
    public byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(8 + 8 + 1 + body.remaining()).putLong(workNanos).putLong(fromOtherNodes)
                .put((byte) (degraded ? 1 : 0)).put(body.duplicate());
        return out.array();
    }

    /**
     * What {@link #encode} wrote, as run by {@code node}.
     *
     * @throws IllegalArgumentException if the bytes are cut short
     */
    public static NodeReply decode(int node, ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate();
        try {
            long work = in.getLong();
            long fromOthers = in.getLong();
            boolean degraded = in.get() != 0;
            ByteBuffer body = in.slice();
            if (!body.hasArray()) {   // a read-only or direct buffer: the wire forms decode from an array
                body = ByteBuffer.allocate(body.remaining()).put(body).flip();
            }
            return new NodeReply(node, body, work, fromOthers, degraded);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("Malformed node reply: " + bytes.remaining() + " bytes, at least 17"
                    + " expected", e);
        }
    }
}
