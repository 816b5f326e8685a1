package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.BackendProperties;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.backend.Retrier;
import io.layoutbench.api.backend.RetryPolicy;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Phaser;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightGrpcUtils;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * An {@link ObjectBackend} whose objects live on a {@link StorageNodeServer}, reached over Arrow Flight at
 * {@code flight://host:port}. Opened by {@link io.layoutbench.api.backend.ObjectBackends#open(String)} through
 * {@link FlightNodeBackendProvider}, so a FAC store over {@code node-uris=flight://...,flight://...} works as over
 * directories.
 *
 * <ul>
 *   <li><b>Reads, sizes, listings and deletes run on the backend's own I/O threads</b>
 *       ({@code layoutbench-flight-io-N}, at most {@link Options#ioThreads()}): {@link #readRangeAsync} returns at
 *       once. <b>Puts run on the caller's thread</b> (the SPI's puts are synchronous), so they never hold an I/O
 *       thread that reads wait for; an interrupted put cancels its upload. {@link #close()} waits for the calls in
 *       progress, puts included.
 *   <li><b>Every call has a deadline</b>, {@link Options#callTimeout()} (5 s unless configured): a node that is down
 *       (connection refused) fails the call at once; a host that went silent (crashed or cut off without a reset)
 *       costs a call up to its deadline, which then fails as transient. Keepalive pings during calls (every 10 s,
 *       5 s to answer) find such a connection dead so that later calls do not wait on it. The deadline covers the
 *       whole transfer, so raise it for objects that take longer to move.
 *   <li><b>Retries</b>: reads, sizes, listings and deletes that fail transiently (node unreachable, deadline passed,
 *       backend throttled) are retried under {@link Options#retryPolicy()} with the api's {@link Retrier}: by
 *       default 3 attempts with full jitter, 0 to 20 ms before the second and 0 to 40 ms before the third, none
 *       started after the call timeout, so a node that is down costs a FAC read tens of milliseconds at most before
 *       it decodes around it. Puts are not retried: their bytes come from a stream read once.
 *   <li><b>Reconnects</b>: gRPC keeps a connection that failed in a failure state, failing calls at once, until a
 *       backoff timer (1 s, growing to 2 min) runs out, so a node restarted meanwhile would go unused. After a call
 *       fails because the node could not be reached, or ran over its deadline, the channel is sent idle
 *       ({@code ManagedChannel.enterIdle()}), so the next call connects afresh: to a node that is back, or failing
 *       at once on one that is still down.
 *   <li><b>Reads</b> arrive as record batches of at most 1 MiB, copied once into the returned buffer. One read
 *       returns at most {@value #MAX_READ_BYTES} bytes. A read of at most 1 MiB sees one version of an object that
 *       another writer replaces; see {@link StorageNodeServer} for longer ones.
 *   <li><b>Puts</b> stream the bytes in 1 MiB batches, each sent once gRPC can take it; the node writes the object
 *       only once all arrived, so a put that fails before its last byte was sent (the source ends early or fails,
 *       the caller is interrupted, the node refuses it) leaves no object, and an old one in place. After a deadline
 *       or a connection lost once the last byte was sent, the outcome is unknown: the node may have stored it.
 *   <li><b>Errors</b> are the library's: {@code ObjectNotFoundException}, {@code RangeNotSatisfiableException},
 *       {@code TransientStorageException} (unreachable, timed out, throttled), {@code StorageException}, their
 *       messages naming the request ({@code GET flight://127.0.0.1:47001 blocks/a [0, 100)}) and the node's answer.
 *       Messages over 1 MiB and 64 KiB are refused, as permanent failures.
 *   <li><b>Metrics</b>: each attempt is a request of its kind ({@code RANGE_GET}, {@code GET}, {@code HEAD},
 *       {@code PUT}, {@code LIST} per page, {@code DELETE}), its first byte is timed when the node answers (for a
 *       read, when the schema arrives, before the first batch), and body
 *       bytes are counted as batches are consumed (received) or sent (puts).
 * </ul>
 *
 * <p>Thread-safe; {@link #withMetrics} views share the connection and the threads.
 *
 * <pre>{@code
 * try (ObjectBackend node = ObjectBackends.open("flight://127.0.0.1:47001")) {
 *     node.put("blocks/a", new byte[] {1, 2, 3});
 *     ByteBuffer two = node.readRangeAsync("blocks/a", ByteRange.of(1, 2)).join();
 * }
 * }</pre>
 */
public final class FlightNodeBackend implements ObjectBackend {

    /** The most bytes one read returns: the largest heap buffer a JVM reliably allocates. */
    public static final int MAX_READ_BYTES = Integer.MAX_VALUE - 8;

    private static final AtomicInteger THREAD_IDS = new AtomicInteger();
    private static final long KEEPALIVE_SECONDS = 10;
    private static final long KEEPALIVE_TIMEOUT_SECONDS = 5;
    /** Longest pause between two looks at whether gRPC takes the next batch of a put. */
    private static final long READY_POLL_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long INTERRUPTED_WAIT_MILLIS = 2000;

    private final Shared shared;
    private final RequestMetrics metrics;
    private final boolean view;

    /**
     * Settings of a {@link FlightNodeBackend}.
     *
     * <pre>{@code
     * FlightNodeBackend.Options.defaults().withCallTimeout(Duration.ofSeconds(30)).withIoThreads(32);
     * }</pre>
     *
     * @param retryPolicy how transient failures are retried; its {@link RetryPolicy#attemptTimeout()} is the
     *                    deadline of each call
     * @param ioThreads   most calls running at once, at least 1
     */
    public record Options(RetryPolicy retryPolicy, int ioThreads) {
        /** I/O threads when not configured. */
        public static final int DEFAULT_IO_THREADS = 16;
        /** Deadline of a call when not configured. */
        public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(5);
        /** The provider properties these options are read from. */
        public static final Set<String> PROPERTIES = Set.of("ioThreads", "callTimeout", "maxAttempts",
                "retryBaseDelay", "retryMaxDelay", "retryTimeLimit");

        /** This backend in errors about its properties. */
        private static final String BACKEND = "Flight node backend";

        public Options {
            requireNonNull(retryPolicy, "retryPolicy is null");
            if (ioThreads < 1) {
                throw new IllegalArgumentException("A flight node backend needs at least 1 I/O thread, got "
                        + ioThreads);
            }
        }

        /**
         * {@value #DEFAULT_IO_THREADS} I/O threads; calls of 5 s; 3 attempts with exponential backoff and full jitter
         * (base 20 ms, cap 200 ms: 0 to 20 ms before the second attempt, 0 to 40 ms before the third), none starting
         * after 5 s.
         */
        public static Options defaults() {
            return new Options(new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200),
                    DEFAULT_CALL_TIMEOUT, DEFAULT_CALL_TIMEOUT), DEFAULT_IO_THREADS);
        }

        /** The deadline of each call. */
        public Duration callTimeout() {
            return retryPolicy.attemptTimeout();
        }

        /** These options with calls of {@code timeout}, and no retry starting later than that after the first. */
        public Options withCallTimeout(Duration timeout) {
            return new Options(retryPolicy.withAttemptTimeout(timeout).withTimeLimit(timeout), ioThreads);
        }

        /** These options retrying under {@code retryPolicy}. */
        public Options withRetryPolicy(RetryPolicy retryPolicy) {
            return new Options(retryPolicy, ioThreads);
        }

        /** These options with {@code ioThreads} I/O threads. */
        public Options withIoThreads(int ioThreads) {
            return new Options(retryPolicy, ioThreads);
        }

        /**
         * The defaults, changed by provider properties: {@code ioThreads} (a positive integer), {@code callTimeout}
         * (a duration like {@code 500ms}, {@code 30s}, {@code 2m} or {@code PT30S}; also the retry time limit
         * unless {@code retryTimeLimit} is given), {@code maxAttempts}, {@code retryBaseDelay},
         * {@code retryMaxDelay}, {@code retryTimeLimit}.
         *
         * @throws ConfigurationException naming an unknown or malformed property
         */
        public static Options fromProperties(Map<String, String> properties) {
            requireNonNull(properties, "properties is null");
            Set<String> unknown = new TreeSet<>(properties.keySet());
            unknown.removeAll(PROPERTIES);
            if (!unknown.isEmpty()) {
                throw new ConfigurationException("Unknown flight node backend properties " + unknown
                        + "; supported: " + new TreeSet<>(PROPERTIES));
            }
            Options options = defaults();
            try {
                if (properties.containsKey("ioThreads")) {
                    options = options.withIoThreads(BackendProperties.integer(BACKEND, "ioThreads",
                            properties.get("ioThreads")));
                }
                if (properties.containsKey("callTimeout")) {
                    options = options.withCallTimeout(BackendProperties.duration(BACKEND, "callTimeout",
                            properties.get("callTimeout")));
                }
                return options.withRetryPolicy(BackendProperties.retryPolicy(BACKEND, options.retryPolicy(),
                        properties));
            } catch (ConfigurationException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException("Invalid flight node backend properties: " + e.getMessage(), e);
            }
        }
    }

    /** A client of the node at {@code uri} with {@link Options#defaults()}, counting nothing. */
    public FlightNodeBackend(URI uri) {
        this(uri, Options.defaults(), RequestMetrics.NONE);
    }

    /**
     * A client of the node at {@code uri} ({@code flight://host:port}). Connects lazily: a node that is down fails
     * the first call, not this constructor.
     *
     * @throws IllegalArgumentException if the URI is not {@code flight://host:port}
     */
    public FlightNodeBackend(URI uri, Options options, RequestMetrics metrics) {
        this(new Shared(checkUri(uri), requireNonNull(options, "options is null")), metrics, false);
    }

    private FlightNodeBackend(Shared shared, RequestMetrics metrics, boolean view) {
        this.shared = shared;
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.view = view;
    }

    /** {@code flight://host:port}. */
    @Override
    public URI uri() {
        return shared.uri;
    }

    /** The settings this backend was opened with. */
    public Options options() {
        return shared.options;
    }

    // ---- reads ---------------------------------------------------------------------------------------------

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if the key is invalid or the range is longer than {@value #MAX_READ_BYTES}
     */
    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        ObjectKeys.check(key);
        requireNonNull(range, "range is null");
        if (range.length() > MAX_READ_BYTES) {
            throw new IllegalArgumentException("Cannot read range " + range + " of " + key + " in one request: it is "
                    + range.length() + " bytes and one read returns at most " + MAX_READ_BYTES + "; split it");
        }
        checkOpen();
        return read(RequestKind.RANGE_GET, new NodeProtocol.ReadRequest(key, range),
                "GET " + shared.uri + " " + key + " " + range);
    }

    /** One {@code GET} of the whole object; one of over {@value #MAX_READ_BYTES} bytes fails (read it in ranges). */
    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        ObjectKeys.check(key);
        checkOpen();
        return read(RequestKind.GET, new NodeProtocol.ReadRequest(key, null), "GET " + shared.uri + " " + key);
    }

    private CompletableFuture<ByteBuffer> read(RequestKind kind, NodeProtocol.ReadRequest request, String what) {
        Ticket ticket = new Ticket(NodeProtocol.encodeRead(request));
        long expected = request.whole() ? -1 : request.range().length();
        return call(kind, what, request.key(), request.range(), () -> fetch(kind, ticket, expected, what));
    }

    /**
     * Runs a chunk operator on the node ({@link NodeProtocol#encodeOperate}): its reply streams back as a read's
     * bytes do. Retried as reads are; counted as a {@code GET}.
     */
    CompletableFuture<ByteBuffer> operate(NodeProtocol.OperateRequest request, String what) {
        checkOpen();
        Ticket ticket = new Ticket(NodeProtocol.encodeOperate(request));
        return call(RequestKind.GET, what, request.operation().key(), null,
                () -> fetch(RequestKind.GET, ticket, -1, what));
    }

    /**
     * One read: the node's schema says how many bytes follow ({@code expected} unless -1); they are copied batch by
     * batch into one array.
     */
    private ByteBuffer fetch(RequestKind kind, Ticket ticket, long expected, String what) {
        long start = System.nanoTime();
        FlightStream stream = shared.client.getStream(ticket, shared.deadline());
        ByteBuffer bytes;
        try {
            bytes = receive(stream, kind, expected, what, start);
        } catch (RuntimeException e) {
            close(stream, what, e);
            throw e;
        }
        close(stream, what, null);
        return bytes;
    }

    private ByteBuffer receive(FlightStream stream, RequestKind kind, long expected, String what, long start) {
        // The schema is the node's first message: its answer starts there, before the first (1 MiB) batch.
        VectorSchemaRoot schemaRoot = stream.getRoot();
        if (schemaRoot == null) {
            throw new StorageException(what + ": the node ended the read without sending a schema");
        }
        metrics.onFirstByte(kind, System.nanoTime() - start);
        boolean more = stream.next();
        long length;
        try {
            length = NodeProtocol.length(schemaRoot.getSchema());
        } catch (IllegalArgumentException e) {
            throw new StorageException(what + ": not a storage node's answer: " + e.getMessage(), e);
        }
        if (expected >= 0 && length != expected) {
            throw new StorageException(what + ": the node announced " + length + " bytes");
        }
        if (length > MAX_READ_BYTES) {
            throw new StorageException(what + ": the object is " + length + " bytes, more than one read returns ("
                    + MAX_READ_BYTES + "); read it in ranges");
        }
        byte[] bytes = new byte[(int) length];
        int filled = 0;
        while (more) {
            VectorSchemaRoot root = stream.getRoot();
            VarBinaryVector vector = (VarBinaryVector) root.getVector(0);
            for (int row = 0; row < root.getRowCount(); row++) {
                int rowLength = vector.getValueLength(row);
                if (rowLength > bytes.length - filled) {
                    throw new StorageException(what + ": the node sent more than the " + length
                            + " bytes it announced");
                }
                vector.getDataBuffer().getBytes(vector.getStartOffset(row), bytes, filled, rowLength);
                filled += rowLength;
                metrics.onBytesReceived(kind, rowLength);
            }
            more = stream.next();
        }
        if (filled != length) {
            throw new StorageException(what + ": the node ended the read after " + filled + " of the " + length
                    + " bytes it announced");
        }
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    /**
     * Closes a read's stream (cancelling it first if it was not read to its end). When the read already failed
     * with {@code failure}, a failure to close is added to it rather than thrown.
     */
    private static void close(FlightStream stream, String what, RuntimeException failure) {
        try {
            stream.close();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (failure != null) {
                failure.addSuppressed(e);
                return;
            }
            throw new StorageException(what + ": closing the read's stream failed: " + e, e);
        }
    }

    @Override
    public long size(String key) {
        ObjectKeys.check(key);
        checkOpen();
        String what = "HEAD " + shared.uri + " " + key;
        return ObjectBackend.await(call(RequestKind.HEAD, what, key, null, () -> {
            long start = System.nanoTime();
            byte[] body = action(NodeProtocol.SIZE, NodeProtocol.encodeKey(key), what, true);
            metrics.onFirstByte(RequestKind.HEAD, System.nanoTime() - start);
            return decoded(() -> NodeProtocol.decodeSize(body), what);
        }));
    }

    @Override
    public Stream<ObjectInfo> list(String prefix) {
        ObjectKeys.checkPrefix(prefix);
        checkOpen();
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(new PagedListing(prefix),
                Spliterator.ORDERED | Spliterator.DISTINCT | Spliterator.NONNULL), false);
    }

    // ---- writes --------------------------------------------------------------------------------------------

    /**
     * Streams the bytes to the node, which stores them once all arrived; on the caller's thread. Not retried.
     * Interrupting the caller cancels the upload (nothing is stored) and leaves the thread interrupted.
     */
    @Override
    public void put(String key, InputStream data, long length) {
        ObjectKeys.check(key);
        requireNonNull(data, "data is null");
        if (length < 0) {
            throw new IllegalArgumentException("Cannot store " + key + ": length must be >= 0, got " + length);
        }
        checkOpen();
        if (shared.puts.register() < 0) {
            throw new IllegalStateException("The flight node backend " + shared.uri + " is closed");
        }
        try {
            String what = "PUT " + shared.uri + " " + key + " (" + length + " bytes)";
            metrics.onRequestStarted(RequestKind.PUT);
            try {
                upload(key, data, length, what);
            } catch (RuntimeException e) {
                metrics.onRequestFailed(RequestKind.PUT);
                throw translate(e, what, key, null);
            }
        } finally {
            shared.puts.arriveAndDeregister();
        }
    }

    private void upload(String key, InputStream data, long length, String what) {
        FlightDescriptor descriptor = FlightDescriptor.command(NodeProtocol.encodePut(
                new NodeProtocol.PutRequest(key, length)));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(NodeProtocol.schema(-1), shared.allocator);
             SyncPutListener answer = new SyncPutListener()) {
            FlightClient.ClientStreamListener upload = shared.client.startPut(descriptor, root, answer,
                    shared.deadline());
            boolean sentAll = false;
            try {
                VarBinaryVector vector = (VarBinaryVector) root.getVector(0);
                byte[] chunk = new byte[(int) Math.min(NodeProtocol.CHUNK_BYTES, length)];
                long sent = 0;
                // A node that failed the call early (down, or refusing the put) ends the loop; its answer says why.
                while (sent < length && !answer.isCancelled()) {
                    int read;
                    try {
                        read = data.readNBytes(chunk, 0, (int) Math.min(chunk.length, length - sent));
                    } catch (IOException e) {
                        throw new StorageException(what + ": reading the source failed, with " + sent
                                + " bytes sent: " + e.getMessage(), e);
                    }
                    if (read == 0) {
                        throw new StorageException(what + ": the stream ended after " + sent + " of the " + length
                                + " bytes promised");
                    }
                    if (!awaitReady(upload, answer, what, sent)) {
                        break;   // the call ended; its answer says why
                    }
                    vector.setSafe(0, chunk, 0, read);
                    vector.setValueCount(1);
                    root.setRowCount(1);
                    upload.putNext();
                    sent += read;
                    metrics.onBytesSent(RequestKind.PUT, read);
                }
                sentAll = true;
            } finally {
                if (!sentAll) {
                    // Cancelled before the last byte, the call ends without the node's storing anything.
                    upload.error(CallStatus.CANCELLED.withDescription("the client gave up on the put of " + key)
                            .toRuntimeException());
                }
            }
            upload.completed();
            upload.getResult();   // the node's answer: it stored the object, or why not
        }
    }

    /**
     * Waits until gRPC takes the next batch, so that {@code putNext()} does not spin in Flight's own wait (Flight 19
     * busy-waits there, and its put listener cannot take an on-ready handler once the call started): looks again
     * after pauses growing from 10 µs to 1 ms. False if the call ended meanwhile (failed, cancelled, past its
     * deadline).
     *
     * @throws StorageException if the caller is interrupted, the interrupt flag restored (the caller cancels)
     */
    private static boolean awaitReady(FlightClient.ClientStreamListener upload, SyncPutListener answer, String what,
            long sent) {
        long pause = TimeUnit.MICROSECONDS.toNanos(10);
        while (true) {
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new StorageException(what + ": interrupted with " + sent + " bytes sent; the put was"
                        + " cancelled and stored nothing");
            }
            if (answer.isCancelled()) {
                return false;
            }
            if (upload.isReady()) {
                return true;
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, READY_POLL_MAX_NANOS);
        }
    }

    @Override
    public void delete(String key) {
        ObjectKeys.check(key);
        checkOpen();
        String what = "DELETE " + shared.uri + " " + key;
        ObjectBackend.await(call(RequestKind.DELETE, what, key, null,
                () -> action(NodeProtocol.DELETE, NodeProtocol.encodeKey(key), what, false)));
    }

    // ---- calls ---------------------------------------------------------------------------------------------

    /** Runs {@code flightCall} on an I/O thread, retried under the policy, its failures translated. */
    private <T> CompletableFuture<T> call(RequestKind kind, String what, String key, ByteRange range,
            Supplier<T> flightCall) {
        return shared.retrier.run(kind, metrics, what, () -> onIoThread(flightCall),
                failure -> translate(failure, what, key, range));
    }

    private <T> CompletableFuture<T> onIoThread(Supplier<T> flightCall) {
        return CompletableFuture.supplyAsync(() -> {
            checkOpen();
            return flightCall.get();
        }, shared.executor);
    }

    /** The body of an action's one result; null if it sent none and {@code resultExpected} is false. */
    private byte[] action(String type, byte[] body, String what, boolean resultExpected) {
        Iterator<Result> results = shared.client.doAction(new Action(type, body), shared.deadline());
        byte[] first = null;
        int count = 0;
        while (results.hasNext()) {
            byte[] result = results.next().getBody();
            first = count++ == 0 ? result : first;
        }
        if (count > 1 || (resultExpected && count == 0)) {
            throw new StorageException(what + ": the node sent " + count + " results, expected "
                    + (resultExpected ? "one" : "none"));
        }
        return first;
    }

    private static <T> T decoded(Supplier<T> decode, String what) {
        try {
            return decode.get();
        } catch (IllegalArgumentException e) {
            throw new StorageException(what + ": not a storage node's answer: " + e.getMessage(), e);
        }
    }

    private StorageException translate(Throwable failure, String what, String key, ByteRange range) {
        if (failure instanceof FlightRuntimeException flight) {
            FlightStatusCode code = flight.status().code();
            if ((code == FlightStatusCode.UNAVAILABLE
                    && shared.channel.getState(false) == ConnectivityState.TRANSIENT_FAILURE)
                    || code == FlightStatusCode.TIMED_OUT) {
                // The next call connects afresh (see the class comment): after a deadline the connection may be
                // to a host that went silent, which gRPC would go on using until keepalive finds it dead.
                shared.channel.enterIdle();
            }
            return NodeErrors.fromFlight(flight, what, key, range, shared.options.callTimeout());
        }
        if (failure instanceof StorageException storage) {
            return storage;
        }
        if (failure instanceof RejectedExecutionException) {
            return new StorageException(what + ": the flight node backend " + shared.uri + " is closed", failure);
        }
        if (failure instanceof IllegalStateException) {
            return new StorageException(what + ": " + failure.getMessage(), failure);
        }
        return new StorageException(what + ": " + failure, failure);
    }

    // ---- life cycle ----------------------------------------------------------------------------------------

    /** A view over the same connection and threads that counts into {@code metrics}; closing it does nothing. */
    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        return new FlightNodeBackend(shared, metrics, true);
    }

    /**
     * Waits for the calls in progress, puts included (each ends by its deadline), then closes the connection and
     * releases the Arrow memory; later calls fail, views' too. Calls still running after the wait are cancelled
     * (the connection is shut down, the I/O threads interrupted) and waited for again; if some still run, that is
     * logged and the memory they may hold is left to them. Views do nothing.
     *
     * @throws IllegalStateException if Arrow memory is still held once every call is done (a leak)
     */
    @Override
    public void close() {
        if (!view && shared.closed.compareAndSet(false, true)) {
            shared.close();
        }
    }

    /** The Arrow memory of this backend's connection, for tests that check nothing is leaked. */
    BufferAllocator allocator() {
        return shared.allocator;
    }

    @Override
    public String toString() {
        return "FlightNodeBackend[" + shared.uri + "]";
    }

    private void checkOpen() {
        if (shared.closed.get()) {
            throw new IllegalStateException("The flight node backend " + shared.uri + " is closed");
        }
    }

    private static URI checkUri(URI uri) {
        requireNonNull(uri, "uri is null");
        boolean valid = StorageNodeServer.SCHEME.equalsIgnoreCase(uri.getScheme()) && !uri.isOpaque()
                && uri.getHost() != null && uri.getPort() > 0 && uri.getRawUserInfo() == null
                && (uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"))
                && uri.getRawQuery() == null && uri.getRawFragment() == null;
        if (!valid) {
            throw new IllegalArgumentException("A flight node backend URI must be flight://host:port, with nothing"
                    + " else; got '" + uri + "'");
        }
        return URI.create(StorageNodeServer.SCHEME + "://" + uri.getRawAuthority());
    }

    /** What a backend shares with its views: the connection, the threads, the retrier and the open state. */
    private static final class Shared {
        final URI uri;
        final Options options;
        final BufferAllocator allocator;
        final ManagedChannel channel;
        final FlightClient client;
        final ThreadPoolExecutor executor;
        final ScheduledThreadPoolExecutor scheduler;
        final Retrier retrier;
        final AtomicBoolean closed = new AtomicBoolean();
        /** The puts in progress, each a party, plus one for the backend until it closes. */
        final Phaser puts = new Phaser(1);

        Shared(URI uri, Options options) {
            this.uri = uri;
            this.options = options;
            this.allocator = new RootAllocator();
            String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1)
                    : uri.getHost();
            // A channel of our own rather than FlightClient.builder's: enterIdle() must be callable on it.
            this.channel = ManagedChannelBuilder.forAddress(host, uri.getPort()).usePlaintext()
                    .keepAliveTime(KEEPALIVE_SECONDS, TimeUnit.SECONDS)
                    .keepAliveTimeout(KEEPALIVE_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .keepAliveWithoutCalls(false)
                    .maxInboundMessageSize(NodeProtocol.MAX_MESSAGE_BYTES)
                    .build();
            this.client = FlightGrpcUtils.createFlightClient(allocator, channel);
            this.executor = new ThreadPoolExecutor(options.ioThreads(), options.ioThreads(), 30, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), task -> daemon(task, "layoutbench-flight-io-"));
            this.executor.allowCoreThreadTimeOut(true);
            this.scheduler = new ScheduledThreadPoolExecutor(1, task -> daemon(task, "layoutbench-flight-retry-"));
            this.scheduler.setRemoveOnCancelPolicy(true);
            this.retrier = new Retrier(options.retryPolicy(),
                    (task, delayNanos) -> scheduler.schedule(task, delayNanos, TimeUnit.NANOSECONDS));
        }

        CallOption deadline() {
            return CallOptions.timeout(options.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
        }

        /**
         * Lets the retries waiting run (they fail at once: the I/O threads take no more calls), waits for the calls
         * in progress and the puts; if some are still running then, shuts the connection down (cancelling them),
         * interrupts the I/O threads and waits again; then closes the client and the allocator, the latter only
         * reporting a leak when every call ended.
         */
        void close() {
            scheduler.shutdown();
            executor.shutdown();
            long waitMillis = options.callTimeout().toMillis() + options.retryPolicy().maxDelay().toMillis() + 1000;
            boolean drained = false;
            int phase = puts.arriveAndDeregister();   // the backend's own party: the last put ends the phaser
            try {
                drained = awaitCalls(phase, waitMillis);
                if (!drained) {
                    channel.shutdownNow();   // cancels the calls still running, puts included
                    executor.shutdownNow();
                    scheduler.shutdownNow();
                    drained = awaitCalls(phase, INTERRUPTED_WAIT_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // No call is left, and a graceful shutdown would wait 5 s for each connection enterIdle() set aside.
            channel.shutdownNow();
            try {
                client.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                ArrowMemory.release(allocator, drained, "The flight node backend " + uri,
                        "calls still running after it closed (cancelled, they did not end)");
            }
        }

        /**
         * Waits up to {@code millis} for the I/O threads, the retry timer and the puts (the phaser's {@code phase}
         * advances, ending it, when the last put deregisters); true if all ended.
         */
        private boolean awaitCalls(int phase, long millis) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            if (!executor.awaitTermination(millis, TimeUnit.MILLISECONDS)
                    || !scheduler.awaitTermination(remaining(deadline), TimeUnit.NANOSECONDS)) {
                return false;
            }
            try {
                puts.awaitAdvanceInterruptibly(phase, remaining(deadline), TimeUnit.NANOSECONDS);
                return true;
            } catch (TimeoutException e) {
                return false;
            }
        }

        private static long remaining(long deadline) {
            return Math.max(0, deadline - System.nanoTime());
        }


        private static Thread daemon(Runnable task, String prefix) {
            Thread thread = new Thread(task, prefix + THREAD_IDS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    }

    /**
     * Lists like an S3 paginator: each page of up to 1,000 keys is one call, made when the previous page is used
     * up, continuing after the last key seen.
     */
    private final class PagedListing implements Iterator<ObjectInfo> {
        private final String prefix;
        private Iterator<ObjectInfo> page;
        private String lastKey;
        private boolean lastPage;

        PagedListing(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public boolean hasNext() {
            while (page == null || !page.hasNext()) {
                if (lastPage) {
                    return false;
                }
                NodeProtocol.ListPage fetched = fetchPage();
                page = fetched.objects().iterator();
                lastPage = !fetched.truncated();
                if (!fetched.objects().isEmpty()) {
                    lastKey = fetched.objects().get(fetched.objects().size() - 1).key();
                }
            }
            return true;
        }

        @Override
        public ObjectInfo next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return page.next();
        }

        private NodeProtocol.ListPage fetchPage() {
            checkOpen();
            String what = "LIST " + shared.uri + " prefix '" + prefix + "'" + (lastKey == null ? ""
                    : " after '" + lastKey + "'");
            byte[] request = NodeProtocol.encodeList(new NodeProtocol.ListRequest(prefix, lastKey));
            return ObjectBackend.await(call(RequestKind.LIST, what, prefix, null, () -> {
                long start = System.nanoTime();
                byte[] body = action(NodeProtocol.LIST, request, what, true);
                metrics.onFirstByte(RequestKind.LIST, System.nanoTime() - start);
                return decoded(() -> NodeProtocol.decodePage(body), what);
            }));
        }
    }
}
