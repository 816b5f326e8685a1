package io.layoutbench.api.network;

import static java.util.Objects.requireNonNull;

/**
 * When a read is slow enough to be worth a duplicate (a hedged request): the rule optimized retrieval hedges by and
 * {@link NetworkModel#expectation} predicts with, so the two agree.
 *
 * <p>A read of {@code b} bytes launched with {@code B} bytes in flight (itself included) is hedged if it has not
 * completed {@code median x e^(z σ) + max(b / perConnection, B / hostPeak)} after it was sent: the profile's
 * {@value #LATENCY_QUANTILE}-quantile of first-byte latency ({@code z} = {@value #LATENCY_QUANTILE_Z}), plus how long
 * its bytes take at the slower of its connection's rate and its share of the host's peak rate if everything in
 * flight receives at once. The transfer term keeps large reads, and reads in a query that fills the link, from
 * being hedged for the time their bytes take: a duplicate there only halves everyone's share of the link.
 *
 * <p>Why this quantile: n reads side by side wait for the slowest of n first-byte draws; with σ 0.5 a duplicate
 * sent at the q-quantile brings the expected slowest of 13 reads from 2.40 times the median to 2.27 (q = 0.9), 2.14
 * (0.75) or 1.98 (0.5), at 10%, 25% and 50% more requests (20,000 simulated queries each; the slowest of 130: 3.75,
 * 3.09, 2.84, 2.64): 0.75 buys most of what 0.5 does for half the extra requests. Why the profile and not the running query's peers:
 * a query of 1 to 13 reads, the ones the tail hurts most, has too few peers to estimate a quantile from before it
 * is over, and on a network that behaves as its profile says the peers would only estimate the profile's numbers.
 *
 * <p>With no jitter (σ 0) or no latency there is no tail to cut: a duplicate can only be as slow as the read it
 * copies, so {@link #worthwhile} is false and nothing is hedged.
 *
 * <pre>{@code
 * NetworkProfile t3 = NetworkProfiles.get("t3.medium");
 * long delay = HedgeDelay.nanos(t3, 110_000, 110_000);       // 30 ms x 1.40 + 1.9 ms = 44 ms
 * long busy = HedgeDelay.nanos(t3, 110_000, 26_000_000);     // 42 ms + 41.6 ms: the link is shared
 * }</pre>
 */
public final class HedgeDelay {

    /** The quantile of the profile's first-byte latency a read must exceed (plus its transfer) to be hedged. */
    public static final double LATENCY_QUANTILE = 0.75;

    /** The standard normal quantile of {@link #LATENCY_QUANTILE}. */
    public static final double LATENCY_QUANTILE_Z = 0.6744897501960817;

    private HedgeDelay() {
    }

    /** Whether hedging can shorten reads on {@code profile}: its first-byte latency has a spread (σ > 0). */
    public static boolean worthwhile(NetworkProfile profile) {
        requireNonNull(profile, "profile is null");
        return profile.latencyJitter() > 0 && !profile.firstByteLatency().isZero();
    }

    /**
     * How long after it was sent a read of {@code readBytes} is hedged, with {@code bytesInFlight} bytes of reads in
     * flight (this one included); {@link Long#MAX_VALUE} (never) where hedging is not {@link #worthwhile}.
     *
     * @throws IllegalArgumentException if a count is negative
     */
    public static long nanos(NetworkProfile profile, long readBytes, long bytesInFlight) {
        if (readBytes < 0 || bytesInFlight < 0) {
            throw new IllegalArgumentException("readBytes and bytesInFlight must be >= 0, got " + readBytes + " and "
                    + bytesInFlight);
        }
        if (!worthwhile(profile)) {
            return Long.MAX_VALUE;
        }
        double latency = profile.firstByteLatency().toNanos() * Math.exp(LATENCY_QUANTILE_Z
                * profile.latencyJitter());
        double ownRate = readBytes / profile.connectionBytesPerSecond();
        double shareOfLink = Math.max(readBytes, bytesInFlight) / profile.host().burstBytesPerSecond();
        double transfer = Math.max(ownRate, shareOfLink) * 1e9;
        double total = latency + (Double.isNaN(transfer) ? 0 : transfer);
        return total >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(total);
    }
}
