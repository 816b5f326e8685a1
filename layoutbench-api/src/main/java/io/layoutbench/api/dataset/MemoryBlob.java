package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;

/** A blob whose bytes are in memory: a slice of a buffer, never copied. */
final class MemoryBlob implements Blob {

    private final ByteBuffer bytes;

    MemoryBlob(ByteBuffer bytes) {
        this.bytes = requireNonNull(bytes, "bytes is null").slice().asReadOnlyBuffer();
    }

    @Override
    public long size() {
        return bytes.remaining();
    }

    @Override
    public ByteBuffer read(long offset, int length) {
        Blob.checkRange(offset, length, bytes.remaining(), this);
        return bytes.slice((int) offset, length);
    }

    @Override
    public ByteBuffer readAll() {
        return bytes.duplicate();
    }

    @Override
    public boolean inMemory() {
        return true;
    }

    @Override
    public String toString() {
        return "in-memory blob";
    }
}
