package io.layoutbench.layouts.webdataset;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

/**
 * One member of a tar shard, as {@link TarIndexer} found it: its name (after GNU long-name, PAX and ustar-prefix
 * headers are applied), its type, where its headers start, and where its data lies.
 *
 * <p>{@code headerOffset} is the first of the member's 512-byte header blocks, a PAX or GNU long-name header
 * included; {@code dataOffset} is its first data byte. Its data is the range {@link #data()}, readable with one
 * ranged GET.
 *
 * <pre>{@code
 * TarMember jpg = index.members().get(0);
 * ByteBuffer bytes = backend.readRange(index.shardKey(), jpg.data());
 * }</pre>
 *
 * @param name         the member's path in the archive, e.g. {@code a/b/0001.seg.png}
 * @param type         what the member is
 * @param headerOffset offset of its first header block, a multiple of 512
 * @param dataOffset   offset of its first data byte, after its headers
 * @param size         bytes of data stored in the shard
 */
public record TarMember(String name, Type type, long headerOffset, long dataOffset, long size) {

    /**
     * The kinds of tar member; only {@link #REGULAR} members hold sample bytes.
     *
     * <pre>{@code
     * index.skipped().stream().filter(m -> m.type() == TarMember.Type.SYMLINK).forEach(System.out::println);
     * }</pre>
     */
    public enum Type {
        /** A regular file, its bytes stored contiguously. */
        REGULAR,
        DIRECTORY,
        SYMLINK,
        HARD_LINK,
        CHARACTER_DEVICE,
        BLOCK_DEVICE,
        FIFO,
        /** A sparse file (GNU or PAX sparse): its stored bytes are not the file's bytes. */
        SPARSE,
        /** Any other type flag (GNU volume headers, multi-volume continuations, vendor types). */
        OTHER
    }

    public TarMember {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        if (headerOffset < 0 || headerOffset % 512 != 0) {
            throw new IllegalArgumentException("Header offset of member '" + name
                    + "' must be a non-negative multiple of 512, got " + headerOffset);
        }
        if (dataOffset < headerOffset + 512) {
            throw new IllegalArgumentException("Data of member '" + name + "' at " + dataOffset
                    + " must follow at least one header block from " + headerOffset);
        }
        if (size < 0) {
            throw new IllegalArgumentException("Size of member '" + name + "' must be >= 0, got " + size);
        }
    }

    /** The member's data: {@code [dataOffset, dataOffset + size)}. */
    public ByteRange data() {
        return ByteRange.of(dataOffset, size);
    }

    /** The offset of the next member's first header: its data end rounded up to whole 512-byte blocks. */
    public long end() {
        return dataOffset + (size + 511) / 512 * 512;
    }
}
