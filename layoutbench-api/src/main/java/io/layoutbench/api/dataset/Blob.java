package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The bytes of one payload field of a sample (an image, a clip, a caption), read whole or in part. A blob a query
 * returns is either in memory or lazily read: each {@link #read} of a lazily read blob is one ranged read of the
 * bytes asked for, so reading 1 MB of a 1 GB video costs about 1 MB however the dataset is laid out. Sizes are
 * {@code long}: a blob may be larger than any array.
 *
 * <p>Implementations are thread-safe. Reading past the end fails; a read of length 0 returns an empty buffer.
 *
 * <pre>{@code
 * Blob video = sample.field("mp4");
 * ByteBuffer header = video.read(0, 64 << 10);                  // one ranged GET of 64 KiB
 * ByteBuffer tail = video.read(video.size() - 1024, 1024);
 * try (InputStream in = video.openStream()) { in.transferTo(out); }  // 1 MiB reads, bounded memory
 * Blob caption = Blob.of("a cat on a mat".getBytes(UTF_8));
 * }</pre>
 */
public interface Blob {

    /** Bytes {@link #openStream()} reads at a time from a lazily read blob. */
    int STREAM_CHUNK_BYTES = 1 << 20;

    /** Number of bytes. */
    long size();

    /**
     * {@code length} bytes from {@code offset}, as a read-only buffer positioned at the first.
     *
     * @throws IndexOutOfBoundsException if the range is not within the blob
     * @throws io.layoutbench.api.LayoutBenchException if a lazily read blob cannot be read, naming object and range
     */
    ByteBuffer read(long offset, int length);

    /** Whether the bytes are in memory (a read costs no request). */
    default boolean inMemory() {
        return false;
    }

    /**
     * Every byte, in one buffer.
     *
     * @throws IllegalStateException if the blob is larger than a buffer can be (about 2 GiB): read it in parts
     */
    default ByteBuffer readAll() {
        if (size() > MAX_BUFFER_BYTES) {
            throw new IllegalStateException("A blob of " + size() + " bytes does not fit one buffer (at most "
                    + MAX_BUFFER_BYTES + "); read it in parts with read(offset, length) or openStream()");
        }
        return read(0, (int) size());
    }

    /** A copy of every byte (see {@link #readAll()}). */
    default byte[] toByteArray() {
        ByteBuffer all = readAll();
        byte[] copy = new byte[all.remaining()];
        all.get(copy);
        return copy;
    }

    /** A stream over the bytes, reading {@link #STREAM_CHUNK_BYTES} at a time: bounded memory at any size. */
    default InputStream openStream() {
        return new BlobInputStream(this);
    }

    /** Largest blob {@link #readAll()} returns: Java arrays stop a little below {@code Integer.MAX_VALUE}. */
    long MAX_BUFFER_BYTES = Integer.MAX_VALUE - 8;

    /** A blob over {@code bytes} from their position to their limit, without copying. */
    static Blob of(ByteBuffer bytes) {
        return new MemoryBlob(bytes);
    }

    /** A blob over {@code bytes}, without copying. */
    static Blob of(byte[] bytes) {
        return new MemoryBlob(ByteBuffer.wrap(requireNonNull(bytes, "bytes is null")));
    }

    /**
     * A blob over a local file, read when asked: how a source hands a writer a payload larger than memory. The
     * size is the file's when this is called; reads fail if the file changes size.
     *
     * @throws UncheckedIOException naming the file if it cannot be sized
     */
    static Blob ofFile(Path file) {
        requireNonNull(file, "file is null");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return new FileBlob(file, channel.size());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Checks that {@code [offset, offset + length)} lies within a blob of {@code size} bytes.
     *
     * @throws IndexOutOfBoundsException naming the range and the size
     */
    static void checkRange(long offset, long length, long size, Object blob) {
        if (offset < 0 || length < 0 || offset > size - length) {
            throw new IndexOutOfBoundsException("Range [" + offset + ", " + (offset + length) + ") is outside "
                    + blob + " of " + size + " bytes");
        }
    }
}
