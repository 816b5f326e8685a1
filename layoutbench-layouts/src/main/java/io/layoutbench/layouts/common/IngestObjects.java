package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.parquet.ParquetChecksums;
import io.layoutbench.parquet.ParquetTableWriter;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects one ingest step stores below one key prefix, each recorded for the manifest with its size and CRC32C,
 * computed as it was written (the variants taking a checksum take what the writer computed, so no file is read twice
 * to checksum it), and a Parquet object also with the checksums of the regions readers fetch. A writer's objects,
 * and a distributed job's commit's merged metadata table, go through one of these.
 *
 * <pre>{@code
 * IngestObjects objects = new IngestObjects(backend, "imagenet/l1/g20261201T230000-3fa9c1d2e4");
 * objects.put("samples/a.jpg", blob, crc);
 * List<ManifestObject> listed = objects.written();
 * }</pre>
 */
public final class IngestObjects {

    private static final Logger LOG = LoggerFactory.getLogger(IngestObjects.class);

    private final ObjectBackend backend;
    private final String keyPrefix;
    private final List<ManifestObject> written = new ArrayList<>();

    /** Objects stored as {@code <keyPrefix>/<relative>}. */
    public IngestObjects(ObjectBackend backend, String keyPrefix) {
        this.backend = requireNonNull(backend, "backend is null");
        this.keyPrefix = requireNonNull(keyPrefix, "keyPrefix is null");
    }

    /** Key of the object {@code relative}. */
    public String key(String relative) {
        return keyPrefix + "/" + relative;
    }

    /** Stores {@code data}, whose CRC32C is {@code crc32c} (computed already); returns its key. */
    public String put(String relative, byte[] data, int crc32c) {
        String key = key(relative);
        backend.put(key, data);
        written.add(ManifestObject.of(key, data.length, crc32c));
        return key;
    }

    /** Stores {@code blob}, whose CRC32C is {@code crc32c}; streams it if large; returns its key. */
    public String put(String relative, Blob blob, int crc32c) {
        if (blob.inMemory()) {
            return put(relative, blob.toByteArray(), crc32c);
        }
        String key = key(relative);
        try (InputStream in = blob.openStream()) {
            backend.put(key, in, blob.size());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot store " + blob + " as " + key, e);
        }
        written.add(ManifestObject.of(key, blob.size(), crc32c));
        return key;
    }

    /** Stores the file, whose CRC32C is {@code crc32c} (computed while it was written); returns its key. */
    public String put(String relative, Path file, int crc32c) {
        return put(relative, file, crc32c, Optional.empty());
    }

    /** Stores the file, reading it once more to checksum it; returns its key. */
    public String put(String relative, Path file) {
        CRC32C crc = new CRC32C();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[64 << 10];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                crc.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + " to checksum it", e);
        }
        return put(relative, file, (int) crc.getValue());
    }

    /**
     * Stores the Parquet file {@code writer} wrote (and closed), recording its CRC32C (computed as it was written)
     * and the checksums of its footer, page indexes and metadata chunks (read back from the local file: the blob
     * chunks, its bulk, are not).
     */
    public String putParquet(String relative, Path file, ParquetTableWriter writer) {
        try {
            if (Files.size(file) != writer.bytesWritten()) {
                throw new IllegalStateException("The Parquet writer wrote " + writer.bytesWritten() + " bytes but "
                        + file + " holds " + Files.size(file) + ": its checksum would not describe the file");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the size of " + file, e);
        }
        return put(relative, file, writer.crc32c(), Optional.of(ParquetChecksums.of(file)));
    }

    /** Finishes {@code table}, stores it as the Parquet object {@code relative}, deletes its file. */
    public String putTable(String relative, LocalTable table) {
        try {
            table.writer().close();
            return putParquet(relative, table.file(), table.writer());
        } finally {
            TempFiles.delete(table.file());
        }
    }

    private String put(String relative, Path file, int crc32c, Optional<ParquetChecksums> parquet) {
        String key = key(relative);
        try {
            long size = Files.size(file);
            backend.put(key, file);
            written.add(new ManifestObject(key, size, crc32c, parquet));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot store " + file + " as " + key, e);
        }
        return key;
    }

    /** The objects stored so far, in order. */
    public List<ManifestObject> written() {
        return List.copyOf(written);
    }

    /** Deletes every object stored so far (an aborted ingest); logs, and leaves to the next commit, what fails. */
    public void deleteAll(String what) {
        for (ManifestObject object : written) {
            try {
                backend.delete(object.key());
            } catch (RuntimeException e) {
                LOG.warn("Could not delete {} of {}; the next commit there removes it", object.key(), what, e);
            }
        }
    }
}
