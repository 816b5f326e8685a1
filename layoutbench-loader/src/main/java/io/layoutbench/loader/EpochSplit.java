package io.layoutbench.loader;

import io.layoutbench.api.layout.PreparedQuery;
import io.layoutbench.api.layout.ResultRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The split of a prepared result into each rank's share of an epoch: a pure function of the result's read units,
 * the shuffle, the seed, the epoch and the world size, so every rank computes it alone and they agree.
 *
 * <ol>
 *   <li><b>Blocks.</b> The result's units (its coalesced reads) are grouped, in order, into blocks of at least
 *       {@link Shuffle#blockBytes()}; unshuffled, the whole result is one block.</li>
 *   <li><b>Epoch order.</b> Shuffled, the blocks are permuted by a generator seeded with (seed, epoch); the epoch's
 *       order is the blocks' samples in that order.</li>
 *   <li><b>Shares.</b> Of the epoch's n samples, the first {@code n - n mod world} are used with drop-last (the
 *       dropped tail is the last {@code n mod world} of the epoch's order), all n without. They are cut into
 *       {@code world} consecutive shares, rank r's first: sizes differ by at most one, and the larger ones come
 *       first.</li>
 * </ol>
 * A share is a run of the epoch's order, so it is whole blocks with at most a part of a block at each end: a rank
 * reads its samples with the requests a single reader of them would send, give or take the two edges. With sticky
 * shares ({@link Shuffle#sticky()}) the order that deals the shares is drawn once, from the seed alone, and each
 * epoch permutes each rank's own pieces.
 */
final class EpochSplit {

    private final long samples;
    private final long[] blockStarts;

    EpochSplit(PreparedQuery prepared, Shuffle shuffle) {
        this.samples = prepared.samples();
        this.blockStarts = blocks(prepared, shuffle);
    }

    private static long[] blocks(PreparedQuery prepared, Shuffle shuffle) {
        if (prepared.samples() == 0) {
            return new long[0];
        }
        if (!shuffle.enabled()) {
            return new long[] {0};
        }
        long[] starts = new long[prepared.unitCount()];
        int count = 0;
        long bytes = shuffle.blockBytes();   // so that the first unit starts a block
        for (int unit = 0; unit < prepared.unitCount(); unit++) {
            if (bytes >= shuffle.blockBytes()) {
                starts[count++] = prepared.unitStart(unit);
                bytes = 0;
            }
            bytes += prepared.unitBytes(unit);
        }
        return Arrays.copyOf(starts, count);
    }

    /** Samples in the result. */
    long samples() {
        return samples;
    }

    /** Blocks the result is cut into. */
    int blockCount() {
        return blockStarts.length;
    }

    /** A checksum of the block boundaries: two loaders with the same one split every epoch alike. */
    long fingerprint() {
        CRC32C crc = new CRC32C();
        for (long start : blockStarts) {
            for (int shift = 0; shift < 64; shift += 8) {
                crc.update((int) (start >>> shift));
            }
        }
        crc.update((int) samples);
        return crc.getValue();
    }

    private long blockEnd(int block) {
        return block + 1 < blockStarts.length ? blockStarts[block + 1] : samples;
    }

    /** Samples an epoch uses: all, or all but the last {@code samples mod world} with drop-last. */
    long used(int world, boolean dropLast) {
        return dropLast ? samples - samples % world : samples;
    }

    /** Where rank {@code rank}'s share starts in the epoch's order. */
    long shareStart(int rank, int world, boolean dropLast) {
        long used = used(world, dropLast);
        return rank * (used / world) + Math.min(rank, used % world);
    }

    /** Samples in rank {@code rank}'s share. */
    long shareSize(int rank, int world, boolean dropLast) {
        return shareStart(rank + 1, world, dropLast) - shareStart(rank, world, dropLast);
    }

    /** The blocks in epoch {@code epoch}'s order. */
    int[] order(boolean shuffled, long seed, int epoch) {
        int[] order = new int[blockStarts.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        if (shuffled) {
            SplitMix64 random = SplitMix64.of(seed, epoch, 1);
            for (int i = order.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int swap = order[i];
                order[i] = order[j];
                order[j] = swap;
            }
        }
        return order;
    }

    /**
     * Rank {@code rank}'s share of epoch {@code epoch} as result ranges in the epoch's order (neighbouring ranges
     * that continue each other joined). With sticky shares the rank's share is the one of a fixed order (epoch-free),
     * its pieces permuted each epoch by a generator of (seed, epoch, rank).
     */
    List<ResultRange> share(Shuffle shuffle, long seed, int epoch, int rank, int world, boolean dropLast) {
        long from = shareStart(rank, world, dropLast);
        long to = from + shareSize(rank, world, dropLast);
        if (!shuffle.sticky()) {
            return ranges(order(shuffle.enabled(), seed, epoch), from, to);
        }
        List<ResultRange> pieces = pieces(order(true, seed, -1), from, to);
        SplitMix64 random = SplitMix64.of(seed, epoch, rank, 3);
        for (int i = pieces.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            ResultRange swap = pieces.get(i);
            pieces.set(i, pieces.get(j));
            pieces.set(j, swap);
        }
        return joined(pieces);
    }

    /** Positions [from, to) of the epoch order of {@code order} as result ranges, neighbours joined. */
    List<ResultRange> ranges(int[] order, long from, long to) {
        return joined(pieces(order, from, to));
    }

    /** The (parts of) blocks at positions [from, to) of the order of {@code order}, one range each. */
    private List<ResultRange> pieces(int[] order, long from, long to) {
        List<ResultRange> pieces = new ArrayList<>();
        long position = 0;   // of the current block's first sample in the order
        for (int block : order) {
            if (position >= to) {
                break;
            }
            long size = blockEnd(block) - blockStarts[block];
            long begin = Math.max(from, position);
            long end = Math.min(to, position + size);
            if (begin < end) {
                long resultFrom = blockStarts[block] + (begin - position);
                pieces.add(new ResultRange(resultFrom, resultFrom + (end - begin)));
            }
            position += size;
        }
        return pieces;
    }

    private static List<ResultRange> joined(List<ResultRange> pieces) {
        List<ResultRange> ranges = new ArrayList<>(pieces.size());
        for (ResultRange piece : pieces) {
            ResultRange last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (last != null && last.to() == piece.from()) {
                ranges.set(ranges.size() - 1, new ResultRange(last.from(), piece.to()));
            } else {
                ranges.add(piece);
            }
        }
        return ranges;
    }
}
