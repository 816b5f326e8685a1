package io.layoutbench.api.network;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;

/**
 * The network between a client instance and the object store, reduced to the few numbers that decide how long a
 * batch of GETs takes, plus what the instance costs per hour. Named presets for the LayoutBench paper's client
 * instances live in {@link NetworkProfiles}; {@link NetworkModel} turns a profile into request timings, and both the
 * simulated-network backend and the cost model use that one model.
 *
 * <p><b>What one request costs</b> (the model is documented in full on {@link NetworkModel}):
 * <pre>
 *   wait for a pooled connection (at most maxConnections are open)
 *   + connectionSetup                       only if no idle connection was free and a new one was opened
 *   + firstByteLatency x exp(latencyJitter x Z), Z ~ N(0, 1)
 *   + bytes / min(connectionBytesPerSecond, host cap / transfers receiving at the same time)
 * </pre>
 * The host cap is the {@link HostBandwidth} baseline or, while burst credit lasts, its burst rate.
 *
 * <p><b>Jitter</b> is lognormal: {@code latencyJitter} is the standard deviation σ of the natural logarithm of the
 * first-byte latency, so {@code firstByteLatency} stays the median, p90 is {@code median x e^(1.2816 σ)} and p99
 * {@code median x e^(2.3263 σ)}. With σ = 0.5, p90 is 1.9x and p99 3.2x the median. σ = 0 means no jitter.
 *
 * <pre>{@code
 * NetworkProfile t3 = NetworkProfiles.get("t3.medium");
 * NetworkProfile slowStore = t3.withFirstByteLatency(Duration.ofMillis(80)).withMaxConnections(16);
 * Duration batch = NetworkModel.predict(slowStore, List.of(110_000L, 110_000L, 4_000_000L), 8);
 * }</pre>
 *
 * @param name                     a short name, {@code t3.medium}; what reports print
 * @param firstByteLatency         median time from sending a request on an open connection to its first response
 *                                 byte (the store's latency, including one round trip), at least zero
 * @param latencyJitter            σ of the lognormal spread of the first-byte latency, at least zero
 * @param connectionBytesPerSecond how fast one connection receives once bytes flow, bytes per second; may be
 *                                 {@link Double#POSITIVE_INFINITY}
 * @param host                     how fast the host receives over all its connections together
 * @param connectionSetup          cost of opening a new connection (TCP and TLS handshakes), at least zero
 * @param maxConnections           size of the connection pool: requests beyond it wait for a connection to free up
 * @param hourlyPriceUsd           on-demand price of the client instance, US dollars per hour, at least zero
 */
