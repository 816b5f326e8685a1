package io.layoutbench.api.dataset;

import java.io.InputStream;
import java.nio.ByteBuffer;

/** Reads a blob front to back, one chunk of {@link Blob#STREAM_CHUNK_BYTES} at a time. Not thread-safe. */
final class BlobInputStream extends InputStream {

    private final Blob blob;
    private final long size;
    private long position;
    private ByteBuffer chunk = ByteBuffer.allocate(0);

    BlobInputStream(Blob blob) {
        this.blob = blob;
        this.size = blob.size();
    }

    @Override
    public int read() {
        if (!fill()) {
            return -1;
        }
        return chunk.get() & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, chunk.remaining());
        chunk.get(b, off, n);
        return n;
    }

    @Override
    public long skip(long n) {
        long skipped = Math.max(0, Math.min(n, chunk.remaining() + size - position));
        long inChunk = Math.min(skipped, chunk.remaining());
        chunk.position(chunk.position() + (int) inChunk);
        position += skipped - inChunk;
        return skipped;
    }

    @Override
    public int available() {
        return chunk.remaining();
    }

    private boolean fill() {
        if (chunk.hasRemaining()) {
            return true;
        }
        if (position >= size) {
            return false;
        }
        int length = (int) Math.min(Blob.STREAM_CHUNK_BYTES, size - position);
        chunk = blob.read(position, length);
        position += length;
        return true;
    }
}
