package io.layoutbench.datasets.media;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Positional reads of a few bytes of a file. */
final class FileBytes {

    private FileBytes() {
    }

    /**
     * Up to {@code length} bytes from {@code position}, fewer if the file ends first, as a buffer from 0 to the
     * bytes read.
     */
    static ByteBuffer readAt(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining() && channel.read(buffer, position + buffer.position()) >= 0) {
            // FileChannel may return fewer bytes than asked; read until full or at the end of the file
        }
        return buffer.flip();
    }
}