public record NetworkProfile(
        String name,
        Duration firstByteLatency,
        double latencyJitter,
        double connectionBytesPerSecond,
        HostBandwidth host,
        Duration connectionSetup,
        int maxConnections,
        double hourlyPriceUsd) {

    public NetworkProfile {
        requireNonNull(name, "name is null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("Network profile name is blank");
        }
        requireNonNull(firstByteLatency, () -> "firstByteLatency of network profile " + name + " is null");
        requireNonNull(host, () -> "host of network profile " + name + " is null");
        requireNonNull(connectionSetup, () -> "connectionSetup of network profile " + name + " is null");
        if (firstByteLatency.isNegative()) {
            throw new IllegalArgumentException(
                    "Network profile " + name + ": first-byte latency must be >= 0, got " + firstByteLatency);
        }
        if (!(latencyJitter >= 0) || Double.isInfinite(latencyJitter)) {
            throw new IllegalArgumentException("Network profile " + name
                    + ": latency jitter (lognormal sigma) must be finite and >= 0, got " + latencyJitter);
        }
        if (!(connectionBytesPerSecond > 0)) {
            throw new IllegalArgumentException("Network profile " + name
                    + ": per-connection throughput must be > 0 bytes/s, got " + connectionBytesPerSecond);
        }
        if (connectionSetup.isNegative()) {
            throw new IllegalArgumentException(
                    "Network profile " + name + ": connection set-up must be >= 0, got " + connectionSetup);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException(
                    "Network profile " + name + ": maxConnections must be >= 1, got " + maxConnections);
        }
        if (!(hourlyPriceUsd >= 0) || Double.isInfinite(hourlyPriceUsd)) {
            throw new IllegalArgumentException("Network profile " + name
                    + ": hourly price must be a finite number of dollars >= 0, got " + hourlyPriceUsd);
        }
    }

    /**
     * The physical bound of a read of {@code payloadBytes}: one first-byte latency, then the payload over the host's
     * bandwidth ({@link HostBandwidth#transferSeconds}, a full credit bucket), with every request in flight at once.
     * No retrieval of that payload on this profile can be faster (the median latency; jitter aside); how far a query
     * stays above it says what its requests and their concurrency cost. Zero for an unlimited profile.
     *
     * <pre>{@code
     * Duration bound = NetworkProfiles.get("t3.medium").physicalBound(204_000_000L);   // 30 ms + 0.326 s
     * }</pre>
     */
    public Duration physicalBound(long payloadBytes) {
        if (payloadBytes < 0) {
            throw new IllegalArgumentException("payloadBytes must be >= 0, got " + payloadBytes);
        }
        if (isUnlimited()) {
            return Duration.ZERO;
        }
        return firstByteLatency.plusNanos(Math.round(host.transferSeconds(payloadBytes) * 1e9));
    }

    /**
     * The physical bound of a cold client's read of {@code payloadBytes}: it waits one first-byte latency per round
     * of metadata reads (a footer before the chunks it locates: they cannot overlap), then reads the payload, and the
     * metadata's bytes and the payload cross the host's link: {@code metadataRounds x latency +
     * physicalBound(metadataBytes + payloadBytes)}. With no metadata rounds it is {@link #physicalBound(long)}. Like
     * that bound it counts the median latency, jitter aside (a raced read can beat it), and no connection set-up (a
     * client opening a dataset has read its manifest already). Zero for an unlimited profile.
     *
     * <pre>{@code
     * NetworkProfile t3 = NetworkProfiles.get("t3.medium");
     * Duration cold = t3.physicalBound(1_200_000L, 2, 612_000L);   // 2 x 30 ms + 30 ms + 2.9 ms
     * }</pre>
     *
     * @throws IllegalArgumentException if a count is negative, or there are metadata bytes but no round
     */
    public Duration physicalBound(long payloadBytes, int metadataRounds, long metadataBytes) {
        if (metadataRounds < 0 || metadataBytes < 0 || (metadataRounds == 0 && metadataBytes > 0)) {
            throw new IllegalArgumentException("metadataRounds and metadataBytes must be >= 0, and bytes need a "
                    + "round: got " + metadataRounds + " rounds of " + metadataBytes + " bytes");
        }
        if (payloadBytes < 0 || metadataBytes > Long.MAX_VALUE - payloadBytes) {
            throw new IllegalArgumentException("payloadBytes must be >= 0 and fit beside " + metadataBytes
                    + " metadata bytes, got " + payloadBytes);
        }
        if (isUnlimited()) {
            return Duration.ZERO;
        }
        return physicalBound(payloadBytes + metadataBytes).plus(firstByteLatency.multipliedBy(metadataRounds));
    }

    /**
     * The host's bandwidth-delay product: bytes that must be in flight to keep its link full, its peak rate (the
     * burst rate while credit lasts) times the median first-byte latency. t3.medium: 5 Gbps x 30 ms = 18.75 MB.
     * Infinite for an unlimited host with latency, zero with no latency.
     */
    public double bandwidthDelayProduct() {
        double latency = firstByteLatency.toNanos() / 1e9;
        return latency == 0 ? 0 : host.burstBytesPerSecond() * latency;
    }

    /**
     * Requests of {@code requestBytes} each that must be in flight to keep the host's link full: each holds its
     * connection for a first-byte latency and then its transfer at the per-connection rate, so the link needs
     * {@code peak x (latency + requestBytes / perConnection) / requestBytes} of them, the bandwidth-delay product
     * over the request size plus the connections the peak rate needs once bytes flow. Not capped by
     * {@link #maxConnections}. t3.medium: 176 reads of 114 KB, 14 of 8 MB. {@link Integer#MAX_VALUE} when the
     * link cannot be filled (an unlimited host).
     *
     * <pre>{@code
     * int inFlight = NetworkProfiles.get("t3.medium").requestsToFillLink(114_000);   // 176
     * }</pre>
     */
    public int requestsToFillLink(double requestBytes) {
        if (!(requestBytes > 0) || Double.isInfinite(requestBytes)) {
            throw new IllegalArgumentException("requestBytes must be > 0 and finite, got " + requestBytes);
        }
        double peak = host.burstBytesPerSecond();
        if (Double.isInfinite(peak)) {
            return Integer.MAX_VALUE;
        }
        double holdSeconds = firstByteLatency.toNanos() / 1e9 + requestBytes / connectionBytesPerSecond;
        double requests = Math.ceil(peak * holdSeconds / requestBytes);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, requests));
    }

    /** Bytes per second in {@code gigabits} Gbps (10^9 bits per second, as EC2 quotes bandwidth). */
    public static double gbps(double gigabits) {
        return gigabits * 1e9 / 8;
    }

    /** Bytes per second in {@code mebibytes} MiB/s (2^20 bytes per second, as Durner et al. quote throughput). */
    public static double mibPerSecond(double mebibytes) {
        return mebibytes * 1024 * 1024;
    }

    /**
     * Whether requests cost no time at all: no latency, no set-up, no bandwidth limit. Decorators pass such a
     * profile straight through.
     */
    public boolean isUnlimited() {
        return firstByteLatency.isZero() && connectionSetup.isZero()
                && Double.isInfinite(connectionBytesPerSecond) && host.isUnlimited();
    }

    public NetworkProfile withName(String newName) {
        return new NetworkProfile(newName, firstByteLatency, latencyJitter, connectionBytesPerSecond, host,
                connectionSetup, maxConnections, hourlyPriceUsd);
    }

    public NetworkProfile withFirstByteLatency(Duration latency) {
        return new NetworkProfile(name, latency, latencyJitter, connectionBytesPerSecond, host, connectionSetup,
                maxConnections, hourlyPriceUsd);
    }

    public NetworkProfile withLatencyJitter(double sigma) {
        return new NetworkProfile(name, firstByteLatency, sigma, connectionBytesPerSecond, host, connectionSetup,
                maxConnections, hourlyPriceUsd);
    }

    public NetworkProfile withConnectionBytesPerSecond(double bytesPerSecond) {
        return new NetworkProfile(name, firstByteLatency, latencyJitter, bytesPerSecond, host, connectionSetup,
                maxConnections, hourlyPriceUsd);
    }

    public NetworkProfile withHost(HostBandwidth newHost) {
        return new NetworkProfile(name, firstByteLatency, latencyJitter, connectionBytesPerSecond, newHost,
                connectionSetup, maxConnections, hourlyPriceUsd);
    }

    public NetworkProfile withConnectionSetup(Duration setup) {
        return new NetworkProfile(name, firstByteLatency, latencyJitter, connectionBytesPerSecond, host, setup,
                maxConnections, hourlyPriceUsd);
    }

    public NetworkProfile withMaxConnections(int connections) {
        return new NetworkProfile(name, firstByteLatency, latencyJitter, connectionBytesPerSecond, host,
                connectionSetup, connections, hourlyPriceUsd);
    }

    public NetworkProfile withHourlyPriceUsd(double dollars) {
        return new NetworkProfile(name, firstByteLatency, latencyJitter, connectionBytesPerSecond, host,
                connectionSetup, maxConnections, dollars);
    }

    /** This profile with its host held to the baseline bandwidth: a long run after the burst credit is spent. */
    public NetworkProfile withoutBurst() {
        return withHost(host.withoutBurst());
    }

    /** One line for reports: {@code t3.medium: 30.0 ms first byte (lognormal sigma 0.5), 57.7 MB/s per connection, ...}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(name).append(": ");
        if (isUnlimited()) {
            return text.append("no delay, unlimited bandwidth").toString();
        }
        text.append(firstByteLatency.toNanos() / 1e6).append(" ms first byte");
        if (latencyJitter > 0) {
            text.append(" (lognormal sigma ").append(latencyJitter).append(')');
        }
        text.append(", ").append(rate(connectionBytesPerSecond)).append(" per connection, host ")
                .append(rate(host.baselineBytesPerSecond()));
        if (host.bursts()) {
            text.append(" (burst ").append(rate(host.burstBytesPerSecond())).append(" for ")
                    .append(host.burstDuration()).append(')');
        }
        return text.append(", set-up ").append(connectionSetup.toNanos() / 1e6).append(" ms, ")
                .append(maxConnections).append(" connections, $").append(hourlyPriceUsd).append("/h").toString();
    }

    private static String rate(double bytesPerSecond) {
        return Double.isInfinite(bytesPerSecond) ? "unlimited" : String.format(Locale.ROOT, "%.1f MB/s", bytesPerSecond / 1e6);
    }
}
