package io.layoutbench.layouts.l2;

import static java.util.Objects.requireNonNull;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import io.layoutbench.api.dataset.Blob;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.zip.CRC32C;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Writes one tar shard to a local file with Commons Compress, recording where each member's data starts so it
 * can be read back with one ranged GET, and the CRC32C of the whole shard as it is written, for the manifest.
 * Members are POSIX ustar, with PAX headers for names longer than 100 bytes
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
        this.tar = newStream(counted);
    }

    /** The tar stream every shard is written with: UTF-8 names, PAX headers for long names and big numbers. */
    static TarArchiveOutputStream newStream(OutputStream out) {
        TarArchiveOutputStream tar = new TarArchiveOutputStream(out, "UTF-8");
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        return tar;
    }

    /** The header of member {@code name} of {@code size} bytes. */
    static TarArchiveEntry entry(String name, long size) {
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(size);
        entry.setModTime(java.nio.file.attribute.FileTime.from(MTIME));
        entry.setMode(0644);
        return entry;
    }

    /**
     * Appends a member and returns the offset of its data within the shard.
     *
     * @param name member name (WebDataset style: {@code <key>.<extension>})
     * @param data member bytes, streamed {@link io.layoutbench.api.dataset.Blob#STREAM_CHUNK_BYTES} at a time when
     *             not in memory
     */
    long add(String name, Blob data) {
        TarArchiveEntry entry = entry(name, data.size());
        try {
            tar.putArchiveEntry(entry);
            long offset = counted.count();
            if (data.inMemory()) {
                Channels.newChannel(tar).write(data.readAll());
            } else {
                try (java.io.InputStream in = data.openStream()) {
                    in.transferTo(tar);
                }
            }
            tar.closeArchiveEntry();
            members++;
            return offset;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot append member " + name + " to tar shard " + file, e);
        }
    }

    int members() {
        return members;
    }

    /** The CRC32C of every byte written so far; once {@link #finish finished}, of the whole shard. */
    int crc32c() {
        return counted.crc32c();
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

    /** Counts and checksums (CRC32C) the bytes written through it. */
    private static final class CountingOutputStream extends FilterOutputStream {
        private final CRC32C crc = new CRC32C();
        private long count;

        CountingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            crc.update(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            crc.update(b, off, len);
            count += len;
        }

        long count() {
            return count;
        }

        int crc32c() {
            return (int) crc.getValue();
        }
    }
}
