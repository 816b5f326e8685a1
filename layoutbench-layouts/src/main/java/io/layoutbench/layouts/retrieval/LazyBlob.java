package io.layoutbench.layouts.retrieval;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.layouts.common.SampleChecksum;
import io.layoutbench.api.backend.CorruptDataException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

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

    /**
     * A stream over the whole field, read {@link Blob#STREAM_CHUNK_BYTES} at a time; read to its end, it checks
     * the field's CRC32C, failing the last read with a {@link io.layoutbench.api.backend.CorruptDataException}
     * naming the field on a mismatch (a stream that skips is not checked).
     */
    @Override
    public InputStream openStream() {
        InputStream chunks = Blob.super.openStream();
        if (!location.checksummed()) {
            return chunks;
        }
        return new CheckedStream(chunks);
    }

    /** Where the field lies. */
    public FieldRead location() {
        return location;
    }

    /** Checks the field's CRC32C once every byte went through, in order. */
    private final class CheckedStream extends FilterInputStream {
        private final CRC32C crc = new CRC32C();
        private long seen;
        private boolean skipped;

        CheckedStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                crc.update(b);
                seen++;
            }
            checkAtEnd(b < 0);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                crc.update(buffer, offset, n);
                seen += n;
            }
            checkAtEnd(n < 0 || seen == location.size());
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            skipped = true;
            return in.skip(n);
        }

        private void checkAtEnd(boolean end) {
            if (end && !skipped && seen == location.size()) {
                skipped = true;   // check once
                int actual = (int) crc.getValue();
                if (actual != (int) location.crc32c()) {
                    throw new CorruptDataException(String.format("Checksum mismatch for sample '%s' field '%s' "
                            + "streamed from %s at offset %d: CRC32C is %08x, expected %08x (%d bytes)", sample,
                            location.field(), location.key(), location.offset(), actual, (int) location.crc32c(),
                            seen));
                }
            }
        }
    }

    @Override
    public String toString() {
        return "field '" + location.field() + "' of sample '" + sample + "' (bytes [" + location.offset() + ", "
                + (location.offset() + location.size()) + ") of " + location.key() + ")";
    }
}
