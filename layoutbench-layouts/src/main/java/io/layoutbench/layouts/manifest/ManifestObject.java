package io.layoutbench.layouts.manifest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.parquet.ParquetChecksums;

import java.util.Optional;

/**
 * One object a {@link DatasetManifest} lists: its key, its size and the CRC32C of its bytes, all computed while the
 * object was written; for a Parquet object also the checksums of the regions its readers fetch
 * ({@link ParquetChecksums}), which readers that read parts of it check.
 *
 * <pre>{@code
 * ManifestObject part = manifest.object(key).orElseThrow();
 * ParquetObject.open(new BackendInputFile(backend, part.key(), part.size(), options), part.parquet().orElseThrow());
 * }</pre>
 *
 * @param key     the object's key, relative to the backend's root
 * @param size    its size in bytes
 * @param crc32c  the CRC32C of all its bytes
 * @param parquet for a Parquet object, its region checksums
 */
public record ManifestObject(String key, long size, int crc32c, Optional<ParquetChecksums> parquet) {

    public ManifestObject {
        ObjectKeys.check(requireNonNull(key, "key is null"));
        requireNonNull(parquet, "parquet is null");
        if (size < 0) {
            throw new IllegalArgumentException("Size of " + key + " must be >= 0, got " + size);
        }
    }

    /** An object that is not Parquet. */
    public static ManifestObject of(String key, long size, int crc32c) {
        return new ManifestObject(key, size, crc32c, Optional.empty());
    }

    /** The key and size, as a listing gives them. */
    public ObjectInfo info() {
        return new ObjectInfo(key, size);
    }
}
