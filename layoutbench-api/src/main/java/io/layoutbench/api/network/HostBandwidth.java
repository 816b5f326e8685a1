package io.layoutbench.api.network;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How fast the client host itself can receive, summed over all its connections: a sustained baseline and, for
 * EC2 instances sold as "up to" some bandwidth, a higher burst rate paid for from a credit bucket.
 *
 * <p><b>Baseline vs burst.</b> EC2 instances with 16 vCPUs or fewer are documented with "up to" a bandwidth: they
 * have a baseline and "can use a network I/O credit mechanism to burst beyond their baseline bandwidth ... for a
 * limited time, typically from 5 to 60 minutes, depending on the instance size" (AWS, <i>Amazon EC2 instance
 * network bandwidth</i>). AWS does not publish the bucket size, so it is modelled as a token bucket whose size is
 * given as {@code burstDuration}: how long a full bucket lets the host run flat out at the burst rate. While the
 * host receives faster than its baseline the bucket drains at {@code (rate - baseline)}; while it receives slower it
 * refills at {@code (baseline - rate)}; when it is empty the cap falls back to the baseline. The bucket starts full
 * (an instance idle before the benchmark).
 *
 * <pre>{@code
 * HostBandwidth t3Medium = HostBandwidth.burstable(
 *         NetworkProfile.gbps(0.256), NetworkProfile.gbps(5), Duration.ofMinutes(5));
 * HostBandwidth flat = HostBandwidth.sustained(NetworkProfile.gbps(10));
 * }</pre>
 *
 * @param baselineBytesPerSecond sustained receive rate of the host, bytes per second; may be
 *                               {@link Double#POSITIVE_INFINITY} (no cap)
 * @param burstBytesPerSecond    receive rate while burst credit lasts, at least the baseline; equal to it when the
 *                               host does not burst
 * @param burstDuration          how long a full credit bucket sustains the burst rate; zero when the host does not
 *                               burst
 */
public record HostBandwidth(double baselineBytesPerSecond, double burstBytesPerSecond, Duration burstDuration) {

    private static final HostBandwidth UNLIMITED =
            new HostBandwidth(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Duration.ZERO);

    public HostBandwidth {
        requireNonNull(burstDuration, "burstDuration is null");
        if (!(baselineBytesPerSecond > 0)) {
            throw new IllegalArgumentException(
                    "Host baseline bandwidth must be > 0 bytes/s, got " + baselineBytesPerSecond);
        }
        if (!(burstBytesPerSecond >= baselineBytesPerSecond)) {
            throw new IllegalArgumentException("Host burst bandwidth " + burstBytesPerSecond
                    + " bytes/s must be at least the baseline " + baselineBytesPerSecond + " bytes/s");
        }
        if (burstDuration.isNegative()) {
            throw new IllegalArgumentException("Host burst duration must be >= 0, got " + burstDuration);
        }
        boolean bursts = burstBytesPerSecond > baselineBytesPerSecond;
        if (bursts && Double.isInfinite(burstBytesPerSecond)) {
            // An infinite rate drained from a finite bucket has no meaning; "no cap" is an infinite baseline.
            throw new IllegalArgumentException("Host burst bandwidth must be finite when the baseline ("
                    + baselineBytesPerSecond + " bytes/s) is; use an infinite baseline for no cap");
        }
        if (bursts && burstDuration.isZero()) {
            throw new IllegalArgumentException("Host burst bandwidth " + burstBytesPerSecond
                    + " bytes/s above the baseline " + baselineBytesPerSecond
                    + " bytes/s needs a positive burstDuration (how long the credit lasts)");
        }
        if (!bursts) {
            // One spelling for "does not burst", so equal hosts are equal records.
            burstDuration = Duration.ZERO;
        }
    }

    /** No cap at all (the {@code none} profile). */
    public static HostBandwidth unlimited() {
        return UNLIMITED;
    }

    /** A host that receives at most {@code bytesPerSecond}, always. */
    public static HostBandwidth sustained(double bytesPerSecond) {
        return new HostBandwidth(bytesPerSecond, bytesPerSecond, Duration.ZERO);
    }

    /** A host with a baseline that can burst to {@code burst} for {@code burstDuration} from a full bucket. */
    public static HostBandwidth burstable(double baseline, double burst, Duration burstDuration) {
        return new HostBandwidth(baseline, burst, burstDuration);
    }

    /** Whether the host can go above its baseline. */
    public boolean bursts() {
        return burstBytesPerSecond > baselineBytesPerSecond;
    }

    /** Whether there is no cap. */
    public boolean isUnlimited() {
        return Double.isInfinite(baselineBytesPerSecond);
    }

    /**
     * Size of a full credit bucket in bytes: the bytes above baseline a host may receive before it falls back to
     * the baseline, {@code (burst - baseline) x burstDuration}. Zero when the host does not burst.
     */
    public double burstCreditBytes() {
        if (!bursts()) {
            return 0;
        }
        return (burstBytesPerSecond - baselineBytesPerSecond) * burstDuration.toNanos() / 1e9;
    }

    /**
     * Seconds this host takes to receive {@code bytes} with a full credit bucket, however many connections carry them:
     * at the burst rate while the bucket lasts, then at the baseline. Zero for an unlimited host.
     *
     * <pre>{@code
     * double s = NetworkProfiles.get("t3.medium").host().transferSeconds(204e6);   // 204 MB at 5 Gbps: 0.326 s
     * }</pre>
     */
    public double transferSeconds(double bytes) {
        if (!(bytes >= 0)) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
        if (isUnlimited() || bytes == 0) {
            return 0;
        }
        if (!bursts()) {
            return bytes / baselineBytesPerSecond;
        }
        double burstSeconds = burstDuration.toNanos() / 1e9;
        double atBurst = burstBytesPerSecond * burstSeconds;
        return bytes <= atBurst ? bytes / burstBytesPerSecond
                : burstSeconds + (bytes - atBurst) / baselineBytesPerSecond;
    }

    /** This host limited to its baseline: what a long benchmark sees once the credit is spent. */
    public HostBandwidth withoutBurst() {
        return sustained(baselineBytesPerSecond);
    }
}
