package io.layoutbench.loader;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * How one rank of a training job loads: its rank and the world size, local workers, batch size, the seed and
 * shuffle, whether to drop the tail so that every rank gets the same number of samples, the bytes it may read ahead,
 * and an optional local cache.
 *
 * <p>Every rank of a job must use the same seed, shuffle, world size and drop-last (and the same query and query
 * options): they derive the same split of the result without talking to each other. Workers, batch size, prefetch
 * and cache are the rank's own; they change neither which samples it gets nor their order.
 *
 * <pre>{@code
 * LoaderSettings settings = LoaderSettings.defaults()
 *         .withRank(rank, worldSize)
 *         .withBatchSize(64)
 *         .withSeed(42)
 *         .withShuffle(Shuffle.blocks(8L << 20, 512))
 *         .withDropLast(true);
 * }</pre>
 *
 * @param rank          this rank, in [0, worldSize)
 * @param worldSize     ranks in the job, at least 1
 * @param workers       threads decoding batches ({@link Epoch#decoded}), at least 1; reading is asynchronous and
 *                      needs none
 * @param batchSize     samples per batch, at least 1 (an epoch's last batch may be shorter)
 * @param seed          the shuffles' seed
 * @param shuffle       how to shuffle, or {@link Shuffle#none()}
 * @param dropLast      drop the last {@code samples mod worldSize} samples of each epoch's order, so that every rank
 *                      gets exactly {@code samples / worldSize}; without, the first {@code samples mod worldSize}
 *                      ranks get one more
 * @param prefetchBytes bytes of blocks read ahead of the consumer at most (one block is always allowed): as many
 *                      blocks are read side by side as it holds, so keep it above the network's bandwidth-delay
 *                      product (t3.medium: about 19 MB)
 * @param cache         a local cache, or null for none
 */
public record LoaderSettings(int rank, int worldSize, int workers, int batchSize, long seed, Shuffle shuffle,
        boolean dropLast, long prefetchBytes, CacheSettings cache) {

    /** Default read-ahead: 64 MiB, {@link io.layoutbench.api.layout.QueryOptions#DEFAULT_MAX_BUFFERED_BYTES}. */
    public static final long DEFAULT_PREFETCH_BYTES = 64L << 20;

    public LoaderSettings {
        if (worldSize < 1 || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank must be in [0, worldSize) and worldSize >= 1; got rank " + rank
                    + " of world size " + worldSize);
        }
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be >= 1, got " + workers);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
        }
        requireNonNull(shuffle, "shuffle is null");
        if (prefetchBytes < 1) {
            throw new IllegalArgumentException("prefetchBytes must be >= 1, got " + prefetchBytes);
        }
    }

    /** Rank 0 of 1, 2 workers, batches of 32, seed 0, default shuffle, no drop, 64 MiB read ahead, no cache. */
    public static LoaderSettings defaults() {
        return new LoaderSettings(0, 1, 2, 32, 0, Shuffle.defaults(), false, DEFAULT_PREFETCH_BYTES, null);
    }

    public LoaderSettings withRank(int newRank, int newWorldSize) {
        return new LoaderSettings(newRank, newWorldSize, workers, batchSize, seed, shuffle, dropLast, prefetchBytes,
                cache);
    }

    public LoaderSettings withWorkers(int newWorkers) {
        return new LoaderSettings(rank, worldSize, newWorkers, batchSize, seed, shuffle, dropLast, prefetchBytes,
                cache);
    }

    public LoaderSettings withBatchSize(int newBatchSize) {
        return new LoaderSettings(rank, worldSize, workers, newBatchSize, seed, shuffle, dropLast, prefetchBytes,
                cache);
    }

    public LoaderSettings withSeed(long newSeed) {
        return new LoaderSettings(rank, worldSize, workers, batchSize, newSeed, shuffle, dropLast, prefetchBytes,
                cache);
    }

    public LoaderSettings withShuffle(Shuffle newShuffle) {
        return new LoaderSettings(rank, worldSize, workers, batchSize, seed, newShuffle, dropLast, prefetchBytes,
                cache);
    }

    public LoaderSettings withDropLast(boolean newDropLast) {
        return new LoaderSettings(rank, worldSize, workers, batchSize, seed, shuffle, newDropLast, prefetchBytes,
                cache);
    }

    public LoaderSettings withPrefetchBytes(long newPrefetchBytes) {
        return new LoaderSettings(rank, worldSize, workers, batchSize, seed, shuffle, dropLast, newPrefetchBytes,
                cache);
    }

    /** These settings with a local cache ({@code null}: none). */
    public LoaderSettings withCache(CacheSettings newCache) {
        return new LoaderSettings(rank, worldSize, workers, batchSize, seed, shuffle, dropLast, prefetchBytes,
                newCache);
    }

    /** The cache, if any. */
    public Optional<CacheSettings> cacheSettings() {
        return Optional.ofNullable(cache);
    }
}
