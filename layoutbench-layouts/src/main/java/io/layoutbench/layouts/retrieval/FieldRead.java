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
 * @param crc32c  their CRC32C as an unsigned 32-bit value, or {@link #NO_CHECKSUM} where none was recorded (shards
 *                indexed in place, whose bytes were never read)
 */
public record FieldRead(String field, String key, long offset, long size, long crc32c) {

    /** {@link #crc32c} of a field whose checksum was never recorded: its bytes are returned unchecked. */
    public static final long NO_CHECKSUM = -1;

    public FieldRead {
        requireNonNull(field, "field is null");
        requireNonNull(key, "key is null");
        if (offset < 0 || size < 0) {
            throw new IllegalArgumentException("Field " + field + " of " + key + " has offset " + offset + " and size "
                    + size + "; both must be >= 0");
        }
        if (crc32c < NO_CHECKSUM || crc32c > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("Field " + field + " of " + key + " has checksum " + crc32c
                    + "; a CRC32C is an unsigned 32-bit value, or -1 for none");
        }
    }

    /** Whether a checksum was recorded for the field. */
    public boolean checksummed() {
        return crc32c != NO_CHECKSUM;
    }

    /** The byte range of the field in its object. */
    public ByteRange range() {
        return ByteRange.of(offset, size);
    }
}
