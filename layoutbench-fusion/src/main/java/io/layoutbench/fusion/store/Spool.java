package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.internal.SlicedIo;
import io.layoutbench.fusion.coding.ObjectSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Bytes held while an object is encoded: in memory up to a limit, else in a temporary file that {@link #close()}
 * deletes. Random reads and writes; reads may run concurrently once writing is done.
 */
final class Spool implements AutoCloseable {

    private final byte[] memory;
    private final Path file;
    private final FileChannel channel;
    private final long size;

    private Spool(byte[] memory, Path file, FileChannel channel, long size) {
        this.memory = memory;
        this.file = file;
        this.channel = channel;
        this.size = size;
    }

    /** An empty spool of {@code size} bytes (zeros), in memory when {@code size <= memoryLimit}. */
    static Spool allocate(long size, long memoryLimit, Path tempDirectory) {
        if (size <= memoryLimit && size <= Integer.MAX_VALUE - 8) {
            return new Spool(new byte[(int) size], null, null, size);
        }
        try {
            Files.createDirectories(tempDirectory);
            Path file = Files.createTempFile(tempDirectory, "fac-", ".spool");
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            return new Spool(null, file, channel, size);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary file in " + tempDirectory + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Reads exactly {@code length} bytes of {@code in}.
     *
     * @param what names the object being stored, for errors
     * @throws StorageException if the stream ends early or fails, naming {@code what} and both counts
     */
    static Spool read(InputStream in, long length, long memoryLimit, Path tempDirectory, String what) {
        Spool spool = allocate(length, memoryLimit, tempDirectory);
        long copied = 0;
        try {
            if (spool.memory != null) {
                copied = in.readNBytes(spool.memory, 0, spool.memory.length);
            } else {
                byte[] buffer = new byte[1 << 20];
                while (copied < length) {
                    int n = in.read(buffer, 0, (int) Math.min(buffer.length, length - copied));
                    if (n < 0) {
                        break;
                    }
                    spool.write(copied, buffer, 0, n);
                    copied += n;
                }
            }
        } catch (IOException | UncheckedIOException e) {
            spool.close();
            throw new StorageException("Cannot store " + what + ": reading the source failed after " + copied
                    + " of " + length + " bytes: " + e.getMessage(), e);
        }
        if (copied < length) {
            spool.close();
            throw new StorageException("Cannot store " + what + ": the stream ended after " + copied + " of the "
                    + length + " bytes promised");
        }
        return spool;
    }

    long size() {
        return size;
    }

    void write(long offset, byte[] bytes, int from, int length) {
        if (memory != null) {
            System.arraycopy(bytes, from, memory, Math.toIntExact(offset), length);
            return;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, from, length);
        long position = offset;
        try {
            while (buffer.hasRemaining()) {
                position += SlicedIo.write(channel, buffer, position);   // not whole: see SlicedIo
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The spooled bytes as a source (not closed by closing the source). */
    ObjectSource source() {
        if (memory != null) {
            return ObjectSource.of(memory);
        }
        return ObjectSource.of(channel, size, file, false);
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot delete the temporary file " + file, e);
            }
        }
    }
}
