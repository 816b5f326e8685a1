package io.layoutbench.layouts.retrieval;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.metrics.MetricsSnapshot;

import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How many reads a query keeps in flight, adapted while it runs: it starts where the network profile puts it (its
 * bandwidth-delay product, {@link io.layoutbench.api.layout.QueryOptions#readsInFlight}), grows while throughput
 * grows, and backs off when the store throttles or latency rises; never above its ceiling (the query's cap and what
 * its byte budget holds, {@link io.layoutbench.api.layout.QueryOptions#readsInFlightCeiling}), never below one.
 *
 * <p>It decides once per <b>round</b>: as many completed reads as the window held when the round began (at least
 * {@value #MIN_ROUND_READS}), about one round trip when the window is what holds reads back. At the end of a round:
 * <ol>
 *   <li>Any retry in the round (the backend's {@link io.layoutbench.api.backend.Retrier} counts one for every
 *       throttled, failed or timed-out attempt): the window halves. Throttling is the store saying "fewer".</li>
 *   <li>Mean time to first byte over {@value #LATENCY_RISE} times the lowest round's: the window shrinks by a quarter.
 *       First-byte time does not grow with a read's size, so it shows queueing at the store or on the path.</li>
 *   <li>A growth tried in the previous round is judged: if throughput did not rise by {@value #GROWTH_THAT_PAYS}
 *       times, or the window was not full (the byte budget held reads back), the window goes back to what it was
 *       and holds there (the link or the budget, not the window, is the limit).</li>
 *   <li>Otherwise, if the window was full in the round (a read waited for a slot, not for the byte budget or the
 *       end of the query): while probing, it doubles; after a back-off it regains an eighth a round up to where it
 *       backed off from, then probes again.</li>
 * </ol>
 * After a back-off, the reads launched before it are ignored: they ran under the larger window, and their retries
 * would halve the new one again for the same burst.
 *
 * <p>Why not Netflix's {@code concurrency-limits} (Vegas, Gradient2)? They judge congestion by a request's whole round
 * trip, assuming requests of similar cost; a query's reads range from 64 KiB footers to merged reads of megabytes,
 * whose round trips differ by their transfer time. First-byte time and bytes per second are what this window
 * watches instead.
 *
 * <pre>{@code
 * ReadWindow window = ReadWindow.adaptive(297, 588, metrics::snapshot, System::nanoTime);
 * if (inFlight >= window.limit()) window.onFull();   // a read waits for a slot
 * long launch = window.onLaunched();                 // a read goes out
 * window.onCompleted(bytes, launch);                 // it finished; may end a round and move the limit
 * }</pre>
 *
 * <p>Not thread-safe: the retrieval calls it under its own lock.
 */
final class ReadWindow {

    /**
     * Fewest completed reads that make a round, so that a few slow reads do not decide alone: the mean first-byte
     * time of 16 reads under the presets' jitter (σ = 0.5) varies by about 13%, far from {@link #LATENCY_RISE}.
     */
    static final int MIN_ROUND_READS = 16;

    /** Mean first-byte time over the lowest round's mean by this factor means queueing: shrink. */
    static final double LATENCY_RISE = 2.0;

    /** A growth pays if throughput rises at least by this factor in the round after it. */
    static final double GROWTH_THAT_PAYS = 1.10;

    private enum Phase { PROBING, HOLDING, RECOVERING, FIXED }

    private final int ceiling;
    private final Supplier<MetricsSnapshot> signals;
    private final LongSupplier nanoClock;
    private int limit;
    private Phase phase;
    private int limitBeforeGrowth = -1;
    private double rateBeforeGrowth;
    private int recoverTo;
    private double lowestLatencyNanos = Double.POSITIVE_INFINITY;

    private long roundStartNanos;
    private int roundTarget;
    private int roundReads;
    private long roundBytes;
    private boolean roundFull;
    private long roundStartRetries;
    private long roundStartFirstByteNanos;
    private long roundStartFirstByteCount;

    private int peak;
    private int backOffs;
    private long launches;
    /** Reads launched before this ran under the window a back-off replaced: their signals are not the new one's. */
    private long quietBefore;
    private boolean roundPending;

    private ReadWindow(int start, int ceiling, Phase phase, Supplier<MetricsSnapshot> signals, LongSupplier nanoClock) {
        if (start < 1 || ceiling < start) {
            throw new IllegalArgumentException("need 1 <= start <= ceiling, got start " + start + ", ceiling "
                    + ceiling);
        }
        this.limit = start;
        this.peak = start;
        this.ceiling = ceiling;
        this.phase = phase;
        this.signals = signals;
        this.nanoClock = nanoClock;
        if (phase != Phase.FIXED) {
            startRound();
        }
    }

    /**
     * A window that adapts between one and {@code ceiling}, starting at {@code start}; {@code signals} gives the
     * query's retries and first-byte times so far, {@code nanoClock} the time.
     */
    static ReadWindow adaptive(int start, int ceiling, Supplier<MetricsSnapshot> signals, LongSupplier nanoClock) {
        return new ReadWindow(start, ceiling, Phase.PROBING, requireNonNull(signals, "signals is null"),
                requireNonNull(nanoClock, "nanoClock is null"));
    }

    /** A window that stays at {@code size} (the paper's fixed concurrency). */
    static ReadWindow fixed(int size) {
        return new ReadWindow(size, size, Phase.FIXED, null, null);
    }

    /** Reads that may be in flight now. */
    int limit() {
        return limit;
    }

    /** The largest the window has been. */
    int peak() {
        return peak;
    }

    /** How many times it shrank for throttling or rising latency. */
    int backOffs() {
        return backOffs;
    }

    /** A read was ready to go but the window was full. */
    void onFull() {
        roundFull = true;
    }

    /** A read is being launched; returns its launch number, which its {@link #onCompleted} passes back. */
    long onLaunched() {
        return launches++;
    }

    /**
     * A read of {@code bytes} completed (or failed); may end a round and move the limit. Reads launched before the
     * last back-off do not count: they ran under the window it replaced, and their retries and first-byte times
     * would shrink the new one again for the same cause.
     */
    void onCompleted(long bytes, long launchNumber) {
        if (phase == Phase.FIXED || launchNumber < quietBefore) {
            return;
        }
        if (roundPending) {
            roundPending = false;
            startRound();
        }
        roundReads++;
        roundBytes += bytes;
        if (roundReads >= roundTarget) {
            endRound();
            if (!roundPending) {
                startRound();
            }
        }
    }

    private void startRound() {
        MetricsSnapshot now = signals.get();
        roundStartNanos = nanoClock.getAsLong();
        roundTarget = Math.max(MIN_ROUND_READS, limit);
        roundReads = 0;
        roundBytes = 0;
        roundFull = false;
        roundStartRetries = now.totalRetries();
        roundStartFirstByteNanos = now.firstByteNanos();
        roundStartFirstByteCount = now.firstByteCount();
    }

    private void endRound() {
        MetricsSnapshot now = signals.get();
        long elapsed = Math.max(1, nanoClock.getAsLong() - roundStartNanos);
        double rate = roundBytes * 1e9 / elapsed;
        long retries = now.totalRetries() - roundStartRetries;
        long firstBytes = now.firstByteCount() - roundStartFirstByteCount;
        double latency = firstBytes == 0 ? Double.NaN
                : (double) (now.firstByteNanos() - roundStartFirstByteNanos) / firstBytes;
        if (!Double.isNaN(latency)) {
            lowestLatencyNanos = Math.min(lowestLatencyNanos, latency);
        }
        if (retries > 0) {
            backOff(limit / 2);
        } else if (latency > LATENCY_RISE * lowestLatencyNanos) {
            backOff((int) (limit * 3L / 4));
        } else if (limitBeforeGrowth > 0) {
            judgeGrowth(rate);
        } else if (roundFull && limit < ceiling) {
            grow(rate);
        }
    }

    private void backOff(int smaller) {
        recoverTo = Math.max(recoverTo, limit);
        limit = Math.max(1, smaller);
        limitBeforeGrowth = -1;
        phase = Phase.RECOVERING;
        backOffs++;
        quietBefore = launches;
        roundPending = true;
    }

    private void judgeGrowth(double rate) {
        // A round in which the window was not full did not use the growth (the budget or the query's end held reads
        // back): it did not pay either.
        if (!roundFull || rate < rateBeforeGrowth * GROWTH_THAT_PAYS) {
            limit = limitBeforeGrowth;
            phase = Phase.HOLDING;
        }
        limitBeforeGrowth = -1;
    }

    private void grow(double rate) {
        switch (phase) {
            case PROBING -> {
                limitBeforeGrowth = limit;
                rateBeforeGrowth = rate;
                setLimit(2L * limit);
            }
            case RECOVERING -> {
                setLimit(Math.min(recoverTo, limit + Math.max(1L, limit / 8)));
                if (limit >= recoverTo) {
                    recoverTo = 0;
                    phase = Phase.PROBING;
                }
            }
            case HOLDING, FIXED -> {
                // The link, not the window, limited the last growth: stay.
            }
        }
    }

    private void setLimit(long wanted) {
        limit = (int) Math.min(ceiling, wanted);
        peak = Math.max(peak, limit);
    }
}
