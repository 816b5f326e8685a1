package io.layoutbench.layouts.webdataset;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.PayloadFields;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One sample of a tar shard: its key and where each of its payload fields lies, in the order of the members.
 *
 * <pre>{@code
 * // members a/b/0001.jpg and a/b/0001.seg.png of shard-000000.tar
 * ShardSample sample = samples.get(0);
 * sample.key();                              // "a/b/0001"
 * sample.fields().keySet();                  // [jpg, seg.png]
 * sample.fields().get("seg.png").range();    // the member's data
 * }</pre>
 *
 * @param key    the WebDataset key (the member path up to the first '.' of its base name), or the member's path in
 *               plain-tar mode
 * @param fields payload field name ({@link PayloadFields} rule) to location, in member order; at least one
 */
public record ShardSample(String key, Map<String, FieldLocation> fields) {

    public ShardSample {
        requireNonNull(key, "key is null");
        requireNonNull(fields, "fields is null");
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("Sample '" + key + "' has no fields");
        }
        fields.forEach((name, location) -> {
            PayloadFields.check(name);
            requireNonNull(location, "location of field " + name + " is null");
        });
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** The field {@code name}'s location. */
    public FieldLocation field(String name) {
        FieldLocation location = fields.get(name);
        if (location == null) {
            throw new IllegalArgumentException("Sample '" + key + "' has no field '" + name + "'; it has "
                    + fields.keySet());
        }
        return location;
    }
}
