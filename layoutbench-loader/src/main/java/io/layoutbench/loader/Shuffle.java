package io.layoutbench.loader;

/**
 * How a loader shuffles, in two levels as the best loaders do: each epoch a seeded permutation of <em>blocks</em>
 * (runs of neighbouring samples of at least {@code blockBytes}, cut where the query's reads are cut, so a block
 * costs the requests it would cost unshuffled), then a seeded shuffle buffer of {@code bufferSamples} samples
 * over each rank's stream. Larger blocks mean fewer requests and less randomness (samples of a block stay close);
 * a larger buffer means more randomness and more memory (it holds that many samples) and more bytes re-read on
 * resume (a resumed loader reads the buffer's samples again).
 *
 * <pre>{@code
 * Shuffle shuffle = Shuffle.blocks(8L << 20, 512);   // 8 MiB blocks, 512 samples in the buffer
 * Shuffle none = Shuffle.none();                      // dataset order
 * Shuffle cached = Shuffle.defaults().withStickyShares(true);   // the same blocks per rank every epoch
 * }</pre>
 *
 * @param enabled       whether to shuffle at all; without, samples come in dataset order
 * @param blockBytes    bytes of a block, at least (a block is whole read units, so it may hold more); 0 makes every
 *                      read unit a block
 * @param bufferSamples samples the shuffle buffer holds; 0 or 1 for none (blocks alone)
 * @param sticky        whether each rank keeps the same blocks every epoch, in a new order each epoch: blocks are
 *                      dealt to ranks once (by the seed), so a rank's local cache serves every epoch after the
 *                      first, at the price of samples never moving between ranks; without (the default), the
 *                      blocks are permuted across all ranks each epoch
 */
public record Shuffle(boolean enabled, long blockBytes, int bufferSamples, boolean sticky) {

    /**
     * Default block size: 0, each of the query's coalesced reads a block. Blocks cut at read boundaries cost no
     * request beyond the query's own, and the smallest mix best (docs/LOADER.md has the measurements).
     */
    public static final long DEFAULT_BLOCK_BYTES = 0;

    /**
     * Default shuffle buffer: 1,024 samples, as WebDataset's examples use. It holds that many samples (113 MB of
     * 110 KB images; lower it for large samples), and a resumed loader reads them again.
     */
    public static final int DEFAULT_BUFFER_SAMPLES = 1024;

    public Shuffle {
        if (blockBytes < 0) {
            throw new IllegalArgumentException("blockBytes must be >= 0, got " + blockBytes);
        }
        if (bufferSamples < 0) {
            throw new IllegalArgumentException("bufferSamples must be >= 0, got " + bufferSamples);
        }
        if (!enabled && (blockBytes != 0 || bufferSamples != 0 || sticky)) {
            throw new IllegalArgumentException("An unshuffled loader has no blocks or buffer: use Shuffle.none()");
        }
    }

    /** Dataset order. */
    public static Shuffle none() {
        return new Shuffle(false, 0, 0, false);
    }

    /** Blocks of one coalesced read each and a buffer of {@value #DEFAULT_BUFFER_SAMPLES} samples. */
    public static Shuffle defaults() {
        return blocks(DEFAULT_BLOCK_BYTES, DEFAULT_BUFFER_SAMPLES);
    }

    /** Blocks of at least {@code blockBytes} bytes, then a buffer of {@code bufferSamples} samples. */
    public static Shuffle blocks(long blockBytes, int bufferSamples) {
        return new Shuffle(true, blockBytes, bufferSamples, false);
    }

    /** This shuffle with each rank keeping its blocks from epoch to epoch ({@link #sticky()}). */
    public Shuffle withStickyShares(boolean newSticky) {
        if (!enabled) {
            throw new IllegalArgumentException("An unshuffled loader's shares are fixed already");
        }
        return new Shuffle(true, blockBytes, bufferSamples, newSticky);
    }

    @Override
    public String toString() {
        if (!enabled) {
            return "none";
        }
        String blocks = blockBytes == 0 ? "read-unit blocks"
                : io.layoutbench.layouts.common.LayoutOptions.formatSize(blockBytes) + " blocks";
        return blocks + ", buffer " + bufferSamples + (sticky ? ", sticky" : "");
    }
}
