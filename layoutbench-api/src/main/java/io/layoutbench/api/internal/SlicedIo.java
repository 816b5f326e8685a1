package io.layoutbench.api.internal;

import static java.util.Objects.requireNonNull;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;

/**
 * Channel and stream I/O on heap memory, at most {@value #SLICE_BYTES} bytes per call. Not part of the stable API.
 *
 * <p>Why: a {@link FileChannel} given a heap buffer copies through a temporary direct buffer as large as the heap
 * buffer's remaining bytes, and the JDK keeps that buffer cached in the calling thread for its next call (unless
 * {@code -Djdk.nio.maxCachedBufferSize} says otherwise). The streams of {@code Files.newInputStream} and
 * {@code Files.newOutputStream} are channels too: a {@code read(byte[], off, len)} or {@code write} of {@code len}
 * bytes takes a temporary direct buffer of {@code len} bytes. A 64 MB range read on each of 16 I/O threads then
 * holds 1 GB of direct memory outside the heap for the life of the threads, and fails once
 * {@code -XX:MaxDirectMemorySize} (by default the heap limit) is reached. Moving at most {@value #SLICE_BYTES}
 * bytes per call bounds that buffer to {@value #SLICE_BYTES} bytes a thread whatever the size of the transfer, for
 * one system call per slice; the copy through the temporary buffer happens either way. Direct buffers need no
 * temporary buffer and move whole.
 *
 * <p>Mapping the file instead would need no copy, but mapped pages count in the process's resident size until
 * the mapping is collected, which is as unbounded; allocating direct buffers per read moves the same problem to
 * the garbage collector's timing.
 *
 * <pre>{@code
 * while (buffer.hasRemaining()) {
 *     int n = SlicedIo.read(channel, buffer, position);   // as FileChannel.read, at most 256 KiB
 *     ...
 * }
 * try (OutputStream out = SlicedIo.slicedWrites(Files.newOutputStream(file))) { ... }
 * }</pre>
 *
 * <p>Thread-safe: the methods hold no state. A buffer's limit is changed and restored during a call, so a buffer
 * must not be used by another thread meanwhile (as for any channel call).
 */
public final class SlicedIo {

    /** The most bytes one call moves between a heap buffer and a channel. */
    public static final int SLICE_BYTES = 256 * 1024;

    private static final int MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;

    private SlicedIo() {
    }

    /**
     * As {@link FileChannel#read(ByteBuffer, long)}, reading at most {@value #SLICE_BYTES} bytes into a heap
     * {@code target}.
     *
     * @return the bytes read, possibly zero, or -1 at the end of the file
     */
    public static int read(FileChannel channel, ByteBuffer target, long position) throws IOException {
        if (target.isDirect() || target.remaining() <= SLICE_BYTES) {
            return channel.read(target, position);
        }
        int limit = target.limit();
        target.limit(target.position() + SLICE_BYTES);
        try {
            return channel.read(target, position);
        } finally {
            target.limit(limit);
        }
    }

    /**
     * As {@link WritableByteChannel#write(ByteBuffer)}, writing at most {@value #SLICE_BYTES} bytes of a heap
     * {@code source}.
     */
    public static int write(WritableByteChannel channel, ByteBuffer source) throws IOException {
        if (source.isDirect() || source.remaining() <= SLICE_BYTES) {
            return channel.write(source);
        }
        int limit = source.limit();
        source.limit(source.position() + SLICE_BYTES);
        try {
            return channel.write(source);
        } finally {
            source.limit(limit);
        }
    }

    /**
     * As {@link FileChannel#write(ByteBuffer, long)}, writing at most {@value #SLICE_BYTES} bytes of a heap
     * {@code source}.
     */
    public static int write(FileChannel channel, ByteBuffer source, long position) throws IOException {
        if (source.isDirect() || source.remaining() <= SLICE_BYTES) {
            return channel.write(source, position);
        }
        int limit = source.limit();
        source.limit(source.position() + SLICE_BYTES);
        try {
            return channel.write(source, position);
        } finally {
            source.limit(limit);
        }
    }

    /**
     * The whole file, as {@link java.nio.file.Files#readAllBytes} (which reads it with one call, through a temporary
     * direct buffer of the file's size), read in slices.
     *
     * @throws IOException if the file cannot be read, or is too large for an array
     */
    public static byte[] readAllBytes(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size > MAX_ARRAY_BYTES) {
                throw new IOException("Cannot read " + file + " into memory: it is " + size
                        + " bytes, and an array holds at most " + MAX_ARRAY_BYTES);
            }
            byte[] bytes = new byte[(int) size];
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                if (read(channel, buffer, buffer.position()) < 0) {
                    return Arrays.copyOf(bytes, buffer.position());   // it shrank since its size was read
                }
            }
            if (channel.read(ByteBuffer.allocate(1), size) < 0) {
                return bytes;
            }
        }
        // It grew since its size was read: read it again to its end, as it is now.
        try (InputStream in = slicedReads(Files.newInputStream(file))) {
            return in.readAllBytes();
        }
    }

    /**
     * {@code in}, each read asking it for at most {@value #SLICE_BYTES} bytes ({@code readNBytes} and
     * {@code readAllBytes} included, which loop over {@code read}). Closing it closes {@code in}.
     */
    public static InputStream slicedReads(InputStream in) {
        return new FilterInputStream(requireNonNull(in, "in is null")) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                Objects.checkFromIndexSize(off, len, b.length);
                return in.read(b, off, Math.min(len, SLICE_BYTES));
            }
        };
    }

    /**
     * {@code out}, a large write passed on as writes of at most {@value #SLICE_BYTES} bytes. Closing it closes
     * {@code out}.
     */
    public static OutputStream slicedWrites(OutputStream out) {
        return new FilterOutputStream(requireNonNull(out, "out is null")) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                Objects.checkFromIndexSize(off, len, b.length);
                for (int done = 0; done < len; ) {   // not done += SLICE_BYTES in the header: it would overflow
                    int n = Math.min(SLICE_BYTES, len - done);
                    out.write(b, off + done, n);
                    done += n;
                }
            }
        };
    }
}
