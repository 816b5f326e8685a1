package io.layoutbench.layouts.retrieval;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.layouts.common.SampleChecksum;
import java.nio.ByteBuffer;

/**
 * A payload field read when asked: each {@link #read} is one ranged read of exactly the bytes asked for, through
 * the backend of the query that returned it (so its requests count to that query while its stream is open). A read
 * of the whole field is checked against the field's CRC32C; a partial read cannot be and is not.
 *
 * <pre>{@code
 * Blob video = new LazyBlob(backend, new FieldRead("mp4", key, 0, size, crc), "clip-0001");
 * ByteBuffer second = video.read(1 << 20, 1 << 20);   // one GET of 1 MiB
 * }</pre>
 */
public final class LazyBlob implements Blob {

    private final ObjectBackend backend;
    private final FieldRead location;
    private final String sample;

    public LazyBlob(ObjectBackend backend, FieldRead location, String sample) {
        this.backend = requireNonNull(backend, "backend is null");
        this.location = requireNonNull(location, "location is null");
        this.sample = requireNonNull(sample, "sample is null");
    }

    @Override
    public long size() {
        return location.size();
    }

    @Override
    public ByteBuffer read(long offset, int length) {
        Blob.checkRange(offset, length, location.size(), this);
        if (length == 0) {
            return ByteBuffer.allocate(0).asReadOnlyBuffer();
        }
        ByteBuffer bytes = backend.readRange(location.key(), ByteRange.of(location.offset() + offset, length));
        if (offset == 0 && length == location.size() && location.checksummed()) {
            SampleChecksum.verify(bytes, (int) location.crc32c(), sample + "' field '" + location.field(),
                    location.key() + " at offset " + location.offset());
        }
        return bytes.asReadOnlyBuffer();
    }

    /** Where the field lies. */
    public FieldRead location() {
        return location;
    }

    @Override
    public String toString() {
        return "field '" + location.field() + "' of sample '" + sample + "' (bytes [" + location.offset() + ", "
                + (location.offset() + location.size()) + ") of " + location.key() + ")";
    }
}
