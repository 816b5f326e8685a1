package io.layoutbench.fusion.coding;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.internal.SlicedIo;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The bytes of an object being encoded, readable at any offset: a byte array, or a local file (for objects larger
 * than memory, beyond 4 GB too). Reads may run concurrently. Close it to release the file.
 *
 * <pre>{@code
 * try (ObjectSource source = ObjectSource.of(Path.of("lineitem.parquet"))) {
 *     ChunkMap map = ParquetChunkMaps.read(source);
 * }
 * }</pre>
 */
public interface ObjectSource extends AutoCloseable {

    /** The object's length. */
    long size();

    /**
     * Copies {@code length} bytes from {@code offset} into {@code target} at {@code targetOffset}.
     *
     * @throws UncheckedIOException if the bytes cannot be read
     */
    void read(long offset, byte[] target, int targetOffset, int length);

    /** A stream of {@code length} bytes from {@code offset}. */
    default InputStream stream(long offset, long length) {
        return new InputStream() {
            private long position = offset;
            private final long end = offset + length;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (position >= end) {
                    return -1;
                }
                int n = (int) Math.min(len, end - position);
                ObjectSource.this.read(position, b, off, n);
                position += n;
                return n;
            }
        };
    }

    @Override
    default void close() {
    }

    /** The bytes of {@code bytes}, not copied. */
    static ObjectSource of(byte[] bytes) {
        requireNonNull(bytes, "bytes is null");
        return new ObjectSource() {
            @Override
            public long size() {
                return bytes.length;
            }

            @Override
            public void read(long offset, byte[] target, int targetOffset, int length) {
                System.arraycopy(bytes, Math.toIntExact(offset), target, targetOffset, length);
            }

            @Override
            public InputStream stream(long offset, long length) {
                return new ByteArrayInputStream(bytes, Math.toIntExact(offset), Math.toIntExact(length));
            }
        };
    }

    /** The file at {@code file}, opened for reading until {@link #close()}. */
    static ObjectSource of(Path file) {
        requireNonNull(file, "file is null");
        FileChannel channel;
        long size;
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ);
            size = channel.size();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open " + file + ": " + e.getMessage(), e);
        }
        return of(channel, size, file, true);
    }

    /**
     * The first {@code size} bytes read through {@code channel} (of {@code file}, named in errors), with positional
     * reads; {@link #close()} closes the channel only when {@code closeChannel}.
     */
    static ObjectSource of(FileChannel channel, long size, Path file, boolean closeChannel) {
        return new ObjectSource() {
            @Override
            public long size() {
                return size;
            }

            @Override
            public void read(long offset, byte[] target, int targetOffset, int length) {
                ByteBuffer buffer = ByteBuffer.wrap(target, targetOffset, length);
                long position = offset;
                try {
                    while (buffer.hasRemaining()) {
                        int n = SlicedIo.read(channel, buffer, position);   // not whole: see SlicedIo
                        if (n < 0) {
                            throw new IOException("end of file at " + position);
                        }
                        position += n;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot read [" + offset + ", " + (offset + length) + ") of "
                            + file + ": " + e.getMessage(), e);
                }
            }

            @Override
            public void close() {
                if (!closeChannel) {
                    return;
                }
                try {
                    channel.close();
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot close " + file, e);
                }
            }

            @Override
            public String toString() {
                return file.toString();
            }
        };
    }
}
