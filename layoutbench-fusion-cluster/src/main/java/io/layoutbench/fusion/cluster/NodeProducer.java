package io.layoutbench.fusion.cluster;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.TransientStorageException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Flight side of a {@link StorageNodeServer}: answers reads, puts, sizes, listings and deletes of its
 * {@link ObjectBackend} as {@link NodeProtocol} describes, and runs chunk operators ({@link OperatorHost}).
 *
 * <p>A read (and an operator's reply) streams on a thread of its own, not on the one gRPC called {@link #getStream} on:
 * it waits for the client to take each batch ({@link BackpressureStrategy}), and gRPC delivers that signal through the
 * call's executor, which the calling thread holds until it returns. The backend is read one chunk ahead of what is
 * sent. Puts are spooled ({@link PutSpool}) and written once the client ended its stream with every byte it announced.
 */
final class NodeProducer extends NoOpFlightProducer {

    private static final Logger LOG = LoggerFactory.getLogger(NodeProducer.class);
    /** How long a read waits for a client that takes no batch, before it gives up on it. */
    private static final long STALLED_CLIENT_MILLIS = 60_000;

    private final ObjectBackend backend;
    private final OperatorHost operators;
    private final BufferAllocator allocator;
    private final ExecutorService streams;
    private final long memorySpoolLimit;
    private final Semaphore memorySpoolBudget;
    private final Path spoolDirectory;
    private final int listPageSize;
    private final String name;

    /**
     * @param memorySpoolBudget bytes all puts in progress may spool in memory together, one permit a byte
     * @param listPageSize      most keys a list page holds, at most {@value NodeProtocol#LIST_PAGE_SIZE}
     */
    NodeProducer(ObjectBackend backend, OperatorHost operators, BufferAllocator allocator, ExecutorService streams,
            long memorySpoolLimit, Semaphore memorySpoolBudget, Path spoolDirectory, int listPageSize, String name) {
        this.backend = backend;
        this.operators = operators;
        this.allocator = allocator;
        this.streams = streams;
        this.memorySpoolLimit = memorySpoolLimit;
        this.memorySpoolBudget = memorySpoolBudget;
        this.spoolDirectory = spoolDirectory;
        this.listPageSize = listPageSize;
        this.name = name;
    }

    // ---- reads ---------------------------------------------------------------------------------------------

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        if (NodeProtocol.isOperate(ticket.getBytes())) {
            operate(ticket.getBytes(), listener);
            return;
        }
        NodeProtocol.ReadRequest request;
        try {
            request = NodeProtocol.decodeRead(ticket.getBytes());
        } catch (IllegalArgumentException e) {
            listener.error(NodeErrors.toFlight(e));
            return;
        }
        onStreamThread(listener, backpressure -> streamRead(request, listener, backpressure));
    }

    /** Runs {@code stream} on a thread of its own, with the call's backpressure: see the class comment for why. */
    private void onStreamThread(ServerStreamListener listener, Consumer<BackpressureStrategy> stream) {
        BackpressureStrategy.CallbackBackpressureStrategy backpressure =
                new BackpressureStrategy.CallbackBackpressureStrategy();
        backpressure.register(listener);
        try {
            streams.execute(() -> stream.accept(backpressure));
        } catch (RejectedExecutionException e) {
            listener.error(CallStatus.UNAVAILABLE.withDescription(name + " is shutting down").toRuntimeException());
        }
    }

    private void streamRead(NodeProtocol.ReadRequest request, ServerStreamListener listener,
            BackpressureStrategy backpressure) {
        try {
            Read read = startRead(request);
            try (VectorSchemaRoot root = VectorSchemaRoot.create(NodeProtocol.schema(read.length()), allocator)) {
                listener.start(root);
                if (read.whole() != null) {
                    if (!sendAll(root, listener, backpressure, read.whole())) {
                        return;
                    }
                } else if (!streamChunks(request.key(), read, root, listener, backpressure)) {
                    return;
                }
                listener.completed();
            }
        } catch (RuntimeException e) {
            LOG.debug("{}: read of {} {} failed", name, request.key(), request.whole() ? "(all)" : request.range(), e);
            listener.error(NodeErrors.toFlight(e));
        }
    }

    /**
     * What a read will send: a read that fits in one chunk, or of a whole object that does, is one read of the
     * backend, so it sees one version of the object; a longer one is read in chunks after its size is checked.
     */
    private Read startRead(NodeProtocol.ReadRequest request) {
        String key = request.key();
        if (request.whole()) {
            long size = backend.size(key);
            if (size <= NodeProtocol.CHUNK_BYTES) {
                ByteBuffer all = ObjectBackend.await(backend.readAllAsync(key));
                return new Read(all.remaining(), 0, all);
            }
            return new Read(size, 0, null);
        }
        ByteRange range = request.range();
        if (range.length() <= NodeProtocol.CHUNK_BYTES) {
            ByteBuffer bytes = ObjectBackend.await(backend.readRangeAsync(key, range));
            return new Read(bytes.remaining(), range.offset(), bytes);
        }
        long size = backend.size(key);
        if (!range.fitsIn(size)) {
            throw new RangeNotSatisfiableException(key, range, size);
        }
        return new Read(range.length(), range.offset(), null);
    }

    /** Sends {@code read} chunk by chunk, reading the next chunk while one is sent; false if the client left. */
    private boolean streamChunks(String key, Read read, VectorSchemaRoot root, ServerStreamListener listener,
            BackpressureStrategy backpressure) {
        long end = read.offset() + read.length();
        CompletableFuture<ByteBuffer> next = readChunk(key, read.offset(), end);
        for (long at = read.offset(); at < end; ) {
            ByteRange chunk = chunk(at, end);
            ByteBuffer bytes;
            try {
                bytes = ObjectBackend.await(next);
            } catch (RangeNotSatisfiableException e) {
                throw new TransientStorageException("Cannot read " + chunk + " of " + key + " in " + backend.uri()
                        + ": the object changed during the read (" + e.getMessage() + ")", e, false);
            }
            at += chunk.length();
            next = at < end ? readChunk(key, at, end) : null;
            if (!send(root, listener, backpressure, bytes, bytes.position(), bytes.remaining())) {
                return false;
            }
        }
        return true;
    }

    private CompletableFuture<ByteBuffer> readChunk(String key, long at, long end) {
        return backend.readRangeAsync(key, chunk(at, end));
    }

    private static ByteRange chunk(long at, long end) {
        return ByteRange.of(at, Math.min(NodeProtocol.CHUNK_BYTES, end - at));
    }

    /** Sends {@code length} bytes of {@code bytes} from index {@code at} as one batch; false if the client left. */
    private boolean send(VectorSchemaRoot root, ServerStreamListener listener, BackpressureStrategy backpressure,
            ByteBuffer bytes, int at, int length) {
        switch (backpressure.waitForListener(STALLED_CLIENT_MILLIS)) {
            case READY:
                break;
            case CANCELLED:
                return false;
            case TIMEOUT:
                throw CallStatus.TIMED_OUT.withDescription(name + " gave up on a client that took no data for "
                        + STALLED_CLIENT_MILLIS + " ms").toRuntimeException();
            default:
                throw CallStatus.UNAVAILABLE.withDescription(name + " is shutting down").toRuntimeException();
        }
        VarBinaryVector vector = (VarBinaryVector) root.getVector(0);
        vector.setSafe(0, bytes.duplicate(), at, length);   // Arrow may move a buffer's position: not the caller's
        vector.setValueCount(1);
        root.setRowCount(1);
        listener.putNext();
        return true;
    }

    /** Sends {@code all} in batches of at most 1 MiB; false if the client left. */
    private boolean sendAll(VectorSchemaRoot root, ServerStreamListener listener, BackpressureStrategy backpressure,
            ByteBuffer all) {
        for (int at = all.position(); at < all.limit(); at += NodeProtocol.CHUNK_BYTES) {
            int length = Math.min(NodeProtocol.CHUNK_BYTES, all.limit() - at);
            if (!send(root, listener, backpressure, all, at, length)) {
                return false;
            }
        }
        return true;
    }

    // ---- operators -----------------------------------------------------------------------------------------

    /** Runs a chunk operator on a thread of its own and streams its reply as a read's bytes. */
    private void operate(byte[] ticket, ServerStreamListener listener) {
        NodeProtocol.OperateRequest request;
        try {
            request = NodeProtocol.decodeOperate(ticket);
        } catch (IllegalArgumentException e) {
            listener.error(NodeErrors.toFlight(e));
            return;
        }
        onStreamThread(listener, backpressure -> {
            try {
                ByteBuffer reply = ByteBuffer.wrap(operators.run(request).encode());
                try (VectorSchemaRoot root = VectorSchemaRoot.create(NodeProtocol.schema(reply.remaining()),
                        allocator)) {
                    listener.start(root);
                    if (sendAll(root, listener, backpressure, reply)) {
                        listener.completed();
                    }
                }
            } catch (RuntimeException e) {
                LOG.debug("{}: {} failed", name, request.operation(), e);
                listener.error(NodeErrors.toFlight(e));
            } catch (Error e) {   // out of memory, say: the call still ends, with the reason
                LOG.warn("{}: {} failed", name, request.operation(), e);
                listener.error(CallStatus.INTERNAL.withDescription(name + ": " + request.operation() + " failed: "
                        + e).toRuntimeException());
            }
        });
    }

    /** A read's total length, first offset, and its bytes when they were read at once (null when in chunks). */
    private record Read(long length, long offset, ByteBuffer whole) {
    }

    // ---- puts ----------------------------------------------------------------------------------------------

    @Override
    public Runnable acceptPut(CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream) {
        return () -> {
            String key = null;
            try {
                // getDescriptor() waits for the first message, forever if the client cancelled before sending it:
                // next() ends on cancellation. The descriptor comes with the first message, the schema.
                boolean more = flightStream.next();
                if (!flightStream.hasRoot()) {
                    throw new IllegalArgumentException("A put to " + name + " ended without sending a schema");
                }
                FlightDescriptor descriptor = flightStream.getDescriptor();
                if (!descriptor.isCommand()) {
                    throw new IllegalArgumentException("A put to " + name + " needs a command descriptor, got "
                            + descriptor);
                }
                NodeProtocol.PutRequest request = NodeProtocol.decodePut(descriptor.getCommand());
                key = request.key();
                try (PutSpool spool = PutSpool.create(key, request.length(), memorySpoolLimit, memorySpoolBudget,
                        spoolDirectory)) {
                    receive(flightStream, more, spool);
                    spool.storeIn(backend);
                }
                ackStream.onCompleted();
            } catch (RuntimeException e) {
                LOG.debug("{}: put of {} failed", name, key, e);
                ackStream.onError(NodeErrors.toFlight(e));
            }
        };
    }

    /** Spools the batches of a put: the current one if {@code more}, and those that follow. */
    private void receive(FlightStream flightStream, boolean more, PutSpool spool) {
        VectorSchemaRoot root = flightStream.getRoot();
        if (!NodeProtocol.isByteSchema(root.getSchema())) {
            throw new IllegalArgumentException("A put to " + name + " sends one binary column, got "
                    + root.getSchema());
        }
        for (boolean batch = more; batch; batch = flightStream.next()) {
            VarBinaryVector vector = (VarBinaryVector) root.getVector(0);
            for (int row = 0; row < root.getRowCount(); row++) {
                if (vector.isNull(row)) {
                    throw new IllegalArgumentException("A put to " + name + " sent a null batch row");
                }
                if (vector.getValueLength(row) > NodeProtocol.CHUNK_BYTES) {
                    // The server takes messages up to an operator ticket's size; a put's batches hold 1 MiB.
                    throw CallStatus.RESOURCE_EXHAUSTED.withDescription("A put to " + name + " sent a batch of "
                            + vector.getValueLength(row) + " bytes; a batch holds at most " + NodeProtocol.CHUNK_BYTES)
                            .toRuntimeException();
                }
                spool.write(vector.getDataBuffer(), vector.getStartOffset(row), vector.getValueLength(row));
            }
        }
    }

    // ---- size, list, delete --------------------------------------------------------------------------------

    @Override
    public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
        try {
            switch (action.getType()) {
                case NodeProtocol.SIZE -> listener.onNext(new Result(NodeProtocol.encodeSize(
                        backend.size(NodeProtocol.decodeKey(action.getBody())))));
                case NodeProtocol.LIST -> listener.onNext(new Result(NodeProtocol.encodePage(
                        page(NodeProtocol.decodeList(action.getBody())))));
                case NodeProtocol.DELETE -> backend.delete(NodeProtocol.decodeKey(action.getBody()));
                default -> throw CallStatus.UNIMPLEMENTED.withDescription(name + " has no action '" + action.getType()
                        + "'; its actions are " + NodeProtocol.SIZE + ", " + NodeProtocol.LIST + " and "
                        + NodeProtocol.DELETE).toRuntimeException();
            }
            listener.onCompleted();
        } catch (RuntimeException e) {
            LOG.debug("{}: action {} failed", name, action.getType(), e);
            listener.onError(NodeErrors.toFlight(e));
        }
    }

    /**
     * One page of the listing: the backend's listing of the prefix, from the start, past the previous page's last
     * key (an {@link ObjectBackend} lists from the start of a prefix only). "Past" is in the backend's own order,
     * whatever it is (the local backends order keys as {@link String#compareTo} does, UTF-16; S3 by UTF-8 bytes,
     * which differ for U+E000 to U+FFFF against supplementary characters): the page starts after that key's entry.
     * Only if the key was deleted meanwhile are keys compared, by UTF-8 bytes, unsigned.
     */
    private NodeProtocol.ListPage page(NodeProtocol.ListRequest request) {
        String startAfter = request.startAfter();
        if (startAfter != null) {
            NodeProtocol.ListPage afterEntry = page(request.prefix(), null, startAfter);
            if (afterEntry != null) {
                return afterEntry;
            }
            byte[] after = startAfter.getBytes(StandardCharsets.UTF_8);
            return page(request.prefix(),
                    info -> Arrays.compareUnsigned(info.key().getBytes(StandardCharsets.UTF_8), after) > 0, null);
        }
        return page(request.prefix(), info -> true, null);
    }

    /**
     * The first page of the objects under {@code prefix} that {@code past} accepts, or (when {@code afterKey} is
     * given) that follow the entry of {@code afterKey}; null if there is no such entry.
     */
    private NodeProtocol.ListPage page(String prefix, Predicate<ObjectInfo> past, String afterKey) {
        List<ObjectInfo> objects = new ArrayList<>();
        boolean started = afterKey == null;
        try (Stream<ObjectInfo> listed = backend.list(prefix)) {
            Iterator<ObjectInfo> all = listed.iterator();
            while (all.hasNext()) {
                ObjectInfo info = all.next();
                if (!started) {
                    started = info.key().equals(afterKey);
                    continue;
                }
                if (past != null && !past.test(info)) {
                    continue;
                }
                if (objects.size() == listPageSize) {
                    return new NodeProtocol.ListPage(objects, true);
                }
                objects.add(info);
            }
        }
        return started ? new NodeProtocol.ListPage(objects, false) : null;
    }

    @Override
    public void listActions(CallContext context, StreamListener<ActionType> listener) {
        listener.onNext(new ActionType(NodeProtocol.SIZE, "the size of an object, in 8 bytes"));
        listener.onNext(new ActionType(NodeProtocol.LIST, "a page of the objects under a prefix"));
        listener.onNext(new ActionType(NodeProtocol.DELETE, "delete an object"));
        listener.onCompleted();
    }
}
