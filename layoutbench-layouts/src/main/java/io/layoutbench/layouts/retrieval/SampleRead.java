package io.layoutbench.layouts.retrieval;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataRow;
import java.util.List;

/**
 * One sample a read task returns: its metadata, its name for errors, and where the payload fields the query asked
 * for lie (in field order; fields the sample lacks are left out).
 *
 * <pre>{@code
 * SampleRead read = new SampleRead(row, "n01440764_10026.JPEG", List.of(new FieldRead("data", key, 0, size, crc)));
 * }</pre>
 *
 * @param metadata the sample's metadata row
 * @param name     the sample's name, for errors
 * @param fields   the fields to return
 */
public record SampleRead(MetadataRow metadata, String name, List<FieldRead> fields) {

    public SampleRead {
        requireNonNull(metadata, "metadata is null");
        requireNonNull(name, "name is null");
        fields = List.copyOf(fields);
    }

    /** Bytes of the fields together. */
    public long payloadBytes() {
        long bytes = 0;
        for (FieldRead field : fields) {
            bytes += field.size();
        }
        return bytes;
    }
}
