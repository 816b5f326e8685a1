package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A dataset sample: its metadata and its payload fields, each a named {@link Blob}. Most datasets have one field,
 * {@value #DATA} (an encoded image); WebDataset-style samples have several ({@code jpg}, {@code json},
 * {@code cls}), named as their schema's {@link MetadataSchema#payloadFields()}. A sample returned by a query holds
 * the fields the query asked for ({@link io.layoutbench.api.layout.QueryOptions#fields()}).
 *
 * <p>In-memory fields are read-only and may be slices of a larger read (a coalesced byte range) rather than
 * copies, so keep a sample only as long as you need its bytes. A large field may come back lazily read: see
 * {@link Blob}.
 *
 * <pre>{@code
 * Sample image = new Sample(row, ByteBuffer.wrap(jpegBytes));            // one field, "data"
 * Sample speech = new Sample(row, Map.of("wav", Blob.ofFile(clip), "txt", Blob.of(transcript)));
 * ByteBuffer audio = speech.field("wav").readAll();
 * }</pre>
 *
 * @param metadata the sample's metadata row
 * @param fields   the payload fields by name, in the order given; a sample a query returns may have none (it lacks
 *                 every field the query asked for), a sample to write has at least one
 */
public record Sample(MetadataRow metadata, Map<String, Blob> fields) {

    /** Name of the payload field of a single-field dataset. */
    public static final String DATA = "data";

    public Sample {
        requireNonNull(metadata, "metadata is null");
        requireNonNull(fields, "fields is null");
        Map<String, Blob> copy = new LinkedHashMap<>();
        for (Map.Entry<String, Blob> field : fields.entrySet()) {
            PayloadFields.check(field.getKey());
            copy.put(field.getKey(), requireNonNull(field.getValue(), () -> "field " + field.getKey() + " is null"));
        }
        fields = Collections.unmodifiableMap(copy);
    }

    /** A sample with one payload field, {@value #DATA}, over {@code data} (not copied). */
    public Sample(MetadataRow metadata, ByteBuffer data) {
        this(metadata, Map.of(DATA, Blob.of(requireNonNull(data, "data is null"))));
    }

    /**
     * The field {@code name}.
     *
     * @throws IllegalArgumentException naming the fields the sample has, if it has none of that name
     */
    public Blob field(String name) {
        Blob blob = fields.get(name);
        if (blob == null) {
            throw new IllegalArgumentException("Sample " + describe() + " has no payload field '" + name
                    + "'; it has " + fields.keySet());
        }
        return blob;
    }

    /** The field {@code name}, if the sample has it. */
    public Optional<Blob> findField(String name) {
        return Optional.ofNullable(fields.get(name));
    }

    /**
     * The bytes of a sample with one field, whatever its name (read whole if lazily read).
     *
     * @throws IllegalStateException if the sample has several fields: use {@link #field(String)}
     */
    public ByteBuffer data() {
        if (fields.size() != 1) {
            throw new IllegalStateException("Sample " + describe() + " has " + fields.size()
                    + " payload fields " + fields.keySet() + "; read one with field(name)");
        }
        return fields.values().iterator().next().readAll();
    }

    /** The value of the {@value MetadataSchema#FILENAME} column. */
    public String filename() {
        return metadata.getString(MetadataSchema.FILENAME);
    }

    /** Number of payload bytes, all fields together. */
    public long size() {
        long size = 0;
        for (Blob blob : fields.values()) {
            size += blob.size();
        }
        return size;
    }

    /** A copy of the bytes of a sample with one field (see {@link #data()}). */
    public byte[] toByteArray() {
        ByteBuffer data = data();
        byte[] copy = new byte[data.remaining()];
        data.get(copy);
        return copy;
    }

    private String describe() {
        int filename = metadata.schema().indexOf(MetadataSchema.FILENAME).orElse(-1);
        Object name = filename >= 0 ? metadata.get(filename) : null;
        return name != null ? "'" + name + "'" : "with metadata " + metadata.values();
    }
}
