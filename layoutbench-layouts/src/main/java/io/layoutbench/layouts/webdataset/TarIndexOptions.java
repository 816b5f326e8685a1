package io.layoutbench.layouts.webdataset;

import static java.util.Objects.requireNonNull;

/**
 * How {@link TarIndexer} reads a shard's headers, and what it does with members that are not regular files.
 *
 * <p><b>Read policy.</b> Headers come in 512-byte blocks between the members' data. Where members are small, reading
 * through their data is cheaper than a request per header; where they are large, seeking past their data saves
 * the bytes. So the indexer reads forward in growing windows: the first read is {@code headerReadBytes}; a read that
 * follows a skip of at most {@code readThroughBytes} (small members were passed) is twice the previous one, up to
 * {@code maxReadBytes}; a read after a longer skip (a member larger than {@code readThroughBytes} was passed) is
 * {@code headerReadBytes} again, since the next member is likely large too. Measured on the mem backend with the
 * defaults: 100 members of 1 MB cost 101 reads of at most 4 KiB (0.41% of the shard); 1,000 members of 10 KB
 * (10.7 MB), 18 reads.
 *
 * <p><b>Members that are not regular files.</b> Directories are always skipped. Symbolic and hard links, devices,
 * FIFOs, sparse files and unknown types are refused by default ({@link SpecialMembers#REFUSE}): indexing fails
 * naming the shard, the member and its offset, since a sample must be one contiguous run of bytes. With
 * {@link SpecialMembers#SKIP} they are listed in {@link TarIndex#skipped()} instead.
 *
 * <pre>{@code
 * TarIndexOptions options = TarIndexOptions.defaults()
 *         .withMaxReadBytes(256 << 10)
 *         .withSpecialMembers(TarIndexOptions.SpecialMembers.SKIP);
 * }</pre>
 *
 * @param headerReadBytes  bytes read at the start and after seeking past a large member: at least 512; the default
 *                         {@value #DEFAULT_HEADER_READ_BYTES} also holds a PAX or GNU long-name header and a small
 *                         member or two after it
 * @param maxReadBytes     the largest read, at least {@code headerReadBytes}
 * @param readThroughBytes member data of at most this many bytes is read through rather than seeked past, at least
 *                         0; on a network, about first-byte latency x bandwidth
 *                         ({@link io.layoutbench.api.layout.RangeCoalescer#breakEvenGap})
 * @param specialMembers   what to do with links, devices, FIFOs and sparse files
 */
public record TarIndexOptions(int headerReadBytes, int maxReadBytes, long readThroughBytes,
        SpecialMembers specialMembers) {

    /**
     * What to do with members that are neither regular files nor directories.
     *
     * <pre>{@code
     * new TarIndexer(backend, TarIndexOptions.defaults().withSpecialMembers(SpecialMembers.SKIP)).index(key);
     * }</pre>
     */
    public enum SpecialMembers {
        /** Fail, naming the shard, the member and its offset (the default). */
        REFUSE,
        /** Leave them out of the samples; {@link TarIndex#skipped()} lists them. */
        SKIP
    }

    public static final int DEFAULT_HEADER_READ_BYTES = 4 << 10;
    public static final int DEFAULT_MAX_READ_BYTES = 1 << 20;
    public static final long DEFAULT_READ_THROUGH_BYTES = 64 << 10;

    private static final TarIndexOptions DEFAULTS = new TarIndexOptions(DEFAULT_HEADER_READ_BYTES,
            DEFAULT_MAX_READ_BYTES, DEFAULT_READ_THROUGH_BYTES, SpecialMembers.REFUSE);

    public TarIndexOptions {
        requireNonNull(specialMembers, "specialMembers is null");
        if (headerReadBytes < 512) {
            throw new IllegalArgumentException("headerReadBytes must be at least one 512-byte block, got "
                    + headerReadBytes);
        }
        if (maxReadBytes < headerReadBytes) {
            throw new IllegalArgumentException("maxReadBytes (" + maxReadBytes
                    + ") must be at least headerReadBytes (" + headerReadBytes + ")");
        }
        if (readThroughBytes < 0) {
            throw new IllegalArgumentException("readThroughBytes must be >= 0, got " + readThroughBytes);
        }
    }

    /** 4 KiB header reads, windows up to 1 MiB, read through members up to 64 KiB, refuse special members. */
    public static TarIndexOptions defaults() {
        return DEFAULTS;
    }

    /** These options with the first read, and each read after a long skip, of {@code bytes}. */
    public TarIndexOptions withHeaderReadBytes(int bytes) {
        return new TarIndexOptions(bytes, maxReadBytes, readThroughBytes, specialMembers);
    }

    /** These options with reads of at most {@code bytes}. */
    public TarIndexOptions withMaxReadBytes(int bytes) {
        return new TarIndexOptions(headerReadBytes, bytes, readThroughBytes, specialMembers);
    }

    /** These options reading through member data of at most {@code bytes}. */
    public TarIndexOptions withReadThroughBytes(long bytes) {
        return new TarIndexOptions(headerReadBytes, maxReadBytes, bytes, specialMembers);
    }

    /** These options with {@code policy} for links, devices, FIFOs and sparse files. */
    public TarIndexOptions withSpecialMembers(SpecialMembers policy) {
        return new TarIndexOptions(headerReadBytes, maxReadBytes, readThroughBytes, policy);
    }
}
