package io.layoutbench.loader;

import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PreparedQuery;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultRange;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.metrics.MetricsSnapshot;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * One rank's pass over its share of an epoch, in batches: {@link DataLoader#epoch(int)} starts one,
 * {@link DataLoader#resume(LoaderState)} continues one. Blocks of the share are read in the epoch's order, as many
 * side by side as {@link LoaderSettings#prefetchBytes()} holds ahead of the consumer (one always), through
 * the shuffle buffer; samples in the local cache are taken from it. {@link #state()} is where the consumer is: the
 * samples of the batches it has taken. Not thread-safe: one consumer. Close it to cancel reads in flight.
 *
 * <pre>{@code
 * try (Epoch epoch = loader.epoch(3)) {
 *     while (epoch.hasNext()) {
 *         List<Sample> batch = epoch.next();
 *         step(batch);
 *         if (step % 100 == 0) {
 *             epoch.state().write(statePath);
 *         }
 *     }
 * }
 * }</pre>
 */
public final class Epoch implements java.util.Iterator<List<Sample>>, AutoCloseable {

    private final DataLoader loader;
    private final int epoch;
    private final PreparedQuery prepared;
    /** The prepared query, its reads planned as parts of one read of the rank's share (same gap, same budget). */
    private final PreparedQuery blockReads;
    private final LoaderSettings settings;
    private final SampleCache cache;
    private final List<ResultRange> share;
    private final long[] shareStarts;
    private final long total;
    private final ShuffleBuffer<Sample> buffer;
    private final double bytesPerSample;
    private final long[] piece;
    private final List<Long> elasticFrom;
    private final Map<Long, Sample> window = new HashMap<>();
    private long windowEnd;
    private final Deque<OpenRead> open = new ArrayDeque<>();
    private long openBytes;
    private final List<Runnable> onClose = new ArrayList<>();
    private RuntimeException failure;
    private int nextRange;
    private long nextRangeOffset;
    private long drawn;
    private long position;
    private boolean closed;

    private long samples;
    private long payloadBytes;
    private long bytesRead;
    private long requests;
    private long reads;
    private long cacheHits;
    private long cacheMisses;
    private long reReadSamples;
    private long reReadBytes;

    /**
     * Rank's epoch from {@code position} on; with {@code piece}, a rank of an elastic resume yielding those result
     * positions in order ({@code elasticFrom}: the earlier ranks' positions), without a buffer of its own.
     */
    Epoch(DataLoader loader, int epoch, long position, SampleCache cache, long[] piece, List<Long> elasticFrom) {
        this.loader = loader;
        this.epoch = epoch;
        this.prepared = loader.prepared();
        this.settings = loader.settings();
        this.cache = cache;
        this.piece = piece;
        this.elasticFrom = List.copyOf(elasticFrom);
        this.share = piece == null ? loader.share(epoch) : List.of();
        this.shareStarts = new long[share.size()];
        long count = 0;
        for (int i = 0; i < share.size(); i++) {
            shareStarts[i] = count;
            count += share.get(i).size();
        }
        this.total = piece == null ? count : piece.length;
        if (position < 0 || position > total) {
            throw new IllegalArgumentException("Cannot resume rank " + settings.rank() + " of epoch " + epoch
                    + " after " + position + " samples: its share has " + total);
        }
        this.bytesPerSample = prepared.samples() == 0 ? 0 : (double) prepared.payloadBytes() / prepared.samples();
        // Blocks read one by one send about the requests of one read of the share, and keep its byte budget.
        this.blockReads = share.isEmpty() ? prepared : prepared.asPartsOf(ResultRange.sortedAndJoined(share));
        this.drawn = position;
        this.position = position;
        this.windowEnd = position;
        if (piece != null) {
            this.buffer = null;
            return;
        }
        Shuffle shuffle = settings.shuffle();
        int capacity = shuffle.enabled() ? shuffle.bufferSamples() : 1;
        SplitMix64 random = SplitMix64.of(settings.seed(), epoch, settings.rank(), 2);
        this.buffer = position == 0 ? new ShuffleBuffer<>(capacity, total, random)
                : ShuffleBuffer.replay(capacity, total, random, position);
        if (position > 0) {
            reReadHeld();
        }
        seek(buffer.nextInput());
    }

    /** The epoch's number. */
    public int epoch() {
        return epoch;
    }

    /** Samples this rank gets in the epoch. */
    public long size() {
        return total;
    }

    /** Samples handed out so far (those of a resumed epoch's earlier run included). */
    public long position() {
        return position;
    }

    /** Where the consumer is: save it to resume from here. */
    public LoaderState state() {
        return loader.stateAt(epoch, position, elasticFrom);
    }

    /** What the epoch has read so far. */
    public LoaderStats stats() {
        return new LoaderStats(samples, payloadBytes, bytesRead, requests, reads, cacheHits, cacheMisses,
                reReadSamples, reReadBytes);
    }

    @Override
    public boolean hasNext() {
        if (failure != null) {
            throw failed();
        }
        return !closed && drawn < total;
    }

    /** The next batch: {@link LoaderSettings#batchSize()} samples, fewer at the end of the share. */
    @Override
    public List<Sample> next() {
        return next(settings.batchSize());
    }

    /**
     * The next batch of at most {@code maxSamples} samples (and at most the batch size): to stop at an exact
     * sample, for a state saved there.
     */
    public List<Sample> next(int maxSamples) {
        if (maxSamples < 1) {
            throw new IllegalArgumentException("maxSamples must be >= 1, got " + maxSamples);
        }
        List<Sample> batch = nextBatch(Math.min(maxSamples, settings.batchSize()));
        position += batch.size();
        return batch;
    }

    /**
     * The rest of the epoch as batches of {@code decoder}'s results, decoded on {@link LoaderSettings#workers()}
     * threads, a batch per worker, in order: the hand-off to a training step that wants images, not bytes.
     * {@link #state()} counts the batches this iterator has handed out. Closing it closes the epoch.
     */
    public <T> DecodedBatches<T> decoded(DecodedBatches.Decoder<? extends T> decoder) {
        return new DecodedBatches<>(this, decoder, settings.workers());
    }

    /** Draws the next batch without counting it as handed out (the decoding workers count it when they do). */
    List<Sample> nextBatch() {
        return nextBatch(settings.batchSize());
    }

    private List<Sample> nextBatch(int batchSize) {
        try {
            return drawBatch(batchSize);
        } catch (RuntimeException e) {
            // Samples of the failed batch were drawn and are lost: the epoch cannot go on in order. Resume it
            // from state(), which counts the batches handed out before.
            failure = e;
            closeReads();
            throw e;
        }
    }

    private IllegalStateException failed() {
        return new IllegalStateException("Epoch " + epoch + " of rank " + settings.rank() + " failed after "
                + position + " samples handed out (" + failure.getMessage() + "); resume it from state()", failure);
    }

    private List<Sample> drawBatch(int batchSize) {
        if (!hasNext()) {
            throw new NoSuchElementException("Epoch " + epoch + " of rank " + settings.rank() + " is over after "
                    + drawn + " samples");
        }
        int size = (int) Math.min(batchSize, total - drawn);
        List<Sample> batch = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            Sample sample = piece != null ? nextOfPiece() : nextShuffled();
            drawn++;
            samples++;
            payloadBytes += sample.size();
            batch.add(sample);
        }
        if (drawn == total) {
            closeReads();
        }
        return batch;
    }

    private Sample nextShuffled() {
        while (buffer.needsInput()) {
            buffer.add(buffer.nextInput(), nextFromSource());
        }
        return buffer.take();
    }

    /**
     * The next sample of an elastic piece, whose samples lie anywhere in the result: read a window at a time (as
     * many as the read-ahead budget holds), the window's positions sorted into ranges, so that neighbours share
     * requests.
     */
    private Sample nextOfPiece() {
        if (drawn == windowEnd) {
            window.clear();
            long size = Math.max(settings.batchSize(), (long) (settings.prefetchBytes() / Math.max(1, bytesPerSample)));
            windowEnd = Math.min(total, drawn + Math.min(size, 1 << 16));
            long[] positions = Arrays.copyOfRange(piece, (int) drawn, (int) windowEnd);
            Arrays.sort(positions);
            List<ResultRange> ranges = new ArrayList<>();
            for (long p : positions) {
                ResultRange last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
                if (last != null && last.to() == p) {
                    ranges.set(ranges.size() - 1, new ResultRange(last.from(), p + 1));
                } else {
                    ranges.add(new ResultRange(p, p + 1));
                }
            }
            OpenRead read = new OpenRead(prepared, ranges);
            try {
                for (long p : positions) {
                    window.put(p, read.next());
                }
            } finally {
                read.close();
            }
        }
        return window.remove(piece[(int) drawn]);
    }

    /** Counts {@code count} samples handed out by a decoding iterator. */
    void handedOut(int count) {
        position += count;
    }

    @Override
    public void close() {
        closed = true;
        closeReads();
        onClose.forEach(Runnable::run);
        onClose.clear();
    }

    /** Runs {@code action} when the epoch closes (a decoding iterator's threads stop with it). */
    void onClose(Runnable action) {
        onClose.add(action);
    }

    private void closeReads() {
        window.clear();
        while (!open.isEmpty()) {
            open.pollFirst().close();
        }
        openBytes = 0;
    }

    /** Rebuilds a replayed buffer: reads again the samples it held when the state was saved. */
    private void reReadHeld() {
        long[] held = buffer.heldPositions();
        if (held.length == 0) {
            return;
        }
        Map<Long, Integer> slots = buffer.slots();
        Map<Long, Long> sequenceOf = new HashMap<>(held.length * 2);
        long[] results = new long[held.length];
        for (int i = 0; i < held.length; i++) {
            results[i] = resultPosition(held[i]);
            sequenceOf.put(results[i], held[i]);
        }
        Arrays.sort(results);
        List<ResultRange> ranges = new ArrayList<>();
        long from = results[0];
        long to = from + 1;
        for (int i = 1; i < results.length; i++) {
            if (results[i] != to) {
                ranges.add(new ResultRange(from, to));
                from = results[i];
            }
            to = results[i] + 1;
        }
        ranges.add(new ResultRange(from, to));
        long bytesBefore = bytesRead;
        OpenRead reRead = new OpenRead(prepared, ranges);
        try {
            for (long result : results) {
                buffer.fill(slots.get(sequenceOf.get(result)), reRead.next());
            }
        } finally {
            reRead.close();
        }
        reReadSamples += held.length;
        reReadBytes += bytesRead - bytesBefore;
    }

    /** The result position of the share's sample at {@code sequence}. */
    private long resultPosition(long sequence) {
        int range = Arrays.binarySearch(shareStarts, sequence);
        if (range < 0) {
            range = -range - 2;
        }
        return share.get(range).from() + (sequence - shareStarts[range]);
    }

    /** Makes the reads start at the share's sample {@code sequence}. */
    private void seek(long sequence) {
        if (sequence >= total) {
            nextRange = share.size();
            return;
        }
        int range = Arrays.binarySearch(shareStarts, sequence);
        if (range < 0) {
            range = -range - 2;
        }
        nextRange = range;
        nextRangeOffset = sequence - shareStarts[range];
    }

    /** Bytes the rest of share range {@code range} is expected to hold. */
    private long estimate(int range) {
        return (long) ((share.get(range).size() - (range == nextRange ? nextRangeOffset : 0)) * bytesPerSample);
    }

    private Sample nextFromSource() {
        while (true) {
            fillReads();
            OpenRead head = open.peekFirst();
            if (head == null) {
                throw new IllegalStateException("Rank " + settings.rank() + " ran out of reads in epoch " + epoch
                        + " after " + drawn + " of " + total + " samples");
            }
            if (head.hasNext()) {
                return head.next();
            }
            open.pollFirst();
            openBytes -= head.estimatedBytes;
            head.close();
        }
    }

    /**
     * Opens reads of the next blocks while the read-ahead budget holds them (one always), and no more than the
     * reads the query keeps in flight for blocks of that size ({@link QueryOptions#readsInFlight}; each read sends
     * one request at least): enough blocks in flight to fill the network's bandwidth-delay product whatever their
     * size, without reading further ahead than asked.
     */
    private void fillReads() {
        while (nextRange < share.size()
                && open.size() < prepared.options().readsInFlight(Math.max(1, estimate(nextRange)))
                && (open.isEmpty() || openBytes + estimate(nextRange) <= settings.prefetchBytes())) {
            ResultRange range = share.get(nextRange);
            ResultRange piece = new ResultRange(range.from() + nextRangeOffset, range.to());
            nextRange++;
            nextRangeOffset = 0;
            OpenRead read = new OpenRead(blockReads, List.of(piece));
            open.addLast(read);
            openBytes += read.estimatedBytes;
        }
    }

    /**
     * A read of some ascending result ranges: samples in the local cache from it, the others from the store in one
     * read, in position order.
     */
    private final class OpenRead {
        private final List<ResultRange> ranges;
        private final long estimatedBytes;
        private final SampleStream stream;
        private final java.util.BitSet hits = new java.util.BitSet();
        private int range;
        private long next;
        private int ordinal;
        private boolean closed;

        /** A read of {@code ranges} through {@code source} (for blocks, the view of the share's reads). */
        OpenRead(PreparedQuery source, List<ResultRange> ranges) {
            this.ranges = ranges;
            long count = 0;
            for (ResultRange r : ranges) {
                count += r.size();
            }
            this.estimatedBytes = (long) (count * bytesPerSample);
            this.next = ranges.get(0).from();
            List<ResultRange> misses = cache == null ? ranges : misses(ranges);
            this.stream = misses.isEmpty() ? null : source.read(misses);
            reads++;
        }

        /** The ranges' positions the cache does not hold; those it holds are marked in {@link #hits}. */
        private List<ResultRange> misses(List<ResultRange> wanted) {
            List<ResultRange> misses = new ArrayList<>();
            int ordinal = 0;
            for (ResultRange r : wanted) {
                long from = -1;
                for (long p = r.from(); p < r.to(); p++, ordinal++) {
                    boolean miss = !cache.contains(p);
                    hits.set(ordinal, !miss);
                    if (miss && from < 0) {
                        from = p;
                    } else if (!miss && from >= 0) {
                        misses.add(new ResultRange(from, p));
                        from = -1;
                    }
                }
                if (from >= 0) {
                    misses.add(new ResultRange(from, r.to()));
                }
            }
            return misses;
        }

        boolean hasNext() {
            return range < ranges.size();
        }

        Sample next() {
            long p = next;
            next++;
            if (next == ranges.get(range).to()) {
                range++;
                if (range < ranges.size()) {
                    next = ranges.get(range).from();
                }
            }
            if (cache == null) {
                return stream.next();
            }
            if (hits.get(ordinal++)) {
                Sample cached = cache.get(p);
                if (cached != null) {
                    cacheHits++;
                    return cached;
                }
                // Evicted since, or damaged and dropped: read this one sample from the store.
                try (SampleStream one = prepared.read(List.of(new ResultRange(p, p + 1)))) {
                    Sample sample = one.next();
                    count(one);
                    cacheMisses++;
                    cache.put(p, sample);
                    return sample;
                }
            }
            Sample sample = stream.next();
            cacheMisses++;
            cache.put(p, sample);
            return sample;
        }

        void close() {
            if (!closed && stream != null) {
                closed = true;
                stream.close();
                count(stream);
            }
        }

        private void count(SampleStream finished) {
            MetricsSnapshot transfer = finished.stats().transfer();
            bytesRead += transfer.bytesReceived();
            requests += transfer.totalRequests();
        }
    }
}
