package io.layoutbench.api.dataset;

import io.layoutbench.api.internal.SlicedIo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A blob over a local file, opened for each read so that a source of many files holds no descriptor open. */
record FileBlob(Path file, long size) implements Blob {

    @Override
    public ByteBuffer read(long offset, int length) {
        Blob.checkRange(offset, length, size, this);
        ByteBuffer buffer = ByteBuffer.allocate(length);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            if (channel.size() != size) {
                throw new IllegalStateException(file + " changed size from " + size + " to " + channel.size()
                        + " bytes while it was being read");
            }
            while (buffer.hasRemaining()) {
                // Sliced: a heap buffer handed to the channel whole would cache a direct buffer of its size.
                if (SlicedIo.read(channel, buffer, offset + buffer.position()) < 0) {
                    throw new IllegalStateException(file + " ended at " + (offset + buffer.position())
                            + " bytes, before the " + size + " it had");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read [" + offset + ", " + (offset + length) + ") of " + file
                    + ": " + e.getMessage(), e);
        }
        return buffer.flip().asReadOnlyBuffer();
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
