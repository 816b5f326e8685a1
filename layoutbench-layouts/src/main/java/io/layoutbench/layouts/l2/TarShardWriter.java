package io.layoutbench.layouts.l2;

import static java.util.Objects.requireNonNull;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Writes one tar shard to a local file with Commons Compress, recording where each member's data starts so it
 * can be read back with one ranged GET. Members are POSIX ustar, with PAX headers for names longer than 100 bytes
 * (GNU tar and WebDataset read both). The data offset is the count of bytes written before the member's data,
 * exact because the archive stream writes whole 512-byte records as soon as they are complete.
 *
 * <pre>{@code
 * try (TarShardWriter shard = new TarShardWriter(tmp)) {
 *     long offset = shard.add("n01440764_10026.jpeg", bytes);
 *     shard.finish();
 * }
 * }</pre>
 */
final class TarShardWriter implements Closeable {

    /** Tar's record size: headers and data are padded to it. */
    static final int RECORD = 512;
    private static final Instant MTIME = Instant.parse("2026-01-01T00:00:00Z");

    private final Path file;
    private final CountingOutputStream counted;
    private final TarArchiveOutputStream tar;
    private int members;
    private boolean finished;

    TarShardWriter(Path file) {
        this.file = requireNonNull(file, "file is null");
        try {
            this.counted = new CountingOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create tar shard " + file, e);
        }
        this.tar = new TarArchiveOutputStream(counted, "UTF-8");
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
    }

    /**
     * Appends a member and returns the offset of its data within the shard.
     *
     * @param name member name (WebDataset style: {@code <key>.<extension>})
     * @param data member bytes (remaining bytes of the buffer; its position is unchanged)
     */
    long add(String name, ByteBuffer data) {
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(data.remaining());
        entry.setModTime(java.nio.file.attribute.FileTime.from(MTIME));
        entry.setMode(0644);
        try {
            tar.putArchiveEntry(entry);
            long offset = counted.count();
            Channels.newChannel(tar).write(data.duplicate());
            tar.closeArchiveEntry();
            members++;
            return offset;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot append member " + name + " to tar shard " + file, e);
        }
    }

    /** Bytes the shard would have if finished now (written so far plus the two end-of-archive records). */
    long projectedSize() {
        return counted.count() + 2L * RECORD;
    }

    /** Bytes a member of {@code dataBytes} bytes adds: its header (and PAX header for a long name) and padded data. */
    static long memberFootprint(String name, long dataBytes) {
        long header = RECORD + (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 100 ? 3L * RECORD : 0);
        return header + (dataBytes + RECORD - 1) / RECORD * RECORD;
    }

    int members() {
        return members;
    }

    /** Writes the end-of-archive records and closes the file. */
    void finish() {
        try {
            tar.finish();
            tar.close();
            finished = true;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot finish tar shard " + file, e);
        }
    }

    @Override
    public void close() {
        if (!finished) {
            try {
                tar.close();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot close tar shard " + file, e);
            }
        }
    }

    private static final class CountingOutputStream extends FilterOutputStream {
        private long count;

        CountingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }

        long count() {
            return count;
        }
    }
}
