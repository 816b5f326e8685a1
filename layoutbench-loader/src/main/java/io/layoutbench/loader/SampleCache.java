package io.layoutbench.loader;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loader's local cache of one result's samples, by result position:
 * {@code <directory>/<result hash>/<position>.sample}, each file the sample's metadata values and payload fields
 * followed by a CRC32C of all before it. Once {@link CacheSettings#maxBytes()} is reached no more samples are
 * admitted and none are evicted: an epoch reads each sample once, so under LRU the entry evicted is always one the
 * next epoch needs before the entries kept (a cache smaller than the share would never hit), while a cache that keeps
 * what it has serves that part of every later epoch. Entries are written to a temporary file and moved into place,
 * so a killed process leaves none half-written; an entry that fails its checksum is deleted and read from the store
 * again. Samples with a field not in memory (a lazily read large field) are not cached. Thread-safe: a loader's
 * epochs share it.
 */
final class SampleCache {

    private static final Logger LOG = LoggerFactory.getLogger(SampleCache.class);
    private static final String SUFFIX = ".sample";

    private final Path directory;
    private final long maxBytes;
    private final MetadataSchema schema;
    private final LinkedHashMap<Long, Long> entries = new LinkedHashMap<>();
    private long bytes;

    private SampleCache(Path directory, long maxBytes, MetadataSchema schema) {
        this.directory = directory;
        this.maxBytes = maxBytes;
        this.schema = schema;
    }

    /** Opens (creating it if needed) the cache of result {@code resultId} under the settings' directory. */
    static SampleCache open(CacheSettings settings, String resultId, MetadataSchema schema) {
        Path directory = settings.directory().resolve(hash(resultId));
        SampleCache cache = new SampleCache(directory, settings.maxBytes(), schema);
        try {
            Files.createDirectories(directory);
            Path name = directory.resolve("result.txt");
            if (!Files.exists(name)) {
                Files.writeString(name, resultId + "\n", StandardCharsets.UTF_8);
            }
            try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
                for (Path file : files) {
                    String fileName = file.getFileName().toString();
                    try {
                        long position = Long.parseLong(fileName.substring(0, fileName.length() - SUFFIX.length()));
                        long size = Files.size(file);
                        cache.entries.put(position, size);
                        cache.bytes += size;
                    } catch (NumberFormatException e) {
                        // not ours: leave it
                    } catch (java.nio.file.NoSuchFileException e) {
                        // another rank sharing the directory removed it since the listing
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the loader cache " + directory + ": " + e.getMessage(), e);
        }
        cache.evictTo(cache.maxBytes);   // the limit may have been lowered since
        return cache;
    }

    private static String hash(String resultId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(resultId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Whether the cache holds the sample at result position {@code position}. */
    synchronized boolean contains(long position) {
        return entries.containsKey(position);
    }

    /** Bytes held. */
    synchronized long bytes() {
        return bytes;
    }

    /** The cached sample at {@code position}, or null if it is not cached or its entry was damaged (now removed). */
    synchronized Sample get(long position) {
        if (entries.get(position) == null) {
            return null;
        }
        Path file = file(position);
        try {
            byte[] content = Files.readAllBytes(file);
            CRC32C crc = new CRC32C();
            crc.update(content, 0, content.length - 4);
            int stored = ByteBuffer.wrap(content, content.length - 4, 4).getInt();
            if ((int) crc.getValue() != stored) {
                throw new IOException("checksum mismatch");
            }
            return decode(new DataInputStream(new java.io.ByteArrayInputStream(content, 0, content.length - 4)));
        } catch (IOException | RuntimeException e) {
            LOG.warn("Dropping damaged loader cache entry {}: {}", file, e.getMessage());
            remove(position);
            return null;
        }
    }

    /** Caches {@code sample} at {@code position} if its fields are in memory and it fits the limit. */
    synchronized void put(long position, Sample sample) {
        if (entries.containsKey(position)) {
            return;
        }
        for (Blob field : sample.fields().values()) {
            if (!field.inMemory()) {
                return;
            }
        }
        byte[] content = encode(sample);
        if (bytes + content.length > maxBytes) {
            return;
        }
        Path file = file(position);
        Path temporary = null;
        try {
            // A name of its own: ranks on one machine may share the directory.
            temporary = Files.createTempFile(directory, position + ".", ".tmp");
            Files.write(temporary, content);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
            entries.put(position, (long) content.length);
            bytes += content.length;
        } catch (IOException e) {
            // A full or failing cache disk slows training, it must not stop it.
            LOG.warn("Cannot write loader cache entry {}: {}", file, e.getMessage());
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // the warning above says enough
                }
            }
        }
    }

    private void evictTo(long limit) {
        Iterator<Map.Entry<Long, Long>> eldest = entries.entrySet().iterator();
        List<Long> evicted = new ArrayList<>();
        long held = bytes;
        while (held > limit && eldest.hasNext()) {
            Map.Entry<Long, Long> entry = eldest.next();
            evicted.add(entry.getKey());
            held -= entry.getValue();
        }
        evicted.forEach(this::remove);
    }

    private void remove(long position) {
        Long size = entries.remove(position);
        if (size != null) {
            bytes -= size;
        }
        try {
            Files.deleteIfExists(file(position));
        } catch (IOException e) {
            LOG.warn("Cannot delete loader cache entry {}: {}", file(position), e.getMessage());
        }
    }

    private Path file(long position) {
        return directory.resolve(position + SUFFIX);
    }

    private byte[] encode(Sample sample) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 64,
                sample.size() + 256));
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            List<Column> columns = schema.columns();
            for (int c = 0; c < columns.size(); c++) {
                Object value = sample.metadata().get(c);
                out.writeBoolean(value != null);
                if (value == null) {
                    continue;
                }
                switch (columns.get(c).type()) {
                    case STRING -> writeString(out, (String) value);
                    case BIGINT -> out.writeLong((Long) value);
                    case DOUBLE -> out.writeDouble((Double) value);
                    case BOOLEAN -> out.writeBoolean((Boolean) value);
                }
            }
            out.writeInt(sample.fields().size());
            for (Map.Entry<String, Blob> field : sample.fields().entrySet()) {
                writeString(out, field.getKey());
                ByteBuffer bytes = field.getValue().readAll();
                out.writeInt(bytes.remaining());
                if (bytes.hasArray()) {
                    out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
                } else {
                    byte[] copy = new byte[bytes.remaining()];
                    bytes.duplicate().get(copy);
                    out.write(copy);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] content = buffer.toByteArray();
        CRC32C crc = new CRC32C();
        crc.update(content);
        byte[] withCrc = java.util.Arrays.copyOf(content, content.length + 4);
        ByteBuffer.wrap(withCrc, content.length, 4).putInt((int) crc.getValue());
        return withCrc;
    }

    private Sample decode(DataInputStream in) throws IOException {
        List<Column> columns = schema.columns();
        List<Object> values = new ArrayList<>(columns.size());
        for (Column column : columns) {
            if (!in.readBoolean()) {
                values.add(null);
                continue;
            }
            values.add(switch (column.type()) {
                case STRING -> readString(in);
                case BIGINT -> in.readLong();
                case DOUBLE -> in.readDouble();
                case BOOLEAN -> in.readBoolean();
            });
        }
        int fieldCount = in.readInt();
        Map<String, Blob> fields = new LinkedHashMap<>();
        for (int f = 0; f < fieldCount; f++) {
            String name = readString(in);
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            fields.put(name, Blob.of(ByteBuffer.wrap(bytes)));
        }
        return new Sample(new MetadataRow(schema, values), fields);
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputStream in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
