package io.layoutbench.loader;

import io.layoutbench.api.layout.ResultRange;
import java.util.Arrays;
import java.util.List;

/**
 * The rest of an epoch split over a new world size: what every rank of the earlier world had not yet yielded, in
 * the order it would have yielded it, rank 0's rest first, cut into consecutive balanced pieces (sizes differ by at
 * most one), one per new rank. Each remaining sample goes to exactly one new rank. A pure function of the earlier
 * ranks' positions, so each new rank computes its own piece alone; to do so it replays the earlier ranks'
 * shuffles on positions only (no data), one rank's share at a time.
 */
final class ElasticSplit {

    private ElasticSplit() {
    }

    /**
     * New rank {@code rank}'s piece of the rest of epoch {@code epoch}, as result positions in the order it yields
     * them.
     *
     * @param positions where each rank of the earlier world (its size) had got to
     */
    static long[] piece(EpochSplit split, Shuffle shuffle, long seed, int epoch, boolean dropLast,
            List<Long> positions, int rank, int world) {
        int oldWorld = positions.size();
        long[] remaining = new long[oldWorld];
        long total = 0;
        for (int r = 0; r < oldWorld; r++) {
            long share = split.shareSize(r, oldWorld, dropLast);
            if (positions.get(r) < 0 || positions.get(r) > share) {
                throw new IllegalArgumentException("Rank " + r + " of " + oldWorld + " cannot have reached sample "
                        + positions.get(r) + " of a share of " + share);
            }
            remaining[r] = share - positions.get(r);
            total += remaining[r];
        }
        long from = rank * (total / world) + Math.min(rank, total % world);
        long to = from + total / world + (rank < total % world ? 1 : 0);
        if (to - from > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("Rank " + rank + " of " + world + " would get " + (to - from)
                    + " samples of the epoch's rest, more than an elastic resume holds; resume with more ranks");
        }
        long[] piece = new long[(int) (to - from)];
        int filled = 0;
        long offset = 0;   // of old rank r's rest in the concatenation
        for (int r = 0; r < oldWorld && offset < to; r++) {
            long end = offset + remaining[r];
            if (end > from && remaining[r] > 0) {
                long[] order = yieldOrder(split, shuffle, seed, epoch, dropLast, r, oldWorld,
                        positions.get(r) + Math.max(0, from - offset), positions.get(r) + Math.min(to, end) - offset);
                System.arraycopy(order, 0, piece, filled, order.length);
                filled += order.length;
            }
            offset = end;
        }
        return piece;
    }

    /** Result positions rank {@code rank} yields at its steps [fromStep, toStep) of the epoch. */
    private static long[] yieldOrder(EpochSplit split, Shuffle shuffle, long seed, int epoch, boolean dropLast,
            int rank, int world, long fromStep, long toStep) {
        List<ResultRange> share = split.share(shuffle, seed, epoch, rank, world, dropLast);
        long[] starts = new long[share.size()];
        long total = 0;
        for (int i = 0; i < share.size(); i++) {
            starts[i] = total;
            total += share.get(i).size();
        }
        ShuffleBuffer<Object> buffer = new ShuffleBuffer<>(shuffle.enabled() ? shuffle.bufferSamples() : 1, total,
                SplitMix64.of(seed, epoch, rank, 2));
        long[] order = new long[Math.toIntExact(toStep - fromStep)];
        for (long step = 0; step < toStep; step++) {
            while (buffer.needsInput()) {
                buffer.add(buffer.nextInput(), null);
            }
            long sequence = buffer.takePosition();
            if (step >= fromStep) {
                int range = Arrays.binarySearch(starts, sequence);
                if (range < 0) {
                    range = -range - 2;
                }
                order[(int) (step - fromStep)] = share.get(range).from() + (sequence - starts[range]);
            }
        }
        return order;
    }
}
