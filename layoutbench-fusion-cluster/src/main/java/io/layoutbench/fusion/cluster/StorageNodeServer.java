package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.backend.file.FileBackend;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.grpc.ServerBuilder;

import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A storage node: an Arrow Flight server that serves one {@link ObjectBackend} (a local directory, a bucket, a
 * store in memory) to {@link FlightNodeBackend} clients, so that a FAC store's nodes can be separate processes or
 * machines. It answers:
 * <ul>
 *   <li><b>ranged and whole reads</b> (DoGet), streamed as record batches of one binary column, at most 1 MiB a
 *       batch, each sent when the client has taken the previous one. A read of at most 1 MiB (or of a whole object
 *       of at most 1 MiB) is one read of the backend, so it sees one version of the object; a longer read is several
 *       1 MiB reads of the backend, the next read while one is sent, so the node never holds a whole large object.
 *       If another writer replaces the object during such a read, the read fails as transient (or, when the sizes
 *       match, may return parts of both versions: the FAC store never replaces a block with different bytes);
 *   <li><b>puts</b> (DoPut): the bytes are spooled, in memory up to {@link Options#memorySpoolLimit()} a put and
 *       {@link Options#memorySpoolBudget()} for all puts in progress together, else in a temporary file in a
 *       directory of this server's own under {@link Options#spoolDirectory()} (files a crashed node left there are
 *       deleted when a node starts), and written to the backend only once the client ended its stream with every
 *       byte it announced. A client that fails or disconnects before its last byte leaves nothing. Messages over
 *       1 MiB and 64 KiB are refused;
 *   <li><b>size, list and delete</b> (DoAction), a listing in pages of 1,000 keys. Each page lists the prefix on the
 *       backend from its start (the {@link ObjectBackend} SPI has no "start after"), so listing n keys reads n²/1000
 *       entries on the node: fine for thousands of keys.
 * </ul>
 * Failures cross the wire as Flight status codes with the backend's message (NOT_FOUND for a missing object,
 * INVALID_ARGUMENT with the object's size for a range past the end, UNAVAILABLE for transient faults), which
 * {@link FlightNodeBackend} turns back into the library's exceptions.
 *
 * <p>{@link #close()} refuses new calls and gives calls in progress up to 3 seconds before cancelling them, then waits
 * for the node's threads (up to 5 seconds more, then interrupting them), releases its Arrow memory, and closes the
 * backend if the server opened it ({@link #open}). Thread-safe.
 *
 * <pre>{@code
 * try (StorageNodeServer node = StorageNodeServer.open(Path.of("/data/node-3"),
 *         StorageNodeServer.Options.defaults().withHost("10.0.0.13").withPort(47003))) {
 *     System.out.println("serving " + node.uri());   // flight://10.0.0.13:47003
 *     node.awaitTermination();
 * }
 * // elsewhere: ObjectBackends.open("flight://10.0.0.13:47003")
 * }</pre>
 */
public final class StorageNodeServer implements AutoCloseable {

    /** The URI scheme of storage nodes. */
    public static final String SCHEME = "flight";

    private static final Logger LOG = LoggerFactory.getLogger(StorageNodeServer.class);
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();
    private static final AtomicInteger SPOOL_IDS = new AtomicInteger();
    private static final long KEEPALIVE_PERMIT_SECONDS = 5;
    private static final long CALLS_DRAIN_SECONDS = 5;
    private static final long CALLS_INTERRUPTED_SECONDS = 2;
    /** Spool directories of servers: {@code layoutbench-node-spool-<pid>-<n>}. */
    private static final String SPOOL_PREFIX = "layoutbench-node-spool-";
    private static final Pattern SPOOL_NAME = Pattern.compile(Pattern.quote(SPOOL_PREFIX) + "(\\d+)-\\d+");

    private final ObjectBackend backend;
    private final boolean ownsBackend;
    private final BufferAllocator allocator;
    /** The threads of gRPC's calls, puts and streamed reads: owned here, so that close can wait for them. */
    private final ExecutorService calls;
    /** This server's own spool directory, deleted on close. */
    private final Path spool;
    private final FlightServer server;
    private final OperatorHost operatorHost;
    private final URI uri;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Where and how a node serves.
     *
     * <pre>{@code
     * StorageNodeServer.Options.defaults().withHost("0.0.0.0").withPort(47001).withSpoolDirectory(Path.of("/scratch"));
     * }</pre>
     *
     * @param host             the address to bind; the node's URI names it, so bind a routable address (not
     *                         {@code 0.0.0.0}) when the URI is handed to clients
     * @param port             the port to bind, 0 for any free one ({@link StorageNodeServer#port()} tells which)
     * @param spoolDirectory   where puts larger than {@code memorySpoolLimit} are spooled until complete
     * @param memorySpoolLimit puts of at most this many bytes are spooled in memory; 0 to 256 MiB
     * @param memorySpoolBudget the most bytes all puts in progress hold in memory together (announced lengths);
     *                          a put that does not fit is spooled in a file; 0 to 2 GiB - 1
     */
    public record Options(String host, int port, Path spoolDirectory, long memorySpoolLimit, long memorySpoolBudget) {
        /** Puts up to this size are spooled in memory unless configured otherwise: 8 MiB. */
        public static final long DEFAULT_MEMORY_SPOOL_LIMIT = 8L << 20;
        /** The largest memory spool limit. */
        public static final long MAX_MEMORY_SPOOL_LIMIT = 256L << 20;
        /** The bytes all puts spool in memory together unless configured otherwise: 64 MiB. */
        public static final long DEFAULT_MEMORY_SPOOL_BUDGET = 64L << 20;

        public Options {
            requireNonNull(host, "host is null");
            requireNonNull(spoolDirectory, "spoolDirectory is null");
            if (host.isBlank()) {
                throw new IllegalArgumentException("A storage node needs a host to bind, got an empty one");
            }
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("A storage node port must be 0 (any) to 65535, got " + port);
            }
            if (memorySpoolLimit < 0 || memorySpoolLimit > MAX_MEMORY_SPOOL_LIMIT) {
                throw new IllegalArgumentException("A storage node's memory spool limit must be 0 to "
                        + MAX_MEMORY_SPOOL_LIMIT + " bytes, got " + memorySpoolLimit);
            }
            if (memorySpoolBudget < 0 || memorySpoolBudget > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("A storage node's memory spool budget must be 0 to "
                        + Integer.MAX_VALUE + " bytes, got " + memorySpoolBudget);
            }
        }

        /** 127.0.0.1, any free port, spooling in {@code java.io.tmpdir} beyond 8 MiB a put or 64 MiB in all. */
        public static Options defaults() {
            return new Options("127.0.0.1", 0, Path.of(System.getProperty("java.io.tmpdir")),
                    DEFAULT_MEMORY_SPOOL_LIMIT, DEFAULT_MEMORY_SPOOL_BUDGET);
        }

        /** These options binding {@code host}. */
        public Options withHost(String host) {
            return new Options(host, port, spoolDirectory, memorySpoolLimit, memorySpoolBudget);
        }

        /** These options binding {@code port} (0: any free port). */
        public Options withPort(int port) {
            return new Options(host, port, spoolDirectory, memorySpoolLimit, memorySpoolBudget);
        }

        /** These options spooling large puts in {@code spoolDirectory}. */
        public Options withSpoolDirectory(Path spoolDirectory) {
            return new Options(host, port, spoolDirectory, memorySpoolLimit, memorySpoolBudget);
        }

        /** These options spooling puts of up to {@code memorySpoolLimit} bytes in memory. */
        public Options withMemorySpoolLimit(long memorySpoolLimit) {
            return new Options(host, port, spoolDirectory, memorySpoolLimit, memorySpoolBudget);
        }

        /** These options spooling at most {@code memorySpoolBudget} bytes of all puts in progress in memory. */
        public Options withMemorySpoolBudget(long memorySpoolBudget) {
            return new Options(host, port, spoolDirectory, memorySpoolLimit, memorySpoolBudget);
        }
    }

    private StorageNodeServer(ObjectBackend backend, boolean ownsBackend, Options options, int listPageSize) {
        this.backend = backend;
        this.ownsBackend = ownsBackend;
        this.allocator = new RootAllocator();
        this.calls = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "layoutbench-node-" + THREAD_IDS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        Location location = Location.forGrpcInsecure(options.host(), options.port());
        FlightServer started = null;
        Path ownSpool = null;
        try {
            Files.createDirectories(options.spoolDirectory());
            sweepStaleSpools(options.spoolDirectory());
            ownSpool = Files.createDirectory(options.spoolDirectory().resolve(SPOOL_PREFIX
                    + ProcessHandle.current().pid() + "-" + SPOOL_IDS.incrementAndGet()));
            String name = "the storage node serving " + backend.uri();
            operatorHost = new OperatorHost(backend, name);
            NodeProducer producer = new NodeProducer(backend, operatorHost, allocator, calls,
                    options.memorySpoolLimit(), new Semaphore((int) options.memorySpoolBudget()), ownSpool,
                    listPageSize, name);
            Consumer<ServerBuilder<?>> grpc = builder -> builder
                    // FlightNodeBackend pings every 10 s during calls; gRPC's default would allow one ping in
                    // 5 minutes and close the connection of a client pinging more often.
                    .permitKeepAliveTime(KEEPALIVE_PERMIT_SECONDS, TimeUnit.SECONDS)
                    .permitKeepAliveWithoutCalls(false);
            started = FlightServer.builder(allocator, location, producer).executor(calls)
                    .maxInboundMessageSize(Math.max(NodeProtocol.MAX_MESSAGE_BYTES,
                            NodeProtocol.MAX_OPERATOR_TICKET_BYTES))
                    .transportHint("grpc.builderConsumer", grpc).build().start();
            this.server = started;
            this.spool = ownSpool;
            this.uri = new URI(SCHEME, null, options.host(), server.getPort(), null, null, null);
        } catch (IOException | URISyntaxException | RuntimeException e) {
            closeServer(started);
            calls.shutdownNow();
            allocator.close();
            deleteSpool(ownSpool);
            throw new StorageException("Cannot start a storage node on " + options.host() + ":" + options.port()
                    + " serving " + backend.uri() + ": " + e.getMessage(), e);
        }
        LOG.info("Storage node {} serving {}, spooling in {}", uri, backend.uri(), spool);
    }

    /**
     * Deletes the spool directories (and the put files in them) of nodes whose process is gone: a node that crashed
     * left them. Those of live processes, this one's included, are left alone.
     */
    private static void sweepStaleSpools(Path directory) throws IOException {
        List<Path> stale = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, SPOOL_PREFIX + "*")) {
            for (Path entry : entries) {
                Matcher name = SPOOL_NAME.matcher(entry.getFileName().toString());
                if (name.matches() && Files.isDirectory(entry)) {
                    long pid = Long.parseLong(name.group(1));
                    if (pid != self && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true)) {
                        stale.add(entry);
                    }
                }
            }
        }
        for (Path dir : stale) {
            LOG.info("Deleting the spool directory {} of a node whose process is gone", dir);
            deleteSpool(dir);
        }
    }

    /** Deletes a spool directory and the files in it; what cannot be deleted is logged. */
    private static void deleteSpool(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        } catch (NoSuchFileException e) {
            LOG.debug("The spool directory {} is already gone", dir);
        } catch (IOException e) {
            LOG.warn("Cannot delete the spool directory {}; it holds no object and may be removed: {}", dir,
                    e.toString());
        }
    }

    /**
     * Serves {@code backend}, which stays the caller's: closing the server does not close it, so a test can stop a
     * node and start another over the same objects.
     *
     * @throws StorageException if the server cannot bind its address
     */
    public static StorageNodeServer start(ObjectBackend backend, Options options) {
        return start(backend, options, NodeProtocol.LIST_PAGE_SIZE);
    }

    /** {@link #start(ObjectBackend, Options)} answering list pages of at most {@code listPageSize} keys (tests). */
    static StorageNodeServer start(ObjectBackend backend, Options options, int listPageSize) {
        if (listPageSize < 1 || listPageSize > NodeProtocol.LIST_PAGE_SIZE) {
            throw new IllegalArgumentException("A list page holds 1 to " + NodeProtocol.LIST_PAGE_SIZE
                    + " keys, got " + listPageSize);
        }
        return new StorageNodeServer(requireNonNull(backend, "backend is null"), false,
                requireNonNull(options, "options is null"), listPageSize);
    }

    /** {@link #start(ObjectBackend, Options)} on {@code host} and {@code port}. */
    public static StorageNodeServer start(ObjectBackend backend, String host, int port) {
        return start(backend, Options.defaults().withHost(host).withPort(port));
    }

    /** Serves the directory {@code root} (a {@link FileBackend}, created if missing), closed with the server. */
    public static StorageNodeServer open(Path root, Options options) {
        return serveOwned(new FileBackend(root), options);
    }

    /** Serves the backend {@link ObjectBackends#open(String)} opens for {@code backendUri}, closed with the server. */
    public static StorageNodeServer open(String backendUri, Options options) {
        return serveOwned(ObjectBackends.open(backendUri), options);
    }

    private static StorageNodeServer serveOwned(ObjectBackend backend, Options options) {
        try {
            return new StorageNodeServer(backend, true, requireNonNull(options, "options is null"),
                    NodeProtocol.LIST_PAGE_SIZE);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** The bound port: the one asked for, or the one chosen for port 0. */
    public int port() {
        return server.getPort();
    }

    /** {@code flight://host:port}, what {@link FlightNodeBackend} and {@code ObjectBackends.open} connect to. */
    public URI uri() {
        return uri;
    }

    /** The backend this node serves. */
    public ObjectBackend backend() {
        return backend;
    }

    /** Blocks until the server is closed (from another thread, or by a shutdown hook). */
    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    /** The Arrow memory of this server, for tests that check nothing is leaked. */
    BufferAllocator allocator() {
        return allocator;
    }

    /** This server's own spool directory, under {@link Options#spoolDirectory()}; gone once closed. */
    Path spoolDirectory() {
        return spool;
    }

    /**
     * Stops serving: refuses new calls, gives calls in progress up to 3 seconds before cancelling them, waits up to
     * 5 seconds for the node's threads to end, then interrupts them and waits up to 2 more; then releases the
     * server's Arrow memory, deletes its spool directory and closes the backend if the server opened it. Threads
     * still running after all that (a backend call that ignores interrupts) are logged, and the memory they may hold
     * is left to them rather than reported as a leak. Once, however often it is called.
     *
     * @throws IllegalStateException if Arrow memory is still held once every call is gone (a leak)
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        boolean drained = false;
        try {
            closeServer(server);
            calls.shutdown();
            drained = calls.awaitTermination(CALLS_DRAIN_SECONDS, TimeUnit.SECONDS);
            if (!drained) {
                calls.shutdownNow();
                drained = calls.awaitTermination(CALLS_INTERRUPTED_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            calls.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            try {
                ArrowMemory.release(allocator, drained, "Storage node " + uri, "calls still running "
                        + (CALLS_DRAIN_SECONDS + CALLS_INTERRUPTED_SECONDS) + " s after it stopped (interrupted, they"
                        + " did not end)");
            } finally {
                deleteSpool(spool);
                operatorHost.close();
                if (ownsBackend) {
                    if (!drained) {
                        LOG.warn("Storage node {}: closing its backend {} under calls still running", uri,
                                backend.uri());
                    }
                    backend.close();
                }
            }
        }
        LOG.info("Storage node {} stopped", uri);
    }


    private static void closeServer(FlightServer server) {
        if (server == null) {
            return;
        }
        try {
            server.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "StorageNodeServer[" + uri + " serving " + backend.uri() + "]";
    }
}
