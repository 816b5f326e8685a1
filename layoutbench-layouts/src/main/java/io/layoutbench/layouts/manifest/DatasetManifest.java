package io.layoutbench.layouts.manifest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.parquet.ParquetChecksums;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The last object a dataset writer stores: it makes the dataset visible. It names the layout, the schema, the
 * generation (the folder below the prefix that holds this ingest's objects) and every object with its size and
 * checksums ({@link ManifestObject}), so a reader trusts nothing the manifest does not list, and checks what it reads
 * of each object against the manifest. Stored as a Java properties file (plain text) at
 * {@code <prefix>/_manifest.properties} that carries its own checksum ({@link ChecksummedProperties}: a first line
 * naming the checksum, a last line holding the CRC32C of every byte before it).
 *
 * <p>Per object: {@code object.N.key}, {@code .size}, {@code .crc32c} (of all its bytes, computed as it was written)
 * and, for a Parquet object, the checksums of the regions its readers fetch: {@code .parquet.footer} and
 * {@code .parquet.page-indexes} as {@code <offset>+<length>:<crc32c>}, {@code .parquet.row-groups} as one CRC32C of
 * each row group's metadata chunks, comma-separated ({@link ParquetChecksums}). The objects themselves stay byte for
 * byte what parquet-java and the tar writer wrote.
 *
 * <p><b>Manifests without checksums</b>, written before layoutbench recorded them, are refused with an
 * {@link UnverifiedDatasetException} saying to re-ingest: their metadata tables, footers and page indexes cannot be
 * verified, and a flipped byte there changes answers silently. (Reading them with a warning would leave exactly that
 * open, and a manifest cut short to look old would be read unverified.)
 *
 * <pre>{@code
 * DatasetManifest manifest = DatasetManifest.read(backend, "mini/l2");
 * ManifestObject shard0 = manifest.objects().get(0);     // key, size, CRC32C
 * }</pre>
 *
 * @param layout        layout name
 * @param formatVersion version of the layout's on-storage format
 * @param generation    folder of this ingest's objects, below the prefix
 * @param schema        metadata schema
 * @param sampleCount   samples stored
 * @param payloadBytes  sum of sample sizes
 * @param objects       every object of the dataset (keys relative to the backend root) with its checksums, manifest
 *                      excluded
 * @param properties    layout-specific settings (shard size, row-group size ...)
 */
public record DatasetManifest(String layout, int formatVersion, String generation, MetadataSchema schema,
        long sampleCount, long payloadBytes, List<ManifestObject> objects, Map<String, String> properties) {

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
        return objects.stream().mapToLong(ManifestObject::size).sum();
    }

    /** The listed object {@code key}, if listed. */
    public Optional<ManifestObject> object(String key) {
        return objects.stream().filter(o -> o.key().equals(key)).findFirst();
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
        if (!schema.singleDataField()) {
            // Written only when not the one field "data", so the manifests of such datasets stay as they were.
            p.setProperty("payload.fields", String.join(",", schema.payloadFields()));
        }
        p.setProperty("objects", Integer.toString(objects.size()));
        for (int i = 0; i < objects.size(); i++) {
            ManifestObject object = objects.get(i);
            String entry = "object." + i + ".";
            p.setProperty(entry + "key", object.key());
            p.setProperty(entry + "size", Long.toString(object.size()));
            p.setProperty(entry + "crc32c", hex(object.crc32c()));
            object.parquet().ifPresent(parquet -> {
                p.setProperty(entry + "parquet.footer", region(parquet.footer()));
                parquet.pageIndexes().ifPresent(r -> p.setProperty(entry + "parquet.page-indexes", region(r)));
                p.setProperty(entry + "parquet.row-groups", parquet.metadataChunks().stream()
                        .map(DatasetManifest::hex).collect(Collectors.joining(",")));
            });
        }
        new TreeMap<>(properties).forEach((k, v) -> p.setProperty("property." + k, v));
        byte[] text = ChecksummedProperties.write(p,
                "layoutbench dataset manifest: written last; the dataset exists once this file does");
        backend.put(keyFor(prefix), text);
        return text.length;
    }

    /**
     * A manifest as read, with the size of its object (so callers need not ask the store again).
     *
     * @param manifest the manifest
     * @param size     bytes of the manifest object
     */
    public record Stored(DatasetManifest manifest, long size) {
    }

    /** Bytes {@link #identity} reads: more than a checksummed manifest's last line (25 bytes with its newline). */
    private static final int IDENTITY_TAIL_BYTES = 64;

    /**
     * What tells the manifest committed at {@code prefix} from any other without reading it all (an l1 manifest
     * lists every sample): its size and its last bytes, which end with the CRC32C of all before them, its generation
     * included. Two requests, its size and a range of at most {@value #IDENTITY_TAIL_BYTES} bytes; empty if no
     * dataset is committed there. Not checked: a damaged manifest has an identity too.
     */
    public static Optional<String> identity(ObjectBackend backend, String prefix) {
        String key = keyFor(prefix);
        long size;
        try {
            size = backend.size(key);
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        }
        long tail = Math.min(size, IDENTITY_TAIL_BYTES);
        ByteBuffer bytes;
        try {
            bytes = backend.readRange(key, ByteRange.of(size - tail, tail));
        } catch (ObjectNotFoundException | RangeNotSatisfiableException e) {
            return Optional.of(size + ":changing");   // replaced between the two requests: no later read matches it
        }
        byte[] last = new byte[bytes.remaining()];
        bytes.duplicate().get(last);
        return Optional.of(size + ":" + HexFormat.of().formatHex(last));
    }

    /**
     * Reads the manifest of the dataset at {@code prefix} and checks its checksum.
     *
     * @throws ObjectNotFoundException     if there is no committed dataset at {@code prefix}
     * @throws CorruptDataException        naming the key if the manifest fails its checksum or is cut short
     * @throws UnverifiedDatasetException  if the manifest records no checksums (an older layoutbench wrote it)
     * @throws StorageException            naming the key and the entry if the manifest is malformed
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
        ChecksummedProperties.Read read = ChecksummedProperties.read(bytes, "manifest " + key);
        if (!read.checksummed()) {
            throw new UnverifiedDatasetException("The dataset at '" + prefix + "' in " + backend.uri() + " has a "
                    + "manifest without checksums (" + key + "): it was written by an older layoutbench, or its "
                    + "manifest was cut short. Its metadata cannot be verified, so it is not read; re-ingest it "
                    + "(layoutbench ingest --force, or delete it and ingest again)");
        }
        Properties p = read.properties();
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
        MetadataSchema schema;
        try {
            String fields = p.getProperty("payload.fields");
            schema = fields == null ? new MetadataSchema(columns)
                    : new MetadataSchema(columns, Arrays.asList(fields.split(",", -1)));
        } catch (IllegalArgumentException e) {
            throw new StorageException("Manifest " + key + ": entry payload.fields: " + e.getMessage(), e);
        }
        int objectCount = r.integer("objects");
        List<ManifestObject> objects = new ArrayList<>(objectCount);
        for (int i = 0; i < objectCount; i++) {
            objects.add(r.object(i));
        }
        Map<String, String> properties = new TreeMap<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith("property.")) {
                properties.put(name.substring("property.".length()), p.getProperty(name));
            }
        }
        return new Stored(new DatasetManifest(r.string("layout"), r.integer("format.version"),
                r.string("generation"), schema, r.longValue("samples"),
                r.longValue("payload.bytes"), objects, properties), size);
    }

    private static String hex(int crc) {
        return String.format("%08x", crc);
    }

    private static String region(ParquetChecksums.Region region) {
        return region.range().offset() + "+" + region.range().length() + ":" + hex(region.crc32c());
    }

    private record Reader(Properties p, String key) {
        ManifestObject object(int i) {
            String entry = "object." + i + ".";
            String objectKey = string(entry + "key");
            long size = longValue(entry + "size");
            int crc = crc(entry + "crc32c", string(entry + "crc32c"));
            if (p.getProperty(entry + "parquet.footer") == null) {
                return new ManifestObject(objectKey, size, crc, Optional.empty());
            }
            ParquetChecksums.Region footer = region(entry + "parquet.footer");
            Optional<ParquetChecksums.Region> pageIndexes = p.getProperty(entry + "parquet.page-indexes") == null
                    ? Optional.empty() : Optional.of(region(entry + "parquet.page-indexes"));
            String rowGroups = string(entry + "parquet.row-groups");
            List<Integer> chunks = new ArrayList<>();
            for (String value : rowGroups.isEmpty() ? new String[0] : rowGroups.split(",", -1)) {
                chunks.add(crc(entry + "parquet.row-groups", value));
            }
            try {
                return new ManifestObject(objectKey, size, crc,
                        Optional.of(new ParquetChecksums(footer, pageIndexes, chunks)));
            } catch (IllegalArgumentException e) {
                throw new StorageException("Manifest " + key + ": entry " + entry + "key: " + e.getMessage(), e);
            }
        }

        ParquetChecksums.Region region(String name) {
            String value = string(name);
            int plus = value.indexOf('+');
            int colon = value.indexOf(':');
            try {
                if (plus < 0 || colon < plus) {
                    throw new IllegalArgumentException("not <offset>+<length>:<crc32c>");
                }
                return new ParquetChecksums.Region(ByteRange.of(Long.parseLong(value.substring(0, plus)),
                        Long.parseLong(value.substring(plus + 1, colon))), crc(name, value.substring(colon + 1)));
            } catch (IllegalArgumentException e) {
                throw new StorageException("Manifest " + key + ": entry '" + name + "' is not a region "
                        + "<offset>+<length>:<crc32c>: " + value);
            }
        }

        int crc(String name, String value) {
            if (value.length() != 8) {
                throw new StorageException("Manifest " + key + ": entry '" + name + "' holds '" + value
                        + "', not a CRC32C of 8 hex digits");
            }
            try {
                return Integer.parseUnsignedInt(value, 16);
            } catch (NumberFormatException e) {
                throw new StorageException("Manifest " + key + ": entry '" + name + "' holds '" + value
                        + "', not a CRC32C of 8 hex digits");
            }
        }

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
