package io.layoutbench.layouts.webdataset;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.CorruptDataException;

import java.util.Optional;

/**
 * A tar shard cannot be indexed, grouped or read as asked: it is truncated or malformed, holds a member that cannot
 * be a sample (a symbolic link, a device), breaks WebDataset's grouping rule, or a metadata member is not valid
 * JSON. The message is one line naming the shard, the member when there is one, and the byte offset at fault.
 *
 * <pre>{@code
 * try {
 *     TarIndex index = new TarIndexer(backend).index("train/shard-000003.tar");
 * } catch (ShardFormatException e) {
 *     // "Tar shard 'train/shard-000003.tar', offset 1048576: truncated: ..."
 *     quarantine(e.shardKey(), e.offset());
 * }
 * }</pre>
 */
public class ShardFormatException extends CorruptDataException {
    private static final long serialVersionUID = 1L;

    private final String shardKey;
    private final String member;
    private final long offset;

    /**
     * @param shardKey the shard's object key
     * @param member   the member at fault, or null when the fault is not in one member
     * @param offset   the byte offset at fault within the shard
     * @param problem  what is wrong, without the shard, member or offset (they are added)
     */
    public ShardFormatException(String shardKey, String member, long offset, String problem) {
        this(shardKey, member, offset, problem, null);
    }

    public ShardFormatException(String shardKey, String member, long offset, String problem, Throwable cause) {
        super(message(shardKey, member, offset, problem), cause);
        this.shardKey = shardKey;
        this.member = member;
        this.offset = offset;
    }

    private static String message(String shardKey, String member, long offset, String problem) {
        requireNonNull(shardKey, "shardKey is null");
        requireNonNull(problem, "problem is null");
        return "Tar shard '" + shardKey + "'" + (member == null ? "" : ", member '" + member + "'")
                + ", offset " + offset + ": " + problem;
    }

    /** The shard's object key. */
    public String shardKey() {
        return shardKey;
    }

    /** The member at fault, if the fault lies in one. */
    public Optional<String> member() {
        return Optional.ofNullable(member);
    }

    /** The byte offset at fault within the shard. */
    public long offset() {
        return offset;
    }
}
