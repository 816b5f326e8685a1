package io.layoutbench.layouts.retrieval;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

/**
 * Where one payload field of one sample lies: bytes {@code [offset, offset + size)} of object {@code key}, with
 * their CRC32C.
 *
 * <pre>{@code
 * FieldRead jpg = new FieldRead("jpg", "wds/shard-000003.tar", 1536, 113_042, crc);
 * }</pre>
 *
 * @param field   the payload field's name
 * @param key     the object holding the bytes
 * @param offset  where they start in it
 * @param size    how many there are
 * @param crc32c  their CRC32C
 */
public record FieldRead(String field, String key, long offset, long size, int crc32c) {

    public FieldRead {
        requireNonNull(field, "field is null");
        requireNonNull(key, "key is null");
        if (offset < 0 || size < 0) {
            throw new IllegalArgumentException("Field " + field + " of " + key + " has offset " + offset + " and size "
                    + size + "; both must be >= 0");
        }
    }

    /** The byte range of the field in its object. */
    public ByteRange range() {
        return ByteRange.of(offset, size);
    }
}
