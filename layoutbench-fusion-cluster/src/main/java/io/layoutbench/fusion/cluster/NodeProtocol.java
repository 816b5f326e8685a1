package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.fusion.pushdown.ChunkOperation;
import io.layoutbench.fusion.pushdown.NodeReply;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a storage node and its clients say to each other over Arrow Flight, in one place:
 * <ul>
 *   <li><b>Read</b>: DoGet with a ticket holding the key and the range (or "the whole object"). The node answers
 *       with a schema of one non-null binary column {@code bytes} whose metadata {@value #LENGTH} says how many bytes
 *       follow, then record batches of one row each, at most {@value #CHUNK_BYTES} bytes a batch.
 *   <li><b>Put</b>: DoPut with a command descriptor holding the key and the length, then batches in the same schema;
 *       the node answers once it stored the object.
 *   <li><b>Operate</b>: DoGet with a ticket whose first byte is {@link #OPERATE}: the store the node is part of
 *       (every node's URI in order, the key prefix of the blocks, the FAC options), which node of it this one is,
 *       and a {@link ChunkOperation}. The node runs it on the blocks ({@link OperatorHost}) and answers with the
 *       {@link NodeReply}'s bytes, streamed as a read's are.
 *   <li><b>Size, list, delete</b>: DoAction {@value #SIZE} (body: the key; result: 8 bytes), {@value #LIST} (body:
 *       prefix and the last key of the previous page; result: one page of at most {@value #LIST_PAGE_SIZE} objects)
 *       and {@value #DELETE} (body: the key; no result).
 * </ul>
 * Every message body starts with the byte {@value #VERSION}; strings are a 4-byte length and UTF-8, numbers
 * big-endian. Errors travel as Flight status codes; a range past the end carries the object's size in the error
 * metadata {@value #OBJECT_SIZE} (see {@code NodeErrors}).
 */
final class NodeProtocol {

    /** The most bytes in one batch of a read or a put. */
    static final int CHUNK_BYTES = 1 << 20;
    /** The most objects in one page of a listing. */
    static final int LIST_PAGE_SIZE = 1000;
    /** The largest encoded list page: {@value #LIST_PAGE_SIZE} keys of at most 1,024 bytes, with their sizes. */
    static final int MAX_PAGE_BYTES = 1 + 1 + 4 + LIST_PAGE_SIZE * (4 + 1024 + 8);
    /**
     * The largest gRPC message either side accepts: a batch of {@value #CHUNK_BYTES} bytes or a whole list page,
     * with 64 KiB for the IPC framing, the descriptor and the metadata.
     */
    static final int MAX_MESSAGE_BYTES = Math.max(CHUNK_BYTES, MAX_PAGE_BYTES) + (64 << 10);
    /** Error metadata of a RESOURCE_EXHAUSTED that the node's backend was throttled (not a message too large). */
    static final String THROTTLED = "layoutbench-throttled";
    /** Error metadata of an UNAVAILABLE that the node's backend failed transiently (the node itself answered). */
    static final String BACKEND_FAULT = "layoutbench-backend-fault";
    /**
     * Error metadata of an operator whose chunk could not be rebuilt: the object (URL-encoded), stripe, unit and the
     * nodes whose blocks were lost, separated by {@code ;} (the nodes by commas).
     */
    static final String STRIPE_UNAVAILABLE = "layoutbench-stripe-unavailable";
    /** Schema metadata of a read: how many bytes the batches hold in all. */
    static final String LENGTH = "layoutbench.length";
    /** Error metadata of a range past the end: the object's size. */
    static final String OBJECT_SIZE = "layoutbench-object-size";
    static final String SIZE = "size";
    static final String LIST = "list";
    static final String DELETE = "delete";
    static final byte VERSION = 1;
    /** The first byte of a DoGet ticket that runs an operator (a read ticket starts with {@link #VERSION}). */
    static final byte OPERATE = (byte) 0x4F;
    /**
     * The largest operator ticket a node takes: a grouped aggregate carries each selected row's group, bit-packed,
     * which for a row group of a million rows in a million groups is 2.5 MB.
     */
    static final int MAX_OPERATOR_TICKET_BYTES = 64 << 20;

    private static final String COLUMN = "bytes";
    private static final long WHOLE = -1;

    private NodeProtocol() {
    }

    /** A read: {@code range} of {@code key}, or all of it when {@code range} is null. */
    record ReadRequest(String key, ByteRange range) {
        ReadRequest {
            requireNonNull(key, "key is null");
        }

        boolean whole() {
            return range == null;
        }
    }

    /** A put of {@code length} bytes as {@code key}. */
    record PutRequest(String key, long length) {
        PutRequest {
            requireNonNull(key, "key is null");
            if (length < 0) {
                throw new IllegalArgumentException("A put of " + key + " announces " + length + " bytes");
            }
        }
    }

    /** A page of the listing of {@code prefix}: the keys after {@code startAfter} (all of them when it is null). */
    record ListRequest(String prefix, String startAfter) {
        ListRequest {
            requireNonNull(prefix, "prefix is null");
        }
    }

    /** One page of a listing; {@code truncated} when more objects follow. */
    record ListPage(List<ObjectInfo> objects, boolean truncated) {
        ListPage {
            objects = List.copyOf(objects);
        }
    }

    /**
     * The FAC store a node takes part in, as an operator's node reads it: every node's URI in order, the prefix its
     * blocks are kept under on each node ("" for none), and the store's options ({@link
     * io.layoutbench.fusion.store.FacOptions#toMap()}).
     */
    record Store(List<URI> nodes, String prefix, Map<String, String> options) {
        Store {
            nodes = List.copyOf(nodes);
            requireNonNull(prefix, "prefix is null");
            options = Map.copyOf(options);
        }
    }

    /** An operator for node {@code self} of {@code store}. */
    record OperateRequest(Store store, int self, ChunkOperation operation) {
        OperateRequest {
            requireNonNull(store, "store is null");
            requireNonNull(operation, "operation is null");
            if (self < 0 || self >= store.nodes().size()) {
                throw new IllegalArgumentException("Node " + self + " is not one of the store's "
                        + store.nodes().size() + " nodes");
            }
        }
    }

    static boolean isOperate(byte[] ticket) {
        return ticket.length > 0 && ticket[0] == OPERATE;
    }

    static byte[] encodeOperate(OperateRequest request) {
        List<byte[]> strings = new ArrayList<>();
        request.store().nodes().forEach(uri -> strings.add(utf8(uri.toString())));
        strings.add(utf8(request.store().prefix()));
        new TreeMap<>(request.store().options()).forEach((k, v) -> {
            strings.add(utf8(k));
            strings.add(utf8(v));
        });
        byte[] operation = request.operation().encode();
        long length = 1 + 1 + 4 + 4 + 4 + 4 + (long) operation.length;
        for (byte[] s : strings) {
            length += 4 + s.length;
        }
        if (length > MAX_OPERATOR_TICKET_BYTES) {
            throw new IllegalArgumentException("The " + request.operation() + " takes " + length + " bytes to send,"
                    + " more than the " + MAX_OPERATOR_TICKET_BYTES + " a node takes: use smaller row groups");
        }
        ByteBuffer out = ByteBuffer.allocate((int) length).put(OPERATE).put(VERSION).putInt(request.self())
                .putInt(request.store().nodes().size()).putInt(request.store().options().size());
        strings.forEach(s -> putBytes(out, s));
        putBytes(out, operation);
        return out.array();
    }

    static OperateRequest decodeOperate(byte[] ticket) {
        if (!isOperate(ticket) || ticket.length < 2 || ticket[1] != VERSION) {
            throw new IllegalArgumentException("Malformed operator ticket: it does not start with " + OPERATE
                    + " and version " + VERSION);
        }
        ByteBuffer in = ByteBuffer.wrap(ticket, 2, ticket.length - 2);
        try {
            int self = in.getInt();
            int nodes = in.getInt();
            int options = in.getInt();
            if (nodes < 1 || nodes > 4096 || options < 0 || options > 64) {
                throw new IllegalArgumentException("Malformed operator ticket: " + nodes + " nodes, " + options
                        + " options");
            }
            List<URI> uris = new ArrayList<>(nodes);
            for (int i = 0; i < nodes; i++) {
                uris.add(URI.create(getString(in)));
            }
            String prefix = getString(in);
            Map<String, String> map = new TreeMap<>();
            for (int i = 0; i < options; i++) {
                map.put(getString(in), getString(in));
            }
            int length = in.getInt();
            if (length < 0 || length != in.remaining()) {
                throw new IllegalArgumentException("Malformed operator ticket: an operation of " + length
                        + " bytes in " + in.remaining());
            }
            byte[] operation = new byte[length];
            in.get(operation);
            return new OperateRequest(new Store(uris, prefix, map), self, ChunkOperation.decode(operation));
        } catch (BufferUnderflowException e) {
            throw truncated("operator ticket", ticket);
        }
    }

    /** The schema of a read of {@code length} bytes, or of a put (length -1: not announced in the schema). */
    static Schema schema(long length) {
        Field bytes = Field.notNullable(COLUMN, ArrowType.Binary.INSTANCE);
        return length < 0 ? new Schema(List.of(bytes))
                : new Schema(List.of(bytes), Map.of(LENGTH, Long.toString(length)));
    }

    /** Whether {@code schema} has the one binary column of reads and puts. */
    static boolean isByteSchema(Schema schema) {
        return schema.getFields().size() == 1 && schema.getFields().get(0).getType().equals(ArrowType.Binary.INSTANCE);
    }

    /**
     * The length a read's schema announces.
     *
     * @throws IllegalArgumentException if the schema is not a read's
     */
    static long length(Schema schema) {
        String length = schema.getCustomMetadata() == null ? null : schema.getCustomMetadata().get(LENGTH);
        if (!isByteSchema(schema) || length == null) {
            throw new IllegalArgumentException("expected one binary column and the metadata " + LENGTH + ", got "
                    + schema);
        }
        try {
            long value = Long.parseLong(length);
            if (value < 0) {
                throw new IllegalArgumentException("the schema announces " + value + " bytes");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the schema's " + LENGTH + " is not a number: '" + length + "'", e);
        }
    }

    static byte[] encodeRead(ReadRequest request) {
        byte[] key = utf8(request.key());
        ByteBuffer out = ByteBuffer.allocate(1 + 4 + key.length + 16).put(VERSION);
        putBytes(out, key);
        out.putLong(request.whole() ? WHOLE : request.range().offset());
        out.putLong(request.whole() ? WHOLE : request.range().length());
        return out.array();
    }

    static ReadRequest decodeRead(byte[] ticket) {
        ByteBuffer in = open(ticket, "read ticket");
        try {
            String key = getString(in);
            long offset = in.getLong();
            long length = in.getLong();
            end(in, "read ticket");
            return new ReadRequest(key, offset == WHOLE && length == WHOLE ? null : ByteRange.of(offset, length));
        } catch (BufferUnderflowException e) {
            throw truncated("read ticket", ticket);
        }
    }

    static byte[] encodePut(PutRequest request) {
        byte[] key = utf8(request.key());
        ByteBuffer out = ByteBuffer.allocate(1 + 4 + key.length + 8).put(VERSION);
        putBytes(out, key);
        return out.putLong(request.length()).array();
    }

    static PutRequest decodePut(byte[] command) {
        ByteBuffer in = open(command, "put command");
        try {
            String key = getString(in);
            long length = in.getLong();
            end(in, "put command");
            return new PutRequest(key, length);
        } catch (BufferUnderflowException e) {
            throw truncated("put command", command);
        }
    }

    static byte[] encodeKey(String key) {
        byte[] bytes = utf8(key);
        ByteBuffer out = ByteBuffer.allocate(1 + 4 + bytes.length).put(VERSION);
        putBytes(out, bytes);
        return out.array();
    }

    static String decodeKey(byte[] body) {
        ByteBuffer in = open(body, "key");
        try {
            String key = getString(in);
            end(in, "key");
            return key;
        } catch (BufferUnderflowException e) {
            throw truncated("key", body);
        }
    }

    static byte[] encodeList(ListRequest request) {
        byte[] prefix = utf8(request.prefix());
        byte[] after = request.startAfter() == null ? null : utf8(request.startAfter());
        ByteBuffer out = ByteBuffer.allocate(1 + 4 + prefix.length + 1 + 4 + (after == null ? 0 : after.length))
                .put(VERSION);
        putBytes(out, prefix);
        out.put((byte) (after == null ? 0 : 1));
        putBytes(out, after == null ? new byte[0] : after);
        return out.array();
    }

    static ListRequest decodeList(byte[] body) {
        ByteBuffer in = open(body, "list request");
        try {
            String prefix = getString(in);
            boolean hasStart = in.get() != 0;
            String after = getString(in);
            end(in, "list request");
            return new ListRequest(prefix, hasStart ? after : null);
        } catch (BufferUnderflowException e) {
            throw truncated("list request", body);
        }
    }

    static byte[] encodePage(ListPage page) {
        List<byte[]> keys = new ArrayList<>(page.objects().size());
        int bytes = 1 + 1 + 4;
        for (ObjectInfo info : page.objects()) {
            byte[] key = utf8(info.key());
            keys.add(key);
            bytes += 4 + key.length + 8;
        }
        ByteBuffer out = ByteBuffer.allocate(bytes).put(VERSION).put((byte) (page.truncated() ? 1 : 0))
                .putInt(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            putBytes(out, keys.get(i));
            out.putLong(page.objects().get(i).size());
        }
        return out.array();
    }

    static ListPage decodePage(byte[] body) {
        ByteBuffer in = open(body, "list page");
        try {
            boolean truncated = in.get() != 0;
            int count = in.getInt();
            if (count < 0 || count > LIST_PAGE_SIZE) {
                throw new IllegalArgumentException("Malformed list page: " + count + " objects, expected at most "
                        + LIST_PAGE_SIZE);
            }
            List<ObjectInfo> objects = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                objects.add(new ObjectInfo(getString(in), in.getLong()));
            }
            end(in, "list page");
            return new ListPage(objects, truncated);
        } catch (BufferUnderflowException e) {
            throw truncated("list page", body);
        }
    }

    static byte[] encodeSize(long size) {
        return ByteBuffer.allocate(1 + 8).put(VERSION).putLong(size).array();
    }

    static long decodeSize(byte[] body) {
        ByteBuffer in = open(body, "size");
        try {
            long size = in.getLong();
            end(in, "size");
            return size;
        } catch (BufferUnderflowException e) {
            throw truncated("size", body);
        }
    }

    private static ByteBuffer open(byte[] body, String what) {
        if (body == null || body.length == 0) {
            throw new IllegalArgumentException("Malformed " + what + ": empty");
        }
        if (body[0] != VERSION) {
            throw new IllegalArgumentException("Malformed " + what + ": protocol version " + body[0] + ", this node"
                    + " speaks version " + VERSION);
        }
        return ByteBuffer.wrap(body, 1, body.length - 1);
    }

    private static void end(ByteBuffer in, String what) {
        if (in.hasRemaining()) {
            throw new IllegalArgumentException("Malformed " + what + ": " + in.remaining() + " bytes after its end");
        }
    }

    private static IllegalArgumentException truncated(String what, byte[] body) {
        return new IllegalArgumentException("Malformed " + what + ": cut short at " + body.length + " bytes");
    }

    private static void putBytes(ByteBuffer out, byte[] bytes) {
        out.putInt(bytes.length).put(bytes);
    }

    private static String getString(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new BufferUnderflowException();
        }
        String value = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return value;
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
