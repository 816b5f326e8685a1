package io.layoutbench.layouts.manifest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The last object a dataset writer stores: it makes the dataset visible. It names the layout, the schema, the
 * generation (the folder below the prefix that holds this ingest's objects) and every object with its size, so a
 * reader trusts nothing the manifest does not list. Stored as a Java properties file (plain text) at
 * {@code <prefix>/_manifest.properties}.
 *
 * <pre>{@code
 * DatasetManifest manifest = DatasetManifest.read(backend, "mini/l2");
 * String shard0 = manifest.objects().get(0).key();
 * }</pre>
 *
 * @param layout        layout name
 * @param formatVersion version of the layout's on-storage format
 * @param generation    folder of this ingest's objects, below the prefix
 * @param schema        metadata schema
 * @param sampleCount   samples stored
 * @param payloadBytes  sum of sample sizes
 * @param objects       every object of the dataset (keys relative to the backend root), manifest excluded
 * @param properties    layout-specific settings (shard size, row-group size ...)
 */
public record DatasetManifest(String layout, int formatVersion, String generation, MetadataSchema schema,
        long sampleCount, long payloadBytes, List<ObjectInfo> objects, Map<String, String> properties) {

    /** Name of the manifest object below a dataset's prefix. */
    public static final String FILE_NAME = "_manifest.properties";

    public DatasetManifest {
        requireNonNull(layout, "layout is null");
        requireNonNull(generation, "generation is null");
        requireNonNull(schema, "schema is null");
        objects = List.copyOf(requireNonNull(objects, "objects is null"));
        properties = Map.copyOf(requireNonNull(properties, "properties is null"));
        if (sampleCount < 0 || payloadBytes < 0) {
            throw new IllegalArgumentException("Manifest counts must be >= 0: samples=" + sampleCount
                    + ", payload=" + payloadBytes);
        }
    }

    /** Key of the manifest of the dataset at {@code prefix}. */
    public static String keyFor(String prefix) {
        return prefix.isEmpty() ? FILE_NAME : prefix + "/" + FILE_NAME;
    }

    /** Bytes stored, manifest excluded. */
    public long storedBytes() {
        return objects.stream().mapToLong(ObjectInfo::size).sum();
    }

    /** A layout setting, or {@code fallback}. */
    public String property(String name, String fallback) {
        return properties.getOrDefault(name, fallback);
    }

    /** Writes this manifest and returns its size in bytes; the dataset becomes visible when this returns. */
    public long write(ObjectBackend backend, String prefix) {
        Properties p = new Properties();
        p.setProperty("layout", layout);
        p.setProperty("format.version", Integer.toString(formatVersion));
        p.setProperty("generation", generation);
        p.setProperty("samples", Long.toString(sampleCount));
        p.setProperty("payload.bytes", Long.toString(payloadBytes));
        List<Column> columns = schema.columns();
        p.setProperty("columns", Integer.toString(columns.size()));
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            p.setProperty("column." + i, c.name() + ":" + c.type().name().toLowerCase(Locale.ROOT)
                    + (c.aliases().isEmpty() ? "" : ":" + String.join(",", c.aliases())));
        }
        p.setProperty("objects", Integer.toString(objects.size()));
        for (int i = 0; i < objects.size(); i++) {
            p.setProperty("object." + i + ".key", objects.get(i).key());
            p.setProperty("object." + i + ".size", Long.toString(objects.get(i).size()));
        }
        new TreeMap<>(properties).forEach((k, v) -> p.setProperty("property." + k, v));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            p.store(out, "layoutbench dataset manifest: written last; the dataset exists once this file does");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        backend.put(keyFor(prefix), out.toByteArray());
        return out.size();
    }

    /**
     * A manifest as read, with the size of its object (so callers need not ask the store again).
     *
     * @param manifest the manifest
     * @param size     bytes of the manifest object
     */
    public record Stored(DatasetManifest manifest, long size) {
    }

    /**
     * Reads the manifest of the dataset at {@code prefix}.
     *
     * @throws ObjectNotFoundException if there is no committed dataset at {@code prefix}
     * @throws StorageException        naming the key and the entry if the manifest is malformed
     */
    public static DatasetManifest read(ObjectBackend backend, String prefix) {
        return readStored(backend, prefix).manifest();
    }

    /** Like {@link #read}, also returning the manifest object's size, from the one read. */
    public static Stored readStored(ObjectBackend backend, String prefix) {
        String key = keyFor(prefix);
        ByteBuffer bytes;
        try {
            bytes = backend.readAll(key);
        } catch (ObjectNotFoundException e) {
            throw new ObjectNotFoundException("No committed dataset at '" + prefix + "' in " + backend.uri()
                    + ": its manifest " + key + " does not exist (an ingest that did not finish leaves none)", e);
        }
        long size = bytes.remaining();
        Properties p = new Properties();
        try (InputStream in = new java.io.ByteArrayInputStream(toArray(bytes))) {
            p.load(new java.io.InputStreamReader(in, StandardCharsets.ISO_8859_1));
        } catch (IOException | IllegalArgumentException e) {
            throw new StorageException("Manifest " + key + " is not a valid properties file: " + e.getMessage(), e);
        }
        Reader r = new Reader(p, key);
        int columnCount = r.integer("columns");
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < columnCount; i++) {
            String[] parts = r.string("column." + i).split(":", -1);
            if (parts.length < 2) {
                throw new StorageException("Manifest " + key + ": entry column." + i + " is not name:type[:aliases]");
            }
            List<String> aliases = parts.length > 2 && !parts[2].isEmpty() ? Arrays.asList(parts[2].split(","))
                    : List.of();
            try {
                columns.add(new Column(parts[0], ColumnType.valueOf(parts[1].toUpperCase(Locale.ROOT)), aliases));
            } catch (IllegalArgumentException e) {
                throw new StorageException("Manifest " + key + ": entry column." + i + ": " + e.getMessage(), e);
            }
        }
        int objectCount = r.integer("objects");
        List<ObjectInfo> objects = new ArrayList<>(objectCount);
        for (int i = 0; i < objectCount; i++) {
            objects.add(new ObjectInfo(r.string("object." + i + ".key"), r.longValue("object." + i + ".size")));
        }
        Map<String, String> properties = new TreeMap<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith("property.")) {
                properties.put(name.substring("property.".length()), p.getProperty(name));
            }
        }
        return new Stored(new DatasetManifest(r.string("layout"), r.integer("format.version"),
                r.string("generation"), new MetadataSchema(columns), r.longValue("samples"),
                r.longValue("payload.bytes"), objects, properties), size);
    }

    private static byte[] toArray(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private record Reader(Properties p, String key) {
        String string(String name) {
            String value = p.getProperty(name);
            if (value == null) {
                throw new StorageException("Manifest " + key + " has no entry '" + name + "'");
            }
            return value;
        }

        long longValue(String name) {
            String value = string(name);
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new StorageException("Manifest " + key + ": entry '" + name + "' is not a number: " + value);
            }
        }

        int integer(String name) {
            long value = longValue(name);
            if (value < 0 || value > Integer.MAX_VALUE) {
                throw new StorageException("Manifest " + key + ": entry '" + name + "' is out of range: " + value);
            }
            return (int) value;
        }
    }
}
