package io.layoutbench.parquet;

import java.io.InputStream;
import java.nio.ByteBuffer;

/** An {@link InputStream} over a buffer's remaining bytes that tells how many it consumed; for Thrift parsing. */
final class ByteBufferInputStream extends InputStream {
    private final ByteBuffer buffer;
    private final int start;

    ByteBufferInputStream(ByteBuffer buffer) {
        this.buffer = buffer.duplicate();
        this.start = this.buffer.position();
    }

    /** Bytes read so far. */
    int consumed() {
        return buffer.position() - start;
    }

    @Override
    public int read() {
        return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        if (!buffer.hasRemaining()) {
            return -1;
        }
        int n = Math.min(length, buffer.remaining());
        buffer.get(bytes, offset, n);
        return n;
    }

    @Override
    public long skip(long n) {
        int skipped = (int) Math.max(0, Math.min(n, buffer.remaining()));
        buffer.position(buffer.position() + skipped);
        return skipped;
    }

    @Override
    public int available() {
        return buffer.remaining();
    }
}
