package io.layoutbench.api.network;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The named {@link NetworkProfile}s: the client instances of the LayoutBench paper, and {@code none}.
 *
 * <table>
 *   <caption>Presets (bandwidth in Gbps as EC2 quotes it; 1 Gbps = 125 MB/s)</caption>
 *   <tr><th>name</th><th>first byte</th><th>per connection</th><th>host baseline</th><th>host burst</th>
 *       <th>set-up</th><th>connections</th><th>$/h</th></tr>
 *   <tr><td>none</td><td>0</td><td>unlimited</td><td>unlimited</td><td>-</td><td>0</td><td>unlimited</td>
 *       <td>0</td></tr>
 *   <tr><td>t3.medium</td><td>30 ms, σ 0.5</td><td>55 MiB/s</td><td>0.256</td><td>5 for 5 min</td><td>5 ms</td>
 *       <td>297</td><td>0.0416</td></tr>
 *   <tr><td>c5.large</td><td>30 ms, σ 0.5</td><td>55 MiB/s</td><td>0.75</td><td>10 for 5 min</td><td>5 ms</td>
 *       <td>594</td><td>0.0850</td></tr>
 *   <tr><td>c8gb.large</td><td>30 ms, σ 0.5</td><td>55 MiB/s</td><td>20 (unconfirmed)</td><td>-</td><td>5 ms</td>
 *       <td>1188</td><td>0.1185</td></tr>
 *   <tr><td>t3.large</td><td>30 ms, σ 0.5</td><td>55 MiB/s</td><td>0.512</td><td>5 for 5 min</td><td>5 ms</td>
 *       <td>297</td><td>0.0832</td></tr>
 *   <tr><td>t3.xlarge</td><td>30 ms, σ 0.5</td><td>55 MiB/s</td><td>1.024</td><td>5 for 5 min</td><td>5 ms</td>
 *       <td>297</td><td>0.1664</td></tr>
 *   <tr><td>t3.2xlarge</td><td>30 ms, σ 0.5</td><td>55 MiB/s</td><td>2.048</td><td>5 for 5 min</td><td>5 ms</td>
 *       <td>297</td><td>0.3328</td></tr>
 * </table>
 *
 * <p>Where each number comes from (checked 2025-2026; prices and bandwidth change, so check before relying on them):
 * <ul>
 *   <li><b>First-byte latency 30 ms</b>: AWS's S3 performance guidance gives a median first-byte latency in the
 *       "tens of milliseconds" for requests under 512 KB; 30 ms is a value inside that band, not a measurement.
 *       <b>Jitter σ = 0.5</b> (p99 = 3.2 x median) is an assumption standing for S3's long latency tail; measure
 *       your own and use {@link NetworkProfile#withLatencyJitter}.</li>
 *   <li><b>Per connection 55 MiB/s</b>: Durner, Leis and Neumann, "Exploiting Cloud Object Storage for
 *       High-Performance Analytics", PVLDB 16(11), 2023, measured 25-95 MiB/s per S3 connection with a median of
 *       55-60 MiB/s; AWS suggests one connection per 85-90 MB/s wanted. EC2 also caps a single flow at 5 Gbps,
 *       far above this, so that cap never binds here.</li>
 *   <li><b>Host bandwidth</b>: t3.medium 0.256 Gbps baseline, burst to 5 Gbps; c5.large 0.75 baseline, burst to
 *       10 (the paper's Table 3 and AWS). t3.large 0.512, t3.xlarge 1.024 and t3.2xlarge 2.048 Gbps baseline,
 *       burst to 5 Gbps, are from AWS's published instance network-bandwidth table, not from the paper.
 *       <b>c8gb.large</b>: the paper's Table 3 says "up to 20 Gbps"; its baseline is not confirmed, so it is
 *       modelled as a sustained 20 Gbps with no burst bucket, an upper bound. Override it with
 *       {@link NetworkProfile#withHost} once the baseline is known.</li>
 *   <li><b>Burst length 5 minutes</b>: AWS says instances "can use burst bandwidth for a limited time, typically
 *       from 5 to 60 minutes, depending on the instance size" and publishes no bucket sizes; the presets take the
 *       short end. {@link NetworkProfile#withoutBurst()} gives the baseline-only case.</li>
 *   <li><b>Connection set-up 5 ms</b>: an estimate, not a measurement: a TCP handshake plus a TLS handshake is
 *       about three round trips inside a region (around 1 ms each) plus the key exchange on a small instance.</li>
 *   <li><b>Connections</b>: as many as keep the host's link full with reads of 64 KiB, the smallest read worth
 *       sending alone ({@link NetworkProfile#requestsToFillLink}: 297 at 5 Gbps, 594 at 10, 1,188 at 20). A query
 *       of small reads needs hundreds in flight to reach its bandwidth (the bandwidth-delay product of a t3.medium
 *       is 18.75 MB, 170 ImageNet images); the AWS SDK's default pool of 50 connections would cap it at a quarter
 *       of that. The CRT S3 client sizes its pool from a target throughput in the same way.</li>
 *   <li><b>Hourly prices</b>: the paper's on-demand rates (us-east-1): t3.medium $0.0416, c5.large $0.0850,
 *       c8gb.large $0.1185, t3.large $0.0832, t3.xlarge $0.1664, t3.2xlarge $0.3328.</li>
 * </ul>
 *
 * <pre>{@code
 * NetworkProfile client = NetworkProfiles.get("c5.large");
 * System.out.println(NetworkProfiles.names());   // [none, t3.medium, c5.large, c8gb.large, ...]
 * }</pre>
 */
public final class NetworkProfiles {

    /** Median first-byte latency of every instance preset (see the class comment for the source). */
    public static final Duration S3_FIRST_BYTE_LATENCY = Duration.ofMillis(30);
    /** Lognormal σ of the first-byte latency of every instance preset (an assumption). */
    public static final double S3_LATENCY_JITTER = 0.5;
    /** Per-connection S3 throughput of every instance preset, bytes per second (55 MiB/s, Durner et al.). */
    public static final double S3_CONNECTION_BYTES_PER_SECOND = NetworkProfile.mibPerSecond(55);
    /** TCP + TLS set-up of a new connection (an estimate). */
    public static final Duration CONNECTION_SETUP = Duration.ofMillis(5);
    /** The read size the presets' connection pools are sized for: 64 KiB (see the class comment). */
    public static final long POOL_SIZING_READ_BYTES = 64 << 10;
    /** How long a full burst bucket lasts at the burst rate: the short end of AWS's "5 to 60 minutes". */
    public static final Duration BURST_DURATION = Duration.ofMinutes(5);

    /** No delay, unlimited bandwidth, free: the wrapped backend as it is. */
    public static final NetworkProfile NONE = new NetworkProfile("none", Duration.ZERO, 0,
            Double.POSITIVE_INFINITY, HostBandwidth.unlimited(), Duration.ZERO, Integer.MAX_VALUE, 0);
    /** t3.medium: 0.256 Gbps baseline, burst to 5; $0.0416/h. */
    public static final NetworkProfile T3_MEDIUM = burstable("t3.medium", 0.256, 5, 0.0416);
    /** c5.large: 0.75 Gbps baseline, burst to 10; $0.0850/h. */
    public static final NetworkProfile C5_LARGE = burstable("c5.large", 0.75, 10, 0.0850);
    /** c8gb.large: "up to 20 Gbps", baseline unconfirmed, modelled as a sustained 20 Gbps; $0.1185/h. */
    public static final NetworkProfile C8GB_LARGE =
            s3Client("c8gb.large", HostBandwidth.sustained(NetworkProfile.gbps(20)), 0.1185);
    /** t3.large: 0.512 Gbps baseline, burst to 5 (AWS instance network table); $0.0832/h. */
    public static final NetworkProfile T3_LARGE = burstable("t3.large", 0.512, 5, 0.0832);
    /** t3.xlarge: 1.024 Gbps baseline, burst to 5 (AWS instance network table); $0.1664/h. */
    public static final NetworkProfile T3_XLARGE = burstable("t3.xlarge", 1.024, 5, 0.1664);
    /** t3.2xlarge: 2.048 Gbps baseline, burst to 5 (AWS instance network table); $0.3328/h. */
    public static final NetworkProfile T3_2XLARGE = burstable("t3.2xlarge", 2.048, 5, 0.3328);

    private static final Map<String, NetworkProfile> BY_NAME = index(
            NONE, T3_MEDIUM, C5_LARGE, C8GB_LARGE, T3_LARGE, T3_XLARGE, T3_2XLARGE);

    private NetworkProfiles() {
    }

    /**
     * The preset called {@code name}, ignoring case.
     *
     * @throws IllegalArgumentException naming the unknown profile and listing the known ones
     */
    public static NetworkProfile get(String name) {
        requireNonNull(name, "network profile name is null");
        NetworkProfile profile = BY_NAME.get(name.trim().toLowerCase(Locale.ROOT));
        if (profile == null) {
            throw new IllegalArgumentException("Unknown network profile '" + name + "'; known profiles: "
                    + String.join(", ", names()));
        }
        return profile;
    }

    /** The preset names: {@code none} first, then the instances in the paper's order. */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    /** The presets, in the order of {@link #names()}. */
    public static List<NetworkProfile> all() {
        return List.copyOf(BY_NAME.values());
    }

    private static NetworkProfile burstable(String name, double baselineGbps, double burstGbps, double hourlyUsd) {
        return s3Client(name, HostBandwidth.burstable(NetworkProfile.gbps(baselineGbps),
                NetworkProfile.gbps(burstGbps), BURST_DURATION), hourlyUsd);
    }

    private static NetworkProfile s3Client(String name, HostBandwidth host, double hourlyUsd) {
        NetworkProfile profile = new NetworkProfile(name, S3_FIRST_BYTE_LATENCY, S3_LATENCY_JITTER,
                S3_CONNECTION_BYTES_PER_SECOND, host, CONNECTION_SETUP, 1, hourlyUsd);
        return profile.withMaxConnections(profile.requestsToFillLink(POOL_SIZING_READ_BYTES));
    }

    private static Map<String, NetworkProfile> index(NetworkProfile... profiles) {
        Map<String, NetworkProfile> byName = new LinkedHashMap<>();
        for (NetworkProfile profile : profiles) {
            if (byName.put(profile.name(), profile) != null) {
                throw new IllegalStateException("Two network presets are called " + profile.name());
            }
        }
        return java.util.Collections.unmodifiableMap(byName);
    }
}
