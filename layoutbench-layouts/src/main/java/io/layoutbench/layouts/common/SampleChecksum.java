package io.layoutbench.layouts.common;

import io.layoutbench.api.backend.CorruptDataException;

import io.layoutbench.api.dataset.Blob;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32C of sample bytes, stored beside every sample's location and checked on every read, so a corrupted or
 * misplaced read never returns wrong bytes silently.
 *
 * <pre>{@code
 * int crc = SampleChecksum.of(sample.data());
 * SampleChecksum.verify(bytes, crc, "n01440764_10026.JPEG", "l2/shard-000001.tar");
 * }</pre>
 */
public final class SampleChecksum {

    private SampleChecksum() {
    }

    /** The CRC32C of the buffer's remaining bytes; the buffer's position is unchanged. */
    public static int of(ByteBuffer data) {
        CRC32C crc = new CRC32C();
        crc.update(data.duplicate());
        return (int) crc.getValue();
    }

    /** The CRC32C of a blob, read {@link Blob#STREAM_CHUNK_BYTES} at a time when it is not in memory. */
    public static int of(Blob blob) {
        if (blob.inMemory()) {
            return of(blob.readAll());
        }
        CRC32C crc = new CRC32C();
        for (long offset = 0; offset < blob.size(); offset += Blob.STREAM_CHUNK_BYTES) {
            crc.update(blob.read(offset, (int) Math.min(Blob.STREAM_CHUNK_BYTES, blob.size() - offset)));
        }
        return (int) crc.getValue();
    }

    /**
     * Checks that {@code data} has checksum {@code expected}.
     *
     * @throws CorruptDataException naming the sample and object when it does not
     */
    public static void verify(ByteBuffer data, int expected, String sampleName, String objectKey) {
        int actual = of(data);
        if (actual != expected) {
            throw new CorruptDataException(String.format(
                    "Checksum mismatch for sample '%s' read from %s: CRC32C is %08x, expected %08x (%d bytes)",
                    sampleName, objectKey, actual, expected, data.remaining()));
        }
    }
}
