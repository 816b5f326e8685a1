package io.layoutbench.layouts.webdataset;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

/**
 * Where one payload field of a sample lies: a member's data in a tar shard, readable with one ranged GET.
 *
 * <pre>{@code
 * FieldLocation jpg = sample.fields().get("jpg");
 * ByteBuffer bytes = backend.readRange(jpg.shardKey(), jpg.range());
 * }</pre>
 *
 * @param shardKey the shard's object key
 * @param member   the member's name in the shard, e.g. {@code a/b/0001.seg.png} (for error messages)
 * @param offset   the offset of the member's data in the shard
 * @param size     the member's data size in bytes
 */
public record FieldLocation(String shardKey, String member, long offset, long size) {

    public FieldLocation {
        requireNonNull(shardKey, "shardKey is null");
        requireNonNull(member, "member is null");
        if (offset < 0 || size < 0) {
            throw new IllegalArgumentException("Member '" + member + "' of shard " + shardKey
                    + " needs offset and size >= 0, got " + offset + " and " + size);
        }
    }

    /** The field's bytes: {@code [offset, offset + size)} of the shard. */
    public ByteRange range() {
        return ByteRange.of(offset, size);
    }
}
