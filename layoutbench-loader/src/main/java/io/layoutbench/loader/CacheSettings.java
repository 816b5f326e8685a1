package io.layoutbench.loader;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * A local cache of the samples a loader reads, for multi-epoch training: a directory of one file per sample, kept
 * under a byte limit, named by the result it caches so that two queries or two generations of a dataset never share
 * entries. Once full it admits no more and evicts nothing: every epoch reads each sample once, so evicting the least
 * recently used would always evict the next one needed, while a full cache serves its part of every later epoch.
 * Ranks on one machine may share a directory (entries are written under names of their own and moved into place);
 * each counts the limit over what it wrote and found at start. A sample a later epoch finds there costs no request.
 * The cache survives the process: a resumed job finds what it read before.
 *
 * <pre>{@code
 * CacheSettings nvme = new CacheSettings(Path.of("/mnt/nvme/cache"), 50L << 30);
 * LoaderSettings settings = LoaderSettings.defaults().withCache(nvme);
 * }</pre>
 *
 * @param directory where the cache lives (created if missing)
 * @param maxBytes  bytes of samples one loader keeps there at most, at least 1 (ranks sharing the directory each keep
 *                  up to this)
 */
public record CacheSettings(Path directory, long maxBytes) {
    public CacheSettings {
        requireNonNull(directory, "directory is null");
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be >= 1, got " + maxBytes);
        }
    }
}
