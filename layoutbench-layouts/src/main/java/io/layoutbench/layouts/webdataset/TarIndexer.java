package io.layoutbench.layouts.webdataset;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.layouts.common.RecordingBackend;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.archivers.tar.TarFile;
import org.apache.commons.compress.archivers.zip.ZipEncodingHelper;

/**
 * Lists the members of a tar shard that already lies in an object store, without rewriting or downloading it: only
 * the 512-byte header blocks between the members' data are read, by ranged reads (see {@link TarIndexOptions} for
 * how much is read at once and when member data is read through or seeked past).
 *
 * <p>Any tar that GNU tar, Python's {@code tarfile} (WebDataset's writer) or Commons Compress writes is read: ustar
 * names with their prefix, GNU long names and link names ({@code ././@LongLink}), PAX extended headers (long names,
 * sizes past 8 GiB, global headers), the end-of-archive zero blocks (a lone one is accepted, as GNU tar does). The
 * headers are parsed by Commons Compress's {@code TarFile} over a channel that seeks instead of reading (its
 * {@code TarArchiveInputStream} reads the data it skips). A shard that ends early, a header whose checksum does not
 * match and a member that is not a regular file (unless skipped) fail with a {@link ShardFormatException} naming
 * the shard, the member and the offset.
 *
 * <p>Thread-safe: each call reads on its own; index many shards at once from several threads.
 *
 * <pre>{@code
 * TarIndexer indexer = new TarIndexer(backend);
 * TarIndex index = indexer.index("train/shard-000000.tar");
 * for (TarMember member : index.members()) {
 *     System.out.println(member.name() + " " + member.data());   // e.g. "0001.jpg [1536, 110536)"
 * }
 * }</pre>
 */
public final class TarIndexer {

    /** Member names are UTF-8, as WebDataset's Python writer and GNU tar in a UTF-8 locale write them. */
    private static final String NAME_ENCODING = "UTF-8";

    private final ObjectBackend backend;
    private final TarIndexOptions options;

    /** An indexer with {@link TarIndexOptions#defaults()}. */
    public TarIndexer(ObjectBackend backend) {
        this(backend, TarIndexOptions.defaults());
    }

    public TarIndexer(ObjectBackend backend, TarIndexOptions options) {
        this.backend = requireNonNull(backend, "backend is null");
        this.options = requireNonNull(options, "options is null");
    }

    public TarIndexOptions options() {
        return options;
    }

    /**
     * Indexes the shard {@code shardKey}, asking its size first (one HEAD).
     *
     * @throws ShardFormatException if the shard is truncated or malformed, or holds a refused member
     * @throws io.layoutbench.api.backend.StorageException if a read fails
     */
    public TarIndex index(String shardKey) {
        return index(shardKey, -1);
    }

    /**
     * Indexes the shard {@code shardKey} whose size is known, from a listing for example: no HEAD is sent.
     *
     * @param shardSize the object's size in bytes, or -1 to ask the backend
     * @throws ShardFormatException if the shard is truncated or malformed, or holds a refused member
     * @throws io.layoutbench.api.backend.StorageException if a read fails
     */
    public TarIndex index(String shardKey, long shardSize) {
        ObjectKeys.check(shardKey);
        if (shardSize < -1) {
            throw new IllegalArgumentException("Size of shard " + shardKey + " must be >= 0 (or -1: ask), got "
                    + shardSize);
        }
        RecordingBackend recorder = new RecordingBackend(backend);
        long size = shardSize >= 0 ? shardSize : recorder.size(shardKey);
        RangedReadChannel channel = new RangedReadChannel(recorder, shardKey, size, options);
        List<TarMember> members = new ArrayList<>();
        List<TarMember> skipped = new ArrayList<>();
        // Not closed: closing a TarFile closes the channel, which holds no resources and which the error path reads.
        try {
            TarFile tar = new TarFile(channel, TarConstants.DEFAULT_BLKSIZE, TarConstants.DEFAULT_RCDSIZE,
                    NAME_ENCODING, true);
            long next = 0;
            for (TarArchiveEntry entry : tar.getEntries()) {
                TarMember member = member(shardKey, entry, next);
                if (member.type() == TarMember.Type.REGULAR) {
                    members.add(member);
                } else if (member.type() == TarMember.Type.DIRECTORY
                        || options.specialMembers() == TarIndexOptions.SpecialMembers.SKIP) {
                    skipped.add(member);
                } else {
                    throw new ShardFormatException(shardKey, member.name(), member.headerOffset(), "is a "
                            + describe(member.type(), entry) + ", not a regular file: only regular files can be "
                            + "samples (TarIndexOptions.SpecialMembers.SKIP skips such members)");
                }
                next = member.end();
            }
            checkEndOfArchive(shardKey, size, channel, next);
        } catch (IOException | IllegalArgumentException e) {
            // TarFile's failures say what but not where; the channel knows which header it was reading.
            throw unreadable(shardKey, size, channel, e);
        }
        return new TarIndex(shardKey, size, members, skipped, recorder.recorded());
    }

