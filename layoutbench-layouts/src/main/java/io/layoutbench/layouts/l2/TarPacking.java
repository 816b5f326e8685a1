package io.layoutbench.layouts.l2;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Where L2 puts each sample: which shard, and at what offset its data starts. The writer places every member with
 * this before it writes it (and checks that the tar stream put the data there), and L2's model places the samples of
 * a dataset's metadata with the same code, so a modelled shard is byte for byte where the writer puts it.
 *
 * <p>A member takes its header (one 512-byte record; with a PAX extended header before it, for a name of 100 bytes
 * or more or a size past tar's octal limit, as Commons Compress writes them) and its data padded to a record. A
 * shard is finished when the next member would take it, with its two end-of-archive records, past the shard size;
 * a shard holds at least one member.
 *
 * <pre>{@code
 * TarPacking packing = new TarPacking(64L << 20);
 * long offset = packing.place("n01440764_10026.JPEG", 113_042);   // 512: the data follows the header
 * int shard = packing.shard();                                   // 0
 * }</pre>
 *
 * <p>Not thread-safe.
 */
final class TarPacking {

    /** Tar's record: headers and data are padded to it. */
    static final int RECORD = 512;
    /** Name length from which Commons Compress writes a PAX header ({@code TarConstants.NAMELEN}). */
    private static final int NAME_FIELD = 100;
    /** Largest size the header's octal field holds; past it the size goes into a PAX header. */
    private static final long OCTAL_SIZE_LIMIT = 077777777777L;

    private final long shardSize;
    private int shard = -1;
    private long written;
    private int members;

    TarPacking(long shardSize) {
        this.shardSize = shardSize;
    }

    /**
     * Places the next member, {@code name} with {@code size} bytes of data, and returns where its data starts in
     * its shard ({@link #shard()} afterwards).
     */
    long place(String name, long size) {
        return place(new String[] {name}, new long[] {size})[0];
    }

    /**
     * Places the members of one sample ({@code names[i]} with {@code sizes[i]} bytes), all in one shard: a new
     * shard when they would take the current one past the shard size. Returns where each one's data starts.
     */
    long[] place(String[] names, long[] sizes) {
        long[] headers = new long[names.length];
        long footprint = 0;
        for (int i = 0; i < names.length; i++) {
            headers[i] = headerBytes(names[i], sizes[i]);
            footprint += headers[i] + padded(sizes[i]);
        }
        if (shard >= 0 && members > 0 && written + 2L * RECORD + footprint > shardSize) {
            shard++;
            written = 0;
            members = 0;
        } else if (shard < 0) {
            shard = 0;
        }
        long[] offsets = new long[names.length];
        for (int i = 0; i < names.length; i++) {
            offsets[i] = written + headers[i];
            written += headers[i] + padded(sizes[i]);
        }
        members += names.length;
        return offsets;
    }

    /** The shard of the member placed last: 0, 1, 2 ... */
    int shard() {
        return shard;
    }

    /**
     * Bytes of a shard whose members take {@code memberBytes}: they and the two end-of-archive records (Commons
     * Compress writes no block padding after them).
     */
    static long shardBytes(long memberBytes) {
        return memberBytes + 2L * RECORD;
    }

    /** Bytes the members placed in the current shard take so far. */
    long written() {
        return written;
    }

    /**
     * Bytes before a member's data: its header record, and the PAX header Commons Compress writes before it for a
     * long name or a large size (measured by letting Commons Compress write the headers, so it is exact).
     */
    static long headerBytes(String name, long size) {
        if (name.getBytes(StandardCharsets.UTF_8).length < NAME_FIELD && size <= OCTAL_SIZE_LIMIT) {
            return RECORD;
        }
        CountingSink sink = new CountingSink();
        // Not closed: closing checks for the entry left open on purpose; the stream holds nothing but the sink.
        TarArchiveOutputStream tar = TarShardWriter.newStream(sink);
        try {
            tar.putArchiveEntry(TarShardWriter.entry(name, size));
            return sink.count;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot size the tar header of member " + name, e);
        }
    }

    private static long padded(long size) {
        return (size + RECORD - 1) / RECORD * RECORD;
    }

    /** Counts bytes and drops them. */
    private static final class CountingSink extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
