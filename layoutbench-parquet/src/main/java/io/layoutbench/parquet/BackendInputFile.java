package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.layout.RangeCoalescer;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} over one object of an {@link ObjectBackend}, built to send few requests: it learns the
 * object's length once (or is told it), fetches the tail holding the footer in one request and keeps it, keeps any
 * other region it is asked to {@link #retain} (the page indexes), fetches ahead on small stream reads, and merges
 * nearby ranges of {@link #readAllAsync} and {@link SeekableInputStream#readVectored} into one request each.
 *
 * <p>Reads inside the tail or a retained region cost no request; a stream read that starts within
 * {@link FetchOptions#tailSize()} of the end fetches the whole tail, so parquet-java's {@code ParquetFileReader}
 * also reads a footer (and page indexes that fit in the tail) in one request. Other reads are not cached: the caller
 * keeps what it fetched. Buffers handed out are read-only slices of the fetched buffers, not copies.
 *
 * <p><b>Thread safety:</b> the file is thread-safe and may be shared; each stream from {@link #newStream()} is for
 * one thread. <b>End of file:</b> a read that ends past the object fails with an {@link EOFException} (streams) or
 * the backend's {@code RangeNotSatisfiableException} (ranged reads), naming the key, the offset and the length.
 *
 * <pre>{@code
 * BackendInputFile file = new BackendInputFile(backend, "l3/part-00000.parquet", FetchOptions.defaults());
 * ByteBuffer tail = file.tail();                                  // one request, kept
 * List<ByteBuffer> pages = file.readAll(List.of(ByteRange.of(4, 1000), ByteRange.of(1100, 500)));  // one request
 * }</pre>
 */
public final class BackendInputFile implements InputFile {

    private final ObjectBackend backend;
    private final String key;
    private final FetchOptions options;
    private final Object lengthLock = new Object();
    private volatile long length;
    private final Object tailLock = new Object();
    private volatile ByteBuffer tail;
    /** Regions kept for the life of this file: the tail and retained ranges. Each buffer starts at its offset. */
    private final List<Region> kept = new CopyOnWriteArrayList<>();

    private record Region(long offset, ByteBuffer bytes) {
        long end() {
            return offset + bytes.remaining();
        }

        boolean covers(ByteRange range) {
            return range.offset() >= offset && range.end() <= end();
        }

        ByteBuffer slice(ByteRange range) {
            return bytes.slice((int) (range.offset() - offset), (int) range.length()).asReadOnlyBuffer();
        }
    }

    /** The object {@code key} of {@code backend}, read with the default options; its length is asked on first use. */
    public BackendInputFile(ObjectBackend backend, String key) {
        this(backend, key, FetchOptions.defaults());
    }

    /** The object {@code key} of {@code backend}; its length is asked (one HEAD-class request) on first use. */
    public BackendInputFile(ObjectBackend backend, String key, FetchOptions options) {
        this(backend, key, -1, options);
    }

    /**
     * The object {@code key} of {@code backend} whose length is already known (from a listing, or from writing it),
     * which saves a request.
     */
    public BackendInputFile(ObjectBackend backend, String key, long length, FetchOptions options) {
        this.backend = requireNonNull(backend, "backend is null");
        this.key = ObjectKeys.check(requireNonNull(key, "key is null"));
        this.options = requireNonNull(options, "options is null");
        if (length < -1) {
            throw new IllegalArgumentException("Length of " + key + " must be >= 0, got " + length);
        }
        this.length = length;
    }

    /** The object's key. */
    public String key() {
        return key;
    }

    /** The backend the object is read from. */
    public ObjectBackend backend() {
        return backend;
    }

    /** The options this file reads with. */
    public FetchOptions options() {
        return options;
    }

    /** The object's length in bytes: given at construction, or asked of the backend once. */
    @Override
    public long getLength() {
        long known = length;
        if (known >= 0) {
            return known;
        }
        synchronized (lengthLock) {
            if (length < 0) {
                length = backend.size(key);
            }
            return length;
        }
    }

    /**
     * The last {@code min(length, tailSize)} bytes of the object, fetched in one request on first call and kept.
     * The buffer's position 0 is at offset {@code length - remaining}.
     */
    public ByteBuffer tail() {
        ByteBuffer known = tail;
        if (known != null) {
            return known.duplicate();
        }
        synchronized (tailLock) {
            if (tail == null) {
                long objectLength = getLength();
                ByteRange range = ByteRange.between(Math.max(0, objectLength - options.tailSize()), objectLength);
                ByteBuffer bytes = ObjectBackend.await(fetch(range));
                kept.add(new Region(range.offset(), bytes));
                tail = bytes;
            }
            return tail.duplicate();
        }
    }

    /**
     * Fetches {@code range} (unless it is already kept) in one request and keeps it, so later reads inside it,
     * through streams or ranged reads, cost no request.
     *
     * @return the range's bytes
     */
    public ByteBuffer retain(ByteRange range) {
        requireNonNull(range, "range is null");
        Region region = keptRegion(range);
        if (region != null) {
            return region.slice(range);
        }
        ByteBuffer bytes = ObjectBackend.await(fetch(range));
        kept.add(new Region(range.offset(), bytes));
        return bytes.duplicate();
    }

    /** Blocking {@link #readAsync}. */
    public ByteBuffer read(ByteRange range) {
        return ObjectBackend.await(readAsync(range));
    }

    /**
     * Reads {@code range}: from a kept region at no cost, or with one ranged request.
     *
     * @return a future of a read-only buffer holding exactly the range, positioned at its start
     */
    public CompletableFuture<ByteBuffer> readAsync(ByteRange range) {
        requireNonNull(range, "range is null");
        Region region = keptRegion(range);
        if (region != null) {
            return CompletableFuture.completedFuture(region.slice(range));
        }
        return fetch(range);
    }

    /**
     * Streams {@code range} to {@code pieces}: from a kept region at no cost, as one piece, or with one ranged
     * request whose bytes are handed over as they arrive ({@link ObjectBackend#streamRangeAsync}, whose contract
     * {@code pieces} follows).
     */
    public CompletableFuture<Void> streamAsync(ByteRange range, Consumer<ByteBuffer> pieces) {
        requireNonNull(range, "range is null");
        requireNonNull(pieces, "pieces is null");
        Region region = keptRegion(range);
        if (region != null) {
            return ObjectBackend.inOnePiece(CompletableFuture.completedFuture(region.slice(range)), pieces);
        }
        return backend.streamRangeAsync(key, range, pieces);
    }

    /** Blocking {@link #readAllAsync}. */
    public List<ByteBuffer> readAll(List<ByteRange> ranges) {
        return ObjectBackend.await(readAllAsync(ranges));
    }

    /**
     * Reads many ranges with as few requests as {@link FetchOptions#mergeGap()} and
     * {@link FetchOptions#maxMergedSize()} allow: ranges inside kept regions cost nothing, the others are merged
     * with {@link RangeCoalescer} and each merged range is one request, all sent at once.
     *
     * @return a future of one read-only buffer per range, in the order given, each a slice of a fetched buffer
     */
    public CompletableFuture<List<ByteBuffer>> readAllAsync(List<ByteRange> ranges) {
        List<CompletableFuture<ByteBuffer>> parts = readEachAsync(ranges);
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> parts.stream().map(CompletableFuture::join).toList());
    }

    /** Like {@link #readAllAsync}, with a future per range that completes as soon as its own request does. */
    public List<CompletableFuture<ByteBuffer>> readEachAsync(List<ByteRange> ranges) {
        requireNonNull(ranges, "ranges is null");
        List<CompletableFuture<ByteBuffer>> results = new ArrayList<>(ranges.size());
        List<ByteRange> remote = new ArrayList<>();
        List<Integer> remoteIndex = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            ByteRange range = requireNonNull(ranges.get(i), "ranges contains null");
            Region region = keptRegion(range);
            if (region != null) {
                results.add(CompletableFuture.completedFuture(region.slice(range)));
            } else {
                results.add(null);
                remote.add(range);
                remoteIndex.add(i);
            }
        }
        for (RangeCoalescer.Merged merged
                : RangeCoalescer.coalesce(remote, options.mergeGap(), options.maxMergedSize())) {
            CompletableFuture<ByteBuffer> request = fetch(merged.range());
            for (int member : merged.members()) {
                ByteRange range = remote.get(member);
                long offset = merged.range().offset();
                results.set(remoteIndex.get(member), request.thenApply(bytes -> bytes
                        .slice((int) (range.offset() - offset), (int) range.length()).asReadOnlyBuffer()));
            }
        }
        return results;
    }

    @Override
    public SeekableInputStream newStream() {
        return new Stream();
    }

    @Override
    public String toString() {
        return backend.uri() + " " + key;
    }

    private Region keptRegion(ByteRange range) {
        for (Region region : kept) {
            if (region.covers(range)) {
                return region;
            }
        }
        return null;
    }

    /** One request; the buffer's position 0 is the range's first byte. */
    private CompletableFuture<ByteBuffer> fetch(ByteRange range) {
        return backend.readRangeAsync(key, range).thenApply(ByteBuffer::slice);
    }

    /** A stream over the object; fetches ahead on small reads, serves kept regions without a request. */
    private final class Stream extends SeekableInputStream {
        private long pos;
        private ByteBuffer buffer = ByteBuffer.allocate(0);
        private long bufferOffset;
        private boolean closed;

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void seek(long newPos) throws IOException {
            checkOpen();
            if (newPos < 0 || newPos > getLength()) {
                throw new EOFException("Cannot seek to offset " + newPos + " of " + key + ": object is "
                        + getLength() + " bytes");
            }
            pos = newPos;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = Math.max(0, Math.min(n, getLength() - pos));
            pos += skipped;
            return skipped;
        }

        @Override
        public int available() {
            ByteBuffer window = window();
            return window == null ? 0 : window.remaining();
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] bytes, int offset, int len) throws IOException {
            checkOpen();
            java.util.Objects.checkFromIndexSize(offset, len, bytes.length);
            if (len == 0) {
                return 0;
            }
            ByteBuffer window = windowFor(len);
            if (window == null) {
                return -1;
            }
            int n = Math.min(len, window.remaining());
            window.get(bytes, offset, n);
            pos += n;
            return n;
        }

        @Override
        public void readFully(byte[] bytes) throws IOException {
            readFully(bytes, 0, bytes.length);
        }

        @Override
        public void readFully(byte[] bytes, int start, int len) throws IOException {
            int done = 0;
            while (done < len) {
                int n = read(bytes, start + done, len - done);
                if (n < 0) {
                    throw endOfObject(len - done);
                }
                done += n;
            }
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            checkOpen();
            if (!dst.hasRemaining()) {
                return 0;
            }
            ByteBuffer window = windowFor(dst.remaining());
            if (window == null) {
                return -1;
            }
            int n = Math.min(dst.remaining(), window.remaining());
            dst.put(window.limit(window.position() + n));
            pos += n;
            return n;
        }

        @Override
        public void readFully(ByteBuffer dst) throws IOException {
            while (dst.hasRemaining()) {
                int wanted = dst.remaining();
                if (read(dst) < 0) {
                    throw endOfObject(wanted);
                }
            }
        }

        /** One request per merged range; each range's future completes with a read-only slice of its request. */
        @Override
        public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator) throws IOException {
            checkOpen();
            List<ByteRange> byteRanges = new ArrayList<>(ranges.size());
            for (ParquetFileRange range : ranges) {
                ByteRange byteRange = ByteRange.of(range.getOffset(), range.getLength());
                if (!byteRange.fitsIn(getLength())) {
                    throw new EOFException("Cannot read range " + byteRange + " of " + key + ": object is "
                            + getLength() + " bytes");
                }
                byteRanges.add(byteRange);
            }
            List<CompletableFuture<ByteBuffer>> parts = readEachAsync(byteRanges);
            for (int i = 0; i < ranges.size(); i++) {
                ranges.get(i).setDataReadFuture(parts.get(i));
            }
        }

        @Override
        public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
            return true;
        }

        @Override
        public void close() {
            closed = true;
            buffer = ByteBuffer.allocate(0);
        }

        /** Bytes from {@code pos} on that are held already, or null. */
        private ByteBuffer window() {
            if (pos >= bufferOffset && pos < bufferOffset + buffer.remaining()) {
                return buffer.duplicate().position((int) (pos - bufferOffset));
            }
            for (Region region : kept) {
                if (pos >= region.offset && pos < region.end()) {
                    return region.bytes.duplicate().position((int) (pos - region.offset));
                }
            }
            return null;
        }

        /** Bytes from {@code pos} on, fetching at least {@code wanted} (or the buffer size) if none are held. */
        private ByteBuffer windowFor(int wanted) throws IOException {
            ByteBuffer window = window();
            if (window != null) {
                return window;
            }
            long objectLength = getLength();
            if (pos >= objectLength) {
                return null;
            }
            if (pos >= objectLength - options.tailSize()) {
                // A reader near the end is after the footer (parquet-java reads its length, then the footer):
                // fetch and keep the whole tail in one request.
                tail();
                return window();
            }
            long end = Math.min(objectLength, pos + Math.max(wanted, options.bufferSize()));
            for (Region region : kept) {
                if (region.offset > pos && region.offset < end) {
                    end = Math.max(pos + wanted, region.offset);   // do not fetch again what is kept
                }
            }
            end = Math.min(end, objectLength);
            try {
                buffer = fetch(ByteRange.between(pos, end)).join();
            } catch (java.util.concurrent.CompletionException e) {
                throw new IOException("Cannot read " + ByteRange.between(pos, end) + " of " + key + ": "
                        + e.getCause().getMessage(), e.getCause());
            }
            bufferOffset = pos;
            return buffer.duplicate();
        }

        private EOFException endOfObject(int missing) {
            return new EOFException("Reached the end of " + key + " at offset " + pos + " with " + missing
                    + " bytes still to read: object is " + getLength() + " bytes");
        }

        private void checkOpen() throws IOException {
            if (closed) {
                throw new IOException("Stream over " + key + " is closed");
            }
        }

        @Override
        public String toString() {
            return "stream over " + BackendInputFile.this + " at " + pos;
        }
    }
}
