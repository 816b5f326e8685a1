package io.layoutbench.backend.file;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.internal.SlicedIo;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link ObjectBackend} over a local directory: the object {@code a/b/c.tar} is the ordinary file
 * {@code <root>/a/b/c.tar}, so a dataset written here can be inspected with {@code ls} and copied with
 * {@code aws s3 sync}.
 *
 * <ul>
 *   <li><b>Reads</b> run on a small pool of daemon threads owned by the backend ({@code layoutbench-file-io-N}):
 *       positional {@link FileChannel} reads into a heap buffer of exactly the range, at most
 *       {@value SlicedIo#SLICE_BYTES} bytes each, so that the JDK's temporary direct buffer for each read stays
 *       that small whatever the range.
 *       One read returns at most {@value #MAX_READ_BYTES} bytes; objects may be larger and are read in ranges.
 *   <li><b>Writes are atomic</b>: data goes to a hidden temporary file next to the target
 *       ({@code .<name>.<16 hex digits>.tmp}), is forced to disk, then renamed over the target. A failed put
 *       deletes its temporary file; readers see the old object or the new one, never a part. (The directory is not
 *       forced, so a put that returned just before a crash may be missing afterwards, but never partial.)
 *   <li><b>Listing</b> walks the tree one directory at a time, skips temporary files and returns keys in
 *       ascending {@link String} order, as S3 does for ASCII keys, in pages of 1,000 for the metrics.
 *   <li><b>Keys</b> pass {@link ObjectKeys#check}, must resolve below the root, and must not look like temporary
 *       files. <b>No symbolic link below the root is followed</b> (the root itself may be one): an operation on a
 *       key with a link on its path fails with an {@link AccessDeniedException} naming the link, and listings skip
 *       links. A file system cannot hold both {@code a} and {@code a/b}: storing one when the other exists fails
 *       naming both. On case-insensitive file systems {@code A} and {@code a} are one object.
 * </ul>
 *
 * <p>Thread-safe. {@link #close()} stops the read threads; {@link #withMetrics} views share them.
 *
 * <pre>{@code
 * try (ObjectBackend files = new FileBackend(Path.of("/data/layoutbench"))) {
 *     files.put("l2/shards/shard-000001.tar", Path.of("shard-000001.tar"));
 *     ByteBuffer header = files.readRange("l2/shards/shard-000001.tar", ByteRange.of(0, 512));
 * }
 * }</pre>
 */
public final class FileBackend implements ObjectBackend {

    /** The most bytes one read returns: the largest heap buffer a JVM reliably allocates. */
    public static final int MAX_READ_BYTES = Integer.MAX_VALUE - 8;
    /** Bytes a streamed read hands over at a time ({@link #streamRangeAsync}). */
    static final int STREAM_PIECE_BYTES = SlicedIo.SLICE_BYTES;

    static final int LIST_PAGE_SIZE = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(FileBackend.class);
    private static final int COPY_BUFFER_BYTES = 64 * 1024;
    private static final int MAX_TEMP_NAME_STEM = 100;
    private static final int MAX_CREATE_ATTEMPTS = 20;
    private static final Pattern TEMP_NAME = Pattern.compile("\\..*\\.[0-9a-f]{16}\\.tmp");
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final Shared shared;
    private final RequestMetrics metrics;
    private final boolean view;

    /**
     * Settings of a {@link FileBackend}.
     *
     * <pre>{@code
     * new FileBackend(root, FileBackend.Options.defaults().withIoThreads(4).withFsync(false), metrics);
     * }</pre>
     *
     * @param ioThreads most reads running at once, at least 1
     * @param fsync     whether a put forces the data to disk before renaming it into place; turn off only for
     *                  scratch data
     */
    public record Options(int ioThreads, boolean fsync) {
        /** Read threads when not configured. */
        public static final int DEFAULT_IO_THREADS = 16;

        public Options {
            if (ioThreads < 1) {
                throw new IllegalArgumentException("A file backend needs at least 1 I/O thread, got " + ioThreads);
            }
        }

        /** {@value #DEFAULT_IO_THREADS} read threads, fsync on. */
        public static Options defaults() {
            return new Options(DEFAULT_IO_THREADS, true);
        }

        /** These options with {@code ioThreads} read threads. */
        public Options withIoThreads(int ioThreads) {
            return new Options(ioThreads, fsync);
        }

        /** These options with fsync on or off. */
        public Options withFsync(boolean fsync) {
            return new Options(ioThreads, fsync);
        }
    }

    /** A backend over {@code root}, created if missing, with {@link Options#defaults()}, counting nothing. */
    public FileBackend(Path root) {
        this(root, Options.defaults(), RequestMetrics.NONE);
    }

    /**
     * A backend over {@code root}, created if missing.
     *
     * @throws IllegalArgumentException if {@code root} exists and is not a directory
     * @throws StorageException         if the directory cannot be created
     */
    public FileBackend(Path root, Options options, RequestMetrics metrics) {
        this(new Shared(prepareRoot(root), requireNonNull(options, "options is null")), metrics, false);
    }

    private FileBackend(Shared shared, RequestMetrics metrics, boolean view) {
        this.shared = shared;
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.view = view;
    }

    /** The directory the objects are stored under, absolute and normalized. */
    public Path root() {
        return shared.root;
    }

    /** The settings this backend was opened with. */
    public Options options() {
        return shared.options;
    }

    /** The root directory as a {@code file:} URI. */
    @Override
    public URI uri() {
        return shared.uri;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if the key is invalid or the range is longer than {@value #MAX_READ_BYTES}
     */
    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        Path path = pathOf(key);
        requireNonNull(range, "range is null");
        if (range.length() > MAX_READ_BYTES) {
            throw new IllegalArgumentException("Cannot read range " + range + " of " + key + " in one request: it is "
                    + range.length() + " bytes and one read returns at most " + MAX_READ_BYTES + "; split it");
        }
        return submitRead(RequestKind.RANGE_GET, key, path, range);
    }

    /**
     * Streamed from the file in pieces of {@value #STREAM_PIECE_BYTES} bytes through one buffer, one I/O thread
     * reading the next piece once the previous one is handed over; no range is too long. The first byte is counted
     * when the first piece has been read, and the bytes as each is read (a cancelled stream counts those it read).
     */
    @Override
    public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
        Path path = pathOf(key);
        requireNonNull(range, "range is null");
        requireNonNull(pieces, "pieces is null");
        return submit(RequestKind.RANGE_GET, key, (start, result) -> {
            stream(key, path, range, pieces, start, result);
            return null;
        });
    }

    /**
     * One {@code GET} of the whole object; an object over {@value #MAX_READ_BYTES} bytes fails with an
     * {@link IllegalArgumentException} (read it in ranges).
     */
    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        return submitRead(RequestKind.GET, key, pathOf(key), null);
    }

    @Override
    public long size(String key) {
        Path path = pathOf(key);
        checkOpen();
        metrics.onRequestStarted(RequestKind.HEAD);
        long start = System.nanoTime();
        try {
            refuseLinks("read the size of", key, path);
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile()) {
                throw notFound(key, path);
            }
            metrics.onFirstByte(RequestKind.HEAD, System.nanoTime() - start);
            return attributes.size();
        } catch (IOException e) {
            metrics.onRequestFailed(RequestKind.HEAD);
            throw translate(e, "read the size of", key, path);
        } catch (RuntimeException e) {
            metrics.onRequestFailed(RequestKind.HEAD);
            throw e;
        }
    }

    @Override
    public void put(String key, InputStream data, long length) {
        Path target = pathOf(key);
        requireNonNull(data, "data is null");
        if (length < 0) {
            throw new IllegalArgumentException("Cannot store " + key + ": length must be >= 0, got " + length);
        }
        writeAtomically(key, target, out -> copy(key, data, length, out));
    }

    /** Copies {@code file} into place with {@link FileChannel#transferTo}, which the OS may do without copies. */
    @Override
    public void put(String key, Path file) {
        Path target = pathOf(key);
        requireNonNull(file, "file is null");
        FileChannel in;
        try {
            in = FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + " to store it as " + key, e);
        }
        try (in) {
            writeAtomically(key, target, out -> transfer(key, file, in, out));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close " + file + " after storing it as " + key, e);
        }
    }

    @Override
    public Stream<ObjectInfo> list(String prefix) {
        ObjectKeys.checkPrefix(prefix);
        checkOpen();
        // Start in the deepest directory the prefix names: "l2/shards/shard-0" lists root/l2/shards.
        String base = prefix.substring(0, prefix.lastIndexOf('/') + 1);
        Path start = base.isEmpty() ? shared.root : resolveInside(shared.root, base.substring(0, base.length() - 1));
        Iterator<ObjectInfo> listing = new Listing(start, base, prefix);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(listing,
                Spliterator.ORDERED | Spliterator.DISTINCT | Spliterator.NONNULL), false);
    }

    /** Deletes the file and then its parent directories up to the root, as long as they are empty. */
    @Override
    public void delete(String key) {
        Path path = pathOf(key);
        checkOpen();
        metrics.onRequestStarted(RequestKind.DELETE);
        try {
            refuseLinks("delete", key, path);
            if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                return;   // keys below it exist, but no object of this name
            }
            if (Files.deleteIfExists(path)) {
                pruneEmptyDirectories(path.getParent());
            }
        } catch (RuntimeException e) {
            metrics.onRequestFailed(RequestKind.DELETE);
            throw e;
        } catch (IOException e) {
            if (!Files.exists(path)) {
                return;   // e.g. a parent is a file: there was nothing to delete
            }
            metrics.onRequestFailed(RequestKind.DELETE);
            throw new StorageException("Cannot delete " + key + " (" + path + "): " + e, e);
        }
    }

    /** A view over the same directory and threads that counts into {@code metrics}; closing it does nothing. */
    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        return new FileBackend(shared, metrics, true);
    }

    /** Stops the read threads once queued reads finish; later calls fail (views too). Files are kept. */
    @Override
    public void close() {
        if (!view && shared.closed.compareAndSet(false, true)) {
            shared.executor.shutdown();
        }
    }

    @Override
    public String toString() {
        return "FileBackend[" + shared.root + "]";
    }

    /**
     * The path of {@code key} below {@code root}: defence in depth behind {@link ObjectKeys#check}, which already
     * rejects {@code ..} segments.
     *
     * @throws IllegalArgumentException if the key is not a valid path or its normalized path leaves the root
     */
    static Path resolveInside(Path root, String key) {
        Path path;
        try {
            path = root.resolve(key).normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("Object key '" + key + "' is not a valid path below the file backend root "
                    + root + ": " + e.getReason(), e);
        }
        if (!path.startsWith(root) || path.equals(root)) {
            throw new IllegalArgumentException("Object key '" + key + "' resolves to " + path
                    + ", which is outside the file backend root " + root);
        }
        return path;
    }

    /** Whether a file name is one of this backend's temporary files. */
    static boolean isTempName(String fileName) {
        return TEMP_NAME.matcher(fileName).matches();
    }

    private Path pathOf(String key) {
        ObjectKeys.check(key);
        String name = key.substring(key.lastIndexOf('/') + 1);
        if (isTempName(name)) {
            throw new IllegalArgumentException("Object key '" + key + "' is reserved: names like .<name>.<16 hex"
                    + " digits>.tmp are the file backend's temporary files");
        }
        return resolveInside(shared.root, key);
    }

    // ---- reads ---------------------------------------------------------------------------------------------

    private CompletableFuture<ByteBuffer> submitRead(RequestKind kind, String key, Path path, ByteRange range) {
        return submit(kind, key, (start, result) -> read(kind, key, path, range, start));
    }

    /** What a read does on its I/O thread, given when it was sent and the future it completes (to see a cancel). */
    @FunctionalInterface
    private interface ReadWork<T> {
        T run(long startNanos, CompletableFuture<T> result) throws IOException;
    }

    /** Counts a read of {@code kind} as sent and runs {@code work} on an I/O thread. */
    private <T> CompletableFuture<T> submit(RequestKind kind, String key, ReadWork<T> work) {
        checkOpen();
        metrics.onRequestStarted(kind);
        long start = System.nanoTime();
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            shared.executor.execute(() -> {
                try {
                    result.complete(work.run(start, result));
                } catch (PieceRefused refused) {   // the caller's failure, not the read's
                    result.completeExceptionally(refused.getCause());
                } catch (Throwable t) {   // complete the future whatever happens, so no caller waits forever
                    metrics.onRequestFailed(kind);
                    result.completeExceptionally(t);
                }
            });
        } catch (RejectedExecutionException e) {
            metrics.onRequestFailed(kind);
            result.completeExceptionally(new IllegalStateException("The file backend " + shared.root
                    + " was closed before reading " + key, e));
        }
        return result;
    }

    /** Reads {@code range} of {@code path}, or all of it if {@code range} is null, on an I/O thread. */
    private ByteBuffer read(RequestKind kind, String key, Path path, ByteRange range, long startNanos) {
        String what = range == null ? "read" : "read range " + range + " of";
        try (FileChannel channel = openToRead(what, key, path)) {
            long size = channel.size();
            ByteRange wanted = range != null ? range : whole(key, size);
            checkRange(key, path, wanted, size);
            ByteBuffer buffer = ByteBuffer.allocate((int) wanted.length());
            fill(channel, buffer, wanted.offset(), key, path, wanted, size);
            metrics.onFirstByte(kind, System.nanoTime() - startNanos);
            metrics.onBytesReceived(kind, wanted.length());
            return buffer.flip().asReadOnlyBuffer();
        } catch (IOException e) {
            throw translate(e, what, key, path);
        }
    }

    /** Opens {@code path} to read, refusing a symbolic link on its way from the root ({@code what}: for errors). */
    private FileChannel openToRead(String what, String key, Path path) throws IOException {
        Path link = firstLinkOnReadPath(path);
        if (link != null) {   // the message only then: a read is too frequent to build one each time
            throw linkRefused(what, key, link, null);
        }
        return FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }

    /** Checks that {@code wanted} lies within the file of {@code size} bytes at {@code path}. */
    private void checkRange(String key, Path path, ByteRange wanted, long size) {
        if (!wanted.fitsIn(size)) {
            throw new RangeNotSatisfiableException(key, wanted, size);
        }
        if (wanted.length() == 0 && !Files.isRegularFile(path)) {
            throw notFound(key, path);   // a directory opens fine on Linux; only a real read would fail
        }
    }

    /**
     * Streams {@code range} of {@code path} to {@code pieces}, a piece at a time through one buffer, until done or
     * {@code result} is cancelled.
     */
    private void stream(String key, Path path, ByteRange range, Consumer<ByteBuffer> pieces, long startNanos,
            CompletableFuture<Void> result) {
        String what = "read range " + range + " of";
        try (FileChannel channel = openToRead(what, key, path)) {
            long size = channel.size();
            checkRange(key, path, range, size);
            if (range.length() == 0) {
                metrics.onFirstByte(RequestKind.RANGE_GET, System.nanoTime() - startNanos);   // as a read counts it
                return;
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(STREAM_PIECE_BYTES, range.length()));
            ByteBuffer piece = buffer.asReadOnlyBuffer();
            long position = range.offset();
            boolean first = true;
            while (position < range.end() && !result.isDone()) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), range.end() - position));
                position = fill(channel, buffer, position, key, path, range, size);
                if (first) {
                    metrics.onFirstByte(RequestKind.RANGE_GET, System.nanoTime() - startNanos);
                    first = false;
                }
                metrics.onBytesReceived(RequestKind.RANGE_GET, buffer.limit());
                try {
                    pieces.accept(piece.clear().limit(buffer.limit()));
                } catch (RuntimeException | Error e) {
                    throw new PieceRefused(e);
                }
            }
        } catch (IOException e) {
            throw translate(e, what, key, path);
        }
    }

    /**
     * Fills {@code buffer}'s remaining bytes from {@code position} of the channel, part of reading {@code range}
     * of a file of {@code size} bytes when opened.
     *
     * @return the position after the bytes read
     */
    private static long fill(FileChannel channel, ByteBuffer buffer, long position, String key, Path path,
            ByteRange range, long size) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            // In slices: one read of the whole range would take a temporary direct buffer of its size, cached by
            // this I/O thread for good (see SlicedIo).
            int n = SlicedIo.read(channel, buffer, at);
            if (n < 0) {
                throw new StorageException("Cannot read range " + range + " of " + key + " (" + path
                        + "): the file ended at byte " + at + " though it was " + size
                        + " bytes when opened; was it changed outside the backend?");
            }
            at += n;
        }
        return at;
    }

    /** What a streamed read's consumer threw: it fails the read as it is, and is no failure of the request. */
    private static final class PieceRefused extends RuntimeException {
        PieceRefused(Throwable cause) {
            super(cause);
        }
    }

    private static ByteRange whole(String key, long size) {
        if (size > MAX_READ_BYTES) {
            throw new IllegalArgumentException("Cannot read all of " + key + " at once: it is " + size
                    + " bytes and one read returns at most " + MAX_READ_BYTES + "; read it in ranges");
        }
        return ByteRange.of(0, size);
    }

    // ---- writes --------------------------------------------------------------------------------------------

    @FunctionalInterface
    private interface TempWriter {
        void write(FileChannel out) throws IOException;
    }

    private void writeAtomically(String key, Path target, TempWriter writer) {
        checkOpen();
        metrics.onRequestStarted(RequestKind.PUT);
        Path temp;
        FileChannel out;
        try {
            refuseLinks("store", key, target);
            temp = target.resolveSibling(tempName(target.getFileName().toString()));
            out = openTemp(key, temp);
        } catch (RuntimeException e) {
            metrics.onRequestFailed(RequestKind.PUT);
            pruneEmptyDirectories(target.getParent());
            throw e;
        }
        try {
            try (out) {
                // Again, now that the directories exist: a link made meanwhile gets no data, and no rename.
                refuseLinks("store", key, temp);
                writer.write(out);
                if (shared.options.fsync()) {
                    out.force(true);
                }
            }
            moveIntoPlace(key, temp, target);
        } catch (IOException e) {
            Path link = firstLink(target);   // a directory swapped for a link while writing: the rename found no file
            StorageException failure = link != null ? linkRefused("store", key, link, e)
                    : new StorageException("Cannot store " + key + " in the file backend " + shared.root
                            + " (through the temporary file " + temp.getFileName() + "): " + e, e);
            abandon(temp, target, failure);
            throw failure;
        } catch (RuntimeException | Error e) {
            abandon(temp, target, e);
            throw e;
        }
    }

    /**
     * Creates the temporary file, and its parent directories when they are missing (tried second: usually they
     * exist). Retries if a concurrent delete prunes the directories in between.
     */
    private FileChannel openTemp(String key, Path temp) {
        Path directory = temp.getParent();
        for (int attempt = 1; ; attempt++) {
            IOException missing;
            try {
                return FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (NoSuchFileException e) {
                missing = e;
            } catch (IOException e) {
                throw cannotCreate(key, temp, e);
            }
            try {
                Files.createDirectories(directory);
            } catch (NoSuchFileException e) {
                missing = e;   // an ancestor was pruned while the chain was being created
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // createDirectories saw the directory exist, then found it gone: a concurrent delete pruned it.
                // Only a regular file where a directory belongs is a real conflict.
                if (firstFileAmongAncestors(directory) != null) {
                    throw cannotCreate(key, temp, e);
                }
                missing = e;
            } catch (IOException e) {
                throw cannotCreate(key, temp, e);
            }
            if (attempt == MAX_CREATE_ATTEMPTS) {
                throw new StorageException("Cannot create " + temp + " to store " + key + ": its directory keeps"
                        + " disappearing (deletes pruning it at the same time?)", missing);
            }
        }
    }

    private StorageException cannotCreate(String key, Path temp, IOException e) {
        Path blocking = firstFileAmongAncestors(temp.getParent());
        if (blocking != null) {
            String objectKey = keyOf(blocking);
            return new StorageException("Cannot store " + key + " in the file backend " + shared.root + ": "
                    + objectKey + " is an object, and a file system cannot also hold keys below it ("
                    + objectKey + "/...)", e);
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return new AccessDeniedException("Cannot store " + key + ": permission to create " + temp + " denied", e);
        }
        return new StorageException("Cannot create " + temp + " to store " + key + ": " + e, e);
    }

    private void moveIntoPlace(String key, Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            if (!Files.isDirectory(target)) {
                throw e;
            }
            try {
                deleteEmptyDirectory(target);   // an empty directory left by a racing delete: nothing is lost
            } catch (IOException notEmpty) {
                throw new StorageException("Cannot store " + key + " in the file backend " + shared.root + ": "
                        + target + " is a directory holding objects below " + key + "/, and a file system cannot"
                        + " also hold an object named " + key, e);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Deletes the temporary file and the directories the put created; notes cleanup failures on {@code failure}. */
    private void abandon(Path temp, Path target, Throwable failure) {
        metrics.onRequestFailed(RequestKind.PUT);
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
        pruneEmptyDirectories(target.getParent());
    }

    private void copy(String key, InputStream data, long length, FileChannel out) throws IOException {
        byte[] chunk = new byte[(int) Math.min(COPY_BUFFER_BYTES, Math.max(length, 1))];
        ByteBuffer buffer = ByteBuffer.wrap(chunk);
        long copied = 0;
        while (copied < length) {
            int n;
            try {
                n = data.read(chunk, 0, (int) Math.min(chunk.length, length - copied));
            } catch (IOException e) {
                throw new StorageException("Cannot store " + key + " in the file backend " + shared.root
                        + ": reading the source failed after " + copied + " of " + length + " bytes: " + e, e);
            }
            if (n < 0) {
                throw new StorageException("Cannot store " + key + " in the file backend " + shared.root
                        + ": the stream ended after " + copied + " of the " + length + " bytes promised");
            }
            buffer.clear().limit(n);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
            copied += n;
            metrics.onBytesSent(RequestKind.PUT, n);
        }
    }

    private void transfer(String key, Path file, FileChannel in, FileChannel out) throws IOException {
        long length = in.size();
        long copied = 0;
        while (copied < length) {
            long n = in.transferTo(copied, length - copied, out);
            if (n <= 0) {
                throw new StorageException("Cannot store " + file + " as " + key + ": it shrank to " + copied
                        + " bytes while being copied (it was " + length + ")");
            }
            copied += n;
        }
        metrics.onBytesSent(RequestKind.PUT, length);
    }

    private static String tempName(String name) {
        String stem = name.length() <= MAX_TEMP_NAME_STEM ? name : name.substring(0, MAX_TEMP_NAME_STEM);
        return "." + stem + "." + String.format("%016x", ThreadLocalRandom.current().nextLong()) + ".tmp";
    }

    // ---- directories ---------------------------------------------------------------------------------------

    /** Removes {@code directory} and its parents, up to but not including the root, while they are empty. */
    private void pruneEmptyDirectories(Path directory) {
        if (directory == null || firstLink(directory) != null) {
            return;   // the directories are not all the backend's: leave them
        }
        Path current = directory;
        while (current != null && current.startsWith(shared.root) && !current.equals(shared.root)) {
            try {
                deleteEmptyDirectory(current);
            } catch (DirectoryNotEmptyException | NoSuchFileException e) {
                return;
            } catch (IOException e) {
                LOG.debug("Cannot remove the empty directory {}: {}", current, e.toString());
                return;
            }
            current = current.getParent();
        }
    }

    /**
     * Deletes {@code directory} if it is an empty directory and never a file: a racing put may have just renamed
     * an object to that name. Where the platform allows, the directory-only unlink is one system call.
     */
    private static void deleteEmptyDirectory(Path directory) throws IOException {
        try (DirectoryStream<Path> parent = Files.newDirectoryStream(directory.getParent())) {
            if (parent instanceof SecureDirectoryStream<Path> secure) {
                secure.deleteDirectory(directory.getFileName());
                return;
            }
        }
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            throw new NotDirectoryException(directory.toString());
        }
        Files.delete(directory);
    }

    private Path firstFileAmongAncestors(Path directory) {
        for (Path p = directory; p != null && p.startsWith(shared.root) && !p.equals(shared.root); p = p.getParent()) {
            if (Files.exists(p) && !Files.isDirectory(p)) {
                return p;
            }
        }
        return null;
    }

    private String keyOf(Path path) {
        return shared.root.relativize(path).toString().replace(path.getFileSystem().getSeparator(), "/");
    }

    // ---- symbolic links ------------------------------------------------------------------------------------

    /**
     * Fails if a symbolic link lies on the way from the root to {@code path}, {@code path} included. The backend
     * makes no links, so one is not an object; following it could leave the root ({@code evil -> /etc} and a put
     * of {@code evil/x} would write {@code /etc/x}), and even one that stays inside would alias keys and loop in
     * listings. Checked without following links, one name at a time, before every operation; what is opened last
     * is opened with {@link LinkOption#NOFOLLOW_LINKS}, and a put checks again once its directories exist.
     *
     * @throws AccessDeniedException naming the operation, the key and the link
     */
    private void refuseLinks(String operation, String key, Path path) {
        Path link = firstLink(path);
        if (link != null) {
            throw linkRefused(operation, key, link, null);
        }
    }

    /**
     * {@link #firstLink} for a read, checking each directory once: walking the names from the root costs about 5 us
     * of system calls, twice what opening and reading a small range does, and a dataset's reads share a few
     * directories. The file itself is opened with {@link LinkOption#NOFOLLOW_LINKS} every time. A directory swapped
     * for a link after a read checked it is not seen, as a swap during any operation is not (the backend is no
     * barrier against users who can write inside its root).
     */
    private Path firstLinkOnReadPath(Path path) {
        Path directory = path.getParent();
        if (directory != null && shared.directoriesWithoutLinks.contains(directory)) {
            return null;
        }
        Path link = firstLink(path);
        if (link == null && directory != null && Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            shared.directoriesWithoutLinks.add(directory);
        }
        return link;
    }

    /** The first symbolic link from the root down to {@code path} (included), or null. The root may be a link. */
    private Path firstLink(Path path) {
        if (!path.startsWith(shared.root) || path.equals(shared.root)) {
            return null;
        }
        Path current = shared.root;
        for (Path name : shared.root.relativize(path)) {
            current = current.resolve(name);
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                return null;   // missing: nothing below it exists either (and the operation will say so)
            }
            if (attributes.isSymbolicLink()) {
                return current;
            }
            if (!attributes.isDirectory()) {
                return null;   // a file: nothing lies below it
            }
        }
        return null;
    }

    private AccessDeniedException linkRefused(String operation, String key, Path link, IOException cause) {
        String target;
        try {
            target = " to " + Files.readSymbolicLink(link);
        } catch (IOException | UnsupportedOperationException e) {
            target = "";   // removed again since
        }
        return new AccessDeniedException("Cannot " + operation + " " + key + " in the file backend " + shared.root
                + ": " + keyOf(link) + " is a symbolic link" + target + ", and the file backend follows no links"
                + " below its root (one could lead out of it)", cause);
    }

    // ---- errors --------------------------------------------------------------------------------------------

    private ObjectNotFoundException notFound(String key, Path path) {
        return new ObjectNotFoundException("No object " + key + " in the file backend " + shared.root
                + " (no file " + path + ")");
    }

    private StorageException translate(IOException e, String operation, String key, Path path) {
        Path link = firstLink(path);   // made after the check: opening it with NOFOLLOW_LINKS failed
        if (link != null) {
            return linkRefused(operation, key, link, e);
        }
        // NoSuchFileException, or "Not a directory" when a parent is a file, or a directory where the file should be.
        if (e instanceof java.nio.file.AccessDeniedException) {
            return new AccessDeniedException("Cannot " + operation + " " + key + ": permission to " + path
                    + " denied", e);
        }
        if (e instanceof NoSuchFileException || !Files.isRegularFile(path)) {
            return new ObjectNotFoundException(notFound(key, path).getMessage(), e);
        }
        return new StorageException("Cannot " + operation + " " + key + " (" + path + "): " + e, e);
    }

    private void checkOpen() {
        if (shared.closed.get()) {
            throw new IllegalStateException("The file backend " + shared.root + " is closed");
        }
    }

    private static Path prepareRoot(Path root) {
        Path absolute = requireNonNull(root, "root is null").toAbsolutePath().normalize();
        if (Files.exists(absolute) && !Files.isDirectory(absolute)) {
            throw new IllegalArgumentException("Cannot use " + absolute + " as a file backend root: it is a file,"
                    + " not a directory");
        }
        try {
            Files.createDirectories(absolute);
        } catch (IOException e) {
            throw new StorageException("Cannot create the file backend root " + absolute + ": " + e, e);
        }
        return absolute;
    }

    /** What a backend shares with its views: the directory, the read threads and the open state. */
    private static final class Shared {
        final Path root;
        final URI uri;
        final Options options;
        final ThreadPoolExecutor executor;
        final AtomicBoolean closed = new AtomicBoolean();
        /** Directories below the root that reads found to hold no link on their way from the root. */
        final Set<Path> directoriesWithoutLinks = ConcurrentHashMap.newKeySet();

        Shared(Path root, Options options) {
            this.root = root;
            this.uri = root.toUri();
            this.options = options;
            // Bounded threads, unbounded queue; idle threads exit so an unused backend holds none.
            this.executor = new ThreadPoolExecutor(options.ioThreads(), options.ioThreads(), 30, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), task -> {
                        Thread thread = new Thread(task, "layoutbench-file-io-" + THREAD_IDS.incrementAndGet());
                        thread.setDaemon(true);
                        return thread;
                    });
            this.executor.allowCoreThreadTimeOut(true);
        }
    }

    // ---- listing -------------------------------------------------------------------------------------------

    private record Entry(String name, boolean directory, long size) {
        /** Sorting directories as "name/" orders the depth-first walk exactly as the full keys sort. */
        String sortKey() {
            return directory ? name + "/" : name;
        }
    }

    private record Level(Path directory, String keyPrefix, Iterator<Entry> entries) {
    }

    /**
     * A depth-first walk that reads one directory at a time, in key order. Counts a {@code LIST} request when it
     * starts and each time it moves past another {@value #LIST_PAGE_SIZE} keys, as an S3 paginator would.
     */
    private final class Listing implements Iterator<ObjectInfo> {
        private final Path start;
        private final String startKeyPrefix;
        private final String prefix;
        private final Deque<Level> stack = new ArrayDeque<>();
        private ObjectInfo next;
        private boolean exhausted;
        private int pageFill = -1;
        private boolean pageCounted;

        Listing(Path start, String startKeyPrefix, String prefix) {
            this.start = start;
            this.startKeyPrefix = startKeyPrefix;
            this.prefix = prefix;
        }

        @Override
        public boolean hasNext() {
            try {
                return findNext();
            } catch (RuntimeException e) {
                if (pageCounted) {
                    metrics.onRequestFailed(RequestKind.LIST);   // a page was counted as started: it failed
                }
                throw e;
            }
        }

        private boolean findNext() {
            if (next == null && !exhausted) {
                long pageStart = -1;
                if (pageFill < 0) {
                    pageStart = startPage();
                    stack.push(level(start, startKeyPrefix));   // nothing is read before the stream is used
                }
                next = advance();
                if (next == null) {
                    exhausted = true;
                } else if (pageFill == LIST_PAGE_SIZE) {
                    pageStart = startPage();
                }
                if (pageStart >= 0) {
                    metrics.onFirstByte(RequestKind.LIST, System.nanoTime() - pageStart);
                }
            }
            return next != null;
        }

        @Override
        public ObjectInfo next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ObjectInfo result = next;
            next = null;
            pageFill++;
            return result;
        }

        private long startPage() {
            checkOpen();
            metrics.onRequestStarted(RequestKind.LIST);
            pageCounted = true;
            pageFill = 0;
            return System.nanoTime();
        }

        private ObjectInfo advance() {
            while (!stack.isEmpty()) {
                Level level = stack.peek();
                if (!level.entries().hasNext()) {
                    stack.pop();
                    continue;
                }
                Entry entry = level.entries().next();
                String key = level.keyPrefix() + entry.name();
                if (entry.directory()) {
                    String below = key + "/";
                    if (below.startsWith(prefix) || prefix.startsWith(below)) {
                        stack.push(level(level.directory().resolve(entry.name()), below));
                    }
                } else if (key.startsWith(prefix)) {
                    return new ObjectInfo(key, entry.size());
                }
            }
            return null;
        }

        private Level level(Path directory, String keyPrefix) {
            // The start directory's path must hold no link; below it, a directory swapped for a link since it was
            // read is skipped, as a link found while reading is.
            if (directory.equals(start)) {
                refuseLinks("list", prefix, directory);
            } else if (Files.isSymbolicLink(directory)) {
                return new Level(directory, keyPrefix, Collections.emptyIterator());
            }
            List<Entry> entries = new ArrayList<>();
            try (DirectoryStream<Path> children = Files.newDirectoryStream(directory)) {
                for (Path child : children) {
                    Entry entry = entry(child, keyPrefix);
                    if (entry != null) {
                        entries.add(entry);
                    }
                }
            } catch (NoSuchFileException | NotDirectoryException e) {
                // Nothing stored below this prefix (or the directory went away while listing).
            } catch (IOException e) {
                throw new StorageException("Cannot list " + keyPrefix + " in the file backend " + shared.root
                        + ": reading the directory " + directory + " failed: " + e, e);
            }
            entries.sort(Comparator.comparing(Entry::sortKey));
            return new Level(directory, keyPrefix, entries.iterator());
        }

        private Entry entry(Path child, String keyPrefix) {
            String name = child.getFileName().toString();
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                return null;   // deleted since the directory was read: not an object
            }
            if (attributes.isDirectory()) {
                return new Entry(name, true, 0);
            }
            if (attributes.isSymbolicLink()) {
                LOG.debug("Not listing {}: it is a symbolic link, which the file backend does not follow", child);
                return null;
            }
            if (!attributes.isRegularFile() || isTempName(name)) {
                return null;
            }
            try {
                ObjectKeys.check(keyPrefix + name);
            } catch (IllegalArgumentException e) {
                LOG.debug("Not listing {}: its name is not a valid object key ({})", child, e.getMessage());
                return null;
            }
            return new Entry(name, false, attributes.size());
        }
    }
}
