package io.layoutbench.loader;

/**
 * What one rank's epoch has done so far ({@link Epoch#stats()}).
 *
 * <pre>{@code
 * LoaderStats stats = epoch.stats();
 * System.out.printf("%d samples, %d requests, cache hit rate %.2f%n", stats.samples(), stats.requests(),
 *         stats.cacheHitRate());
 * }</pre>
 *
 * @param samples        samples handed out
 * @param payloadBytes   their sizes
 * @param bytesRead      bytes received from the store (the re-read included)
 * @param requests       requests sent to the store (the re-read included)
 * @param reads          reads of blocks (or parts of blocks) opened
 * @param cacheHits      samples served from the local cache
 * @param cacheMisses    samples read from the store while a cache was configured
 * @param reReadSamples  samples a resumed epoch read again: those its shuffle buffer held when the state was saved
 * @param reReadBytes    bytes those took
 */
public record LoaderStats(long samples, long payloadBytes, long bytesRead, long requests, long reads,
        long cacheHits, long cacheMisses, long reReadSamples, long reReadBytes) {

    /** Cache hits over lookups, 0 without a cache. */
    public double cacheHitRate() {
        long lookups = cacheHits + cacheMisses;
        return lookups == 0 ? 0 : (double) cacheHits / lookups;
    }
}