    private static TarMember member(String shardKey, TarArchiveEntry entry, long headerOffset) {
        long dataOffset = entry.getDataOffset();
        if (!entry.isCheckSumOK()) {
            throw new ShardFormatException(shardKey, entry.getName(), dataOffset - TarConstants.DEFAULT_RCDSIZE,
                    "the header's checksum does not match its bytes: the header is corrupt");
        }
        return new TarMember(entry.getName(), typeOf(entry), headerOffset, dataOffset, entry.getSize());
    }

    /**
     * {@code TarFile} stops quietly where a header is cut short, or where a long-name header has no member after
     * it; the block where it stopped must be the first end-of-archive block.
     */
    private static void checkEndOfArchive(String shardKey, long size, RangedReadChannel channel, long end)
            throws IOException {
        int record = TarConstants.DEFAULT_RCDSIZE;
        ByteBuffer block = channel.readAt(end, record);
        if (block.remaining() < record) {
            throw new ShardFormatException(shardKey, null, size, block.remaining() == 0
                    ? "truncated: the shard ends after the data of its last member, with no end-of-archive "
                    + "blocks at offset " + end
                    : "truncated: the shard ends " + block.remaining() + " bytes into the header block at offset "
                    + end);
        }
        while (block.hasRemaining()) {
            if (block.get() != 0) {
                throw new ShardFormatException(shardKey, null, end, "this header block is neither a member nor "
                        + "the end of the archive (a long-name or PAX header with no member after it)");
            }
        }
    }

    private static ShardFormatException unreadable(String shardKey, long size, RangedReadChannel channel,
            Exception e) {
        String reason = e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")");
        long header = channel.lastRecordOffset();
        if (channel.wentPastEnd() || declaresDataPastEnd(channel, header, size)) {
            return new ShardFormatException(shardKey, null, size, "truncated: the member whose header is at offset "
                    + header + " runs past the end of the shard (" + size + " bytes): " + reason, e);
        }
        return new ShardFormatException(shardKey, null, header, "cannot parse the tar header here: " + reason, e);
    }

    /** Whether the header block at {@code header} (a PAX or long-name header, say) has data past {@code size}. */
    private static boolean declaresDataPastEnd(RangedReadChannel channel, long header, long size) {
        try {
            ByteBuffer block = channel.readAt(header, TarConstants.DEFAULT_RCDSIZE);
            if (block.remaining() < TarConstants.DEFAULT_RCDSIZE) {
                return true;
            }
            long dataSize = new TarArchiveEntry(block.array(), ZipEncodingHelper.getZipEncoding(NAME_ENCODING), true)
                    .getSize();
            return header + TarConstants.DEFAULT_RCDSIZE + dataSize > size;
        } catch (IOException | IllegalArgumentException unparsable) {
            return false;
        }
    }

    private static TarMember.Type typeOf(TarArchiveEntry entry) {
        if (entry.isDirectory()) {
            return TarMember.Type.DIRECTORY;
        }
        if (entry.isSparse()) {
            return TarMember.Type.SPARSE;
        }
        return switch (entry.getLinkFlag()) {
            case TarConstants.LF_NORMAL, TarConstants.LF_OLDNORM, TarConstants.LF_CONTIG -> TarMember.Type.REGULAR;
            case TarConstants.LF_LINK -> TarMember.Type.HARD_LINK;
            case TarConstants.LF_SYMLINK -> TarMember.Type.SYMLINK;
            case TarConstants.LF_CHR -> TarMember.Type.CHARACTER_DEVICE;
            case TarConstants.LF_BLK -> TarMember.Type.BLOCK_DEVICE;
            case TarConstants.LF_FIFO -> TarMember.Type.FIFO;
            default -> TarMember.Type.OTHER;
        };
    }

    private static String describe(TarMember.Type type, TarArchiveEntry entry) {
        return switch (type) {
            case SYMLINK -> "symbolic link to '" + entry.getLinkName() + "'";
            case HARD_LINK -> "hard link to '" + entry.getLinkName() + "'";
            case CHARACTER_DEVICE -> "character device";
            case BLOCK_DEVICE -> "block device";
            case FIFO -> "FIFO";
            case SPARSE -> "sparse file";
            default -> "member of type flag '" + (char) entry.getLinkFlag() + "'";
        };
    }
}
