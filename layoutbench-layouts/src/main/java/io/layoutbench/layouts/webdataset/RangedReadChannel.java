package io.layoutbench.layouts.webdataset;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A read-only {@link SeekableByteChannel} over one object, read by ranged reads into one window at a time: reads
 * inside the window cost nothing, and {@link #position(long)} only moves the position, so a tar reader that seeks
 * past member data (Commons Compress's {@code TarFile}) downloads none of it. Window sizes follow
 * {@link TarIndexOptions}'s read policy.
 *
 * <p>{@link #read} fills its buffer whole unless the object ends first ({@code TarFile} takes a short record for the
 * end of the archive). It also notes where the last 512-byte record read started and whether the reader went past
 * the end, so that a failure can name the offset. Not thread-safe: one indexing run owns it.
 */
final class RangedReadChannel implements SeekableByteChannel {

    private static final int RECORD = 512;

    private final ObjectBackend backend;
    private final String key;
    private final long size;
    private final TarIndexOptions options;
    private boolean open = true;
    private long position;
    /** The bytes {@code [windowOffset, windowOffset + window.limit())} of the object. */
    private ByteBuffer window = ByteBuffer.allocate(0);
    private long windowOffset;
    private int lastReadBytes;
    private long lastRecordOffset;
    private boolean pastEnd;

    RangedReadChannel(ObjectBackend backend, String key, long size, TarIndexOptions options) {
        this.backend = backend;
        this.key = key;
        this.size = size;
        this.options = options;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (dst.remaining() == RECORD) {
            lastRecordOffset = position;
        }
        if (position >= size) {
            pastEnd |= dst.hasRemaining();
            return dst.hasRemaining() ? -1 : 0;
        }
        int total = 0;
        while (dst.hasRemaining() && position < size) {
            long windowEnd = windowOffset + window.limit();
            if (position < windowOffset || position >= windowEnd) {
                fetch(position, windowEnd);
                windowEnd = windowOffset + window.limit();
            }
            int n = (int) Math.min(dst.remaining(), windowEnd - position);
            dst.put(window.slice((int) (position - windowOffset), n));
            position += n;
            total += n;
        }
        pastEnd |= dst.hasRemaining();
        return total;
    }

    /** Reads the window that starts at {@code from}, sized by how far the reader skipped since the last window. */
    private void fetch(long from, long previousEnd) {
        long skipped = from - previousEnd;
        boolean readThrough = lastReadBytes > 0 && skipped >= 0 && skipped <= options.readThroughBytes();
        long length = readThrough
                ? Math.min(options.maxReadBytes(), 2L * lastReadBytes)
                : options.headerReadBytes();
        length = Math.min(length, size - from);
        window = backend.readRange(key, ByteRange.of(from, length)).slice();   // index 0 is byte `from`
        windowOffset = from;
        lastReadBytes = (int) length;
    }

    /** The bytes {@code [offset, offset + length)}, or fewer where the object ends first. */
    ByteBuffer readAt(long offset, int length) throws IOException {
        position(offset);
        ByteBuffer bytes = ByteBuffer.allocate(length);
        read(bytes);
        return bytes.flip();
    }

    /** Where the last 512-byte record read started: the header being parsed when something failed. */
    long lastRecordOffset() {
        return lastRecordOffset;
    }

    /** Whether a read or a seek went past the end of the object. */
    boolean wentPastEnd() {
        return pastEnd || position > size;
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("Position in " + key + " must be >= 0, got " + newPosition);
        }
        pastEnd |= newPosition > size;
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public SeekableByteChannel truncate(long newSize) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    private void ensureOpen() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
