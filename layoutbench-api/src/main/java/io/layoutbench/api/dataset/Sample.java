package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;

/**
 * A dataset sample: its bytes (an encoded image, an audio clip) and its metadata.
 *
 * <p>The buffer is read-only and positioned at the sample's first byte; a layout may hand out a slice of a larger
 * read (for example a coalesced byte range) instead of copying, so keep a sample only as long as you need its
 * bytes.
 *
 * <pre>{@code
 * Sample sample = new Sample(row, ByteBuffer.wrap(jpegBytes));
 * String filename = sample.filename();
 * }</pre>
 *
 * @param metadata the sample's metadata row
 * @param data     the sample's bytes, exposed read-only
 */
public record Sample(MetadataRow metadata, ByteBuffer data) {

    public Sample {
        requireNonNull(metadata, "metadata is null");
        data = requireNonNull(data, "data is null").asReadOnlyBuffer();
    }

    /** The value of the {@value MetadataSchema#FILENAME} column. */
    public String filename() {
        return metadata.getString(MetadataSchema.FILENAME);
    }

    /** Number of data bytes. */
    public int size() {
        return data.remaining();
    }

    /** A copy of the data bytes. */
    public byte[] toByteArray() {
        byte[] copy = new byte[data.remaining()];
        data.duplicate().get(copy);
        return copy;
    }
}
