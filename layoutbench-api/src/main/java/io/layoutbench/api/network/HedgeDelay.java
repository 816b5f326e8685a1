package io.layoutbench.api.network;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When a read is slow enough to be worth a duplicate (a hedged request): the rule optimized retrieval hedges by and
 * {@link NetworkModel#expectation} predicts with, so the two agree.
 *
 * <p>A read of {@code b} bytes is checked {@link #firstCheckNanos} after it was sent: the profile's
 * {@value #LATENCY_QUANTILE}-quantile of first-byte latency ({@code q = median x e^(z σ)}, {@code z} =
 * {@value #LATENCY_QUANTILE_Z}) plus its bytes at its connection's rate. At a check, with {@code B} bytes of reads in
 * flight (duplicates included), {@link #recheckNanos} decides:
 * <ol>
 *   <li>The link is the bottleneck ({@code B / hostPeak > q}: draining what is in flight takes longer than the
 *       latency a duplicate could save): no duplicate now; check again when that would have drained. A duplicate
 *       there only takes a share of the link from everyone, the read it copies included.</li>
 *   <li>The read has not been out {@code q + max(b / perConnection, B / hostPeak)} (its latency quantile plus its
 *       bytes at the slower of its connection's rate and its share of the link): check again then.</li>
 *   <li>Otherwise: hedge it now.</li>
 * </ol>
 * The bytes in flight are taken when the check runs, not when the read was sent: the first reads of a burst see the
 * whole burst in flight by then (taken at sending, the first of 86 reads of 776 kB saw 776 kB, not 67 MB, and was
 * hedged while its bytes were still flowing).
 *
 * <p>Why this quantile: n reads side by side wait for the slowest of n first-byte draws; with σ 0.5 a duplicate
 * sent at the q-quantile brings the expected slowest of 13 reads from 2.40 times the median to 2.27 (q = 0.9), 2.14
 * (0.75) or 1.98 (0.5), at 10%, 25% and 50% more requests (20,000 simulated queries each; the slowest of 130: 3.75,
 * 3.09, 2.84, 2.64): 0.75 buys most of what 0.5 does for half the extra requests. Why the profile and not the
 * running query's peers: a query of 1 to 13 reads, the ones the tail hurts most, has too few peers to estimate a
 * quantile from before it is over, and on a network that behaves as its profile says the peers would only estimate
 * the profile's numbers.
 *
 * <p>With no jitter (σ 0) or no latency there is no tail to cut: a duplicate can only be as slow as the read it
 * copies, so {@link #worthwhile} is false and nothing is hedged.
 *
 * <pre>{@code
 * NetworkProfile t3 = NetworkProfiles.get("t3.medium");
 * long first = HedgeDelay.firstCheckNanos(t3, 110_000);                   // 42 ms + 1.9 ms
 * long wait = HedgeDelay.recheckNanos(t3, 110_000, 110_000, first);       // 0: alone and late: hedge it
 * long busy = HedgeDelay.recheckNanos(t3, 776_000, 66_700_000, first);    // 107 ms: the link is the bottleneck
 * }</pre>
 */
public final class HedgeDelay {

    /** The quantile of the profile's first-byte latency a read must exceed (plus its transfer) to be hedged. */
    public static final double LATENCY_QUANTILE = 0.75;

    /** The standard normal quantile of {@link #LATENCY_QUANTILE}. */
    public static final double LATENCY_QUANTILE_Z = 0.6744897501960817;

    /** Batches of more reads than this are never raced: {@link #racedCopies} would not pay for its simulation. */
    public static final int MAX_RACED_READS = 256;

    /** The most copies of a read {@link #racedCopies} sends at once. */
    public static final int MAX_RACED_COPIES = 3;

    /**
     * How much of the expected time one more copy of every read must save to be sent: a twentieth. A copy costs a GET
     * ($0.0000004) and, cancelled at the winner's first byte, no transfer; a twentieth of a 30-50 ms query is 1.5-2.5
     * ms.
     */
    public static final double MIN_RACE_GAIN = 0.05;

    /**
     * Requests {@link #racedCopies} simulates per choice it weighs (but {@value #CHOICE_MIN_RUNS} runs at least): it
     * runs while a query waits, so a quarter of what a prediction simulates.
     */
    private static final int CHOICE_READS = NetworkModel.EXPECTATION_READS / 4;

    /** Runs each choice is judged on at least: one run of a few dozen reads is as noisy as the gain it weighs. */
    private static final int CHOICE_MIN_RUNS = 4;

    /** Choices of {@link #racedCopies} kept, by profile, concurrency and sizes: a repeated query is not simulated. */
    private static final int REMEMBERED_CHOICES = 256;

    /** The smallest size {@link #racedCopiesAlone} weighs a read at: a page. */
    private static final long MIN_ALONE_BYTES = 4096;

    private static final Map<List<Object>, Integer> CHOICES = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<Object>, Integer> eldest) {
            return size() > REMEMBERED_CHOICES;
        }
    };

    private HedgeDelay() {
    }

    /**
     * How many copies of each read of a batch to send at once (a race: the first copy whose response starts wins, the
     * others are cancelled then, before they move a byte): 1 (no race: reads are hedged late, as
     * {@link #firstCheckNanos} says), 2 or 3. A hedge sent at the 75th percentile cannot cut the tail of a batch of a
     * few dozen reads far enough: the slowest of 13 first-byte draws (σ 0.5) is 2.4 times the median, 2.1 with late
     * hedges, 1.5 with two copies of every read and 1.2 with three (20,000 simulated batches each). Copies are cheap
     * where the link is idle (a GET costs $0.0000004, and a loser cancelled before its first byte moves nothing) and
     * dear where it is busy (they take its bandwidth
     * from the reads they copy), so the choice is the network model's: the expected time of the batch
     * ({@link NetworkModel#expectation(NetworkProfile, List, int, int)}) with late hedges, then with 2 and 3 copies,
     * each taken only if it saves at least {@value #MIN_RACE_GAIN} of the time before it. The cost model predicts
     * with the same choice. Not raced (1): batches of more bytes than the profile's bandwidth-delay product (the link
     * bounds them, not a latency draw, and the model's small gain there was lost to the client's work for the copies:
     * at mini on t3.medium, raced Q6 and Q7, 66 MB each, went from 1.1-1.3 times their bound to 1.4-1.6), batches of
     * more than {@value #MAX_RACED_READS} reads, and profiles where hedging is not {@link #worthwhile}.
     *
     * <pre>{@code
     * NetworkProfile t3 = NetworkProfiles.get("t3.medium");
     * HedgeDelay.racedCopies(t3, Collections.nCopies(13, 92_000L), 297);     // 3: thirteen small reads, idle link
     * HedgeDelay.racedCopies(t3, Collections.nCopies(86, 776_000L), 297);    // 1: 67 MB, over t3's 19 MB BDP
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code concurrency} is below 1
     */
    public static int racedCopies(NetworkProfile profile, List<Long> requestSizes, int concurrency) {
        requireNonNull(profile, "profile is null");
        requireNonNull(requestSizes, "requestSizes is null");
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be >= 1, got " + concurrency);
        }
        if (!worthwhile(profile) || requestSizes.isEmpty() || requestSizes.size() > MAX_RACED_READS) {
            return 1;
        }
        long batchBytes = 0;
        for (Long size : requestSizes) {
            batchBytes += requireNonNull(size, "a request size is null");
        }
        if (batchBytes > profile.bandwidthDelayProduct()) {
            return 1;   // the link, not a latency draw, bounds the batch
        }
        List<Object> key = List.of(profile, concurrency, List.copyOf(requestSizes));
        synchronized (CHOICES) {
            Integer known = CHOICES.get(key);
            if (known != null) {
                return known;
            }
        }
        long best = NetworkModel.expectation(profile, requestSizes, concurrency, 1, choiceReads(requestSizes, 1))
                .time().toNanos();
        int copies = 1;
        for (int more = 2; more <= MAX_RACED_COPIES; more++) {
            long time = NetworkModel.expectation(profile, requestSizes, concurrency, more,
                    choiceReads(requestSizes, more)).time().toNanos();
            if (time > best * (1 - MIN_RACE_GAIN)) {
                break;
            }
            best = time;
            copies = more;
        }
        synchronized (CHOICES) {
            CHOICES.put(key, copies);
        }
        return copies;
    }

    /**
     * How many copies to send at once of a read that is a round trip of its own, one nothing else waits beside: a
     * cold query's metadata reads, each of which needs the one before (a footer, then the chunks it locates). It is
     * {@link #racedCopies} of a batch of that one read, with a slot for each copy. The size is rounded up to a power
     * of two (4 KiB at least), so that the choices remembered stay few whatever sizes footers and chunks have; a
     * read of more than the profile's bandwidth-delay product is not raced, as in {@link #racedCopies}, nor one whose
     * rounded size is (on t3.medium, 18.75 MB: reads over 16 MiB). The cost model prices a cold plan's metadata reads
     * with the same choice.
     *
     * <pre>{@code
     * HedgeDelay.racedCopiesAlone(NetworkProfiles.get("t3.medium"), 65_536);       // 3: a footer's tail
     * HedgeDelay.racedCopiesAlone(NetworkProfiles.get("t3.medium"), 40_000_000);   // 1: over t3's 19 MB BDP
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code readBytes} is negative
     */
    public static int racedCopiesAlone(NetworkProfile profile, long readBytes) {
        requireNonNull(profile, "profile is null");
        if (readBytes < 0) {
            throw new IllegalArgumentException("readBytes must be >= 0, got " + readBytes);
        }
        if (readBytes > profile.bandwidthDelayProduct() || readBytes > Long.MAX_VALUE / 2) {
            return 1;
        }
        long rounded = readBytes <= MIN_ALONE_BYTES ? MIN_ALONE_BYTES : Long.highestOneBit(readBytes - 1) << 1;
        return racedCopies(profile, List.of(rounded), MAX_RACED_COPIES);
    }

    /**
     * Whether hedging can shorten reads on {@code profile}: its first-byte latency has a spread (σ > 0).
     *
     * <pre>{@code
     * HedgeDelay.worthwhile(NetworkProfiles.get("t3.medium"));                          // true: σ 0.5
     * HedgeDelay.worthwhile(NetworkProfiles.get("t3.medium").withLatencyJitter(0));     // false
     * }</pre>
     */
    public static boolean worthwhile(NetworkProfile profile) {
        requireNonNull(profile, "profile is null");
        return profile.latencyJitter() > 0 && !profile.firstByteLatency().isZero();
    }

    /**
     * How long after it was sent a read of {@code readBytes} is first checked: the latency quantile plus its bytes
     * at its connection's rate; {@link Long#MAX_VALUE} (never) where hedging is not {@link #worthwhile}.
     *
     * <pre>{@code
     * timer.schedule(HedgeDelay.firstCheckNanos(profile, request.bytes()), read::check);
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code readBytes} is negative
     */
    public static long firstCheckNanos(NetworkProfile profile, long readBytes) {
        if (readBytes < 0) {
            throw new IllegalArgumentException("readBytes must be >= 0, got " + readBytes);
        }
        if (!worthwhile(profile)) {
            return Long.MAX_VALUE;
        }
        return nanos(latencyQuantileNanos(profile) + transferNanos(readBytes, profile.connectionBytesPerSecond()));
    }

    /**
     * At a check of a read of {@code readBytes} sent {@code sentAgoNanos} ago and not yet complete, with
     * {@code bytesInFlight} bytes of reads in flight (duplicates included): 0 to hedge it now, else how long to
     * wait before checking again; {@link Long#MAX_VALUE} where hedging is not {@link #worthwhile}.
     *
     * <pre>{@code
     * long wait = HedgeDelay.recheckNanos(profile, bytes, bytesInFlight, now - sentAt);
     * if (wait == 0) sendDuplicate(); else if (wait != Long.MAX_VALUE) timer.schedule(wait, read::check);
     * }</pre>
     *
     * @throws IllegalArgumentException if a count or the time is negative
     */
    public static long recheckNanos(NetworkProfile profile, long readBytes, long bytesInFlight, long sentAgoNanos) {
        if (readBytes < 0 || bytesInFlight < 0 || sentAgoNanos < 0) {
            throw new IllegalArgumentException("readBytes, bytesInFlight and sentAgoNanos must be >= 0, got "
                    + readBytes + ", " + bytesInFlight + " and " + sentAgoNanos);
        }
        if (!worthwhile(profile)) {
            return Long.MAX_VALUE;
        }
        double latency = latencyQuantileNanos(profile);
        double drain = transferNanos(Math.max(readBytes, bytesInFlight), profile.host().burstBytesPerSecond());
        if (drain > latency) {
            return Math.max(1, nanos(drain));
        }
        double due = latency + Math.max(transferNanos(readBytes, profile.connectionBytesPerSecond()), drain);
        return Math.max(0, nanos(due) - sentAgoNanos);
    }

    /** Requests to simulate for one choice: {@value #CHOICE_MIN_RUNS} runs at least, each of every copy. */
    private static int choiceReads(List<Long> requestSizes, int copies) {
        return Math.max(CHOICE_READS, CHOICE_MIN_RUNS * requestSizes.size() * copies);
    }

    private static double latencyQuantileNanos(NetworkProfile profile) {
        return profile.firstByteLatency().toNanos() * Math.exp(LATENCY_QUANTILE_Z * profile.latencyJitter());
    }

    /** Nanoseconds to move {@code bytes} at {@code bytesPerSecond} (zero at an infinite rate). */
    private static double transferNanos(long bytes, double bytesPerSecond) {
        return Double.isInfinite(bytesPerSecond) ? 0 : bytes / bytesPerSecond * 1e9;
    }

    private static long nanos(double nanos) {
        return nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(nanos);
    }
}
