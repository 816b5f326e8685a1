package io.layoutbench.api.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class NetworkProfileTest {

    /** The physical bound: one latency plus the payload over the host, at burst rate while a full bucket lasts. */
    @Test
    void aPayloadsPhysicalBoundIsOneLatencyPlusItsBytesOverTheHost() {
        NetworkProfile t3 = NetworkProfiles.get("t3.medium");
        // Issue 15's Q8 at mini: 204 MB on t3.medium, 30 ms + 204 MB / 5 Gbps = 0.357 s.
        assertThat(t3.physicalBound(204_000_000L).toNanos() / 1e9).isCloseTo(0.030 + 204e6 / 625e6,
                within(1e-6));
        assertThat(t3.physicalBound(0)).isEqualTo(Duration.ofMillis(30));
        // Past the bucket (5 Gbps for 5 minutes), the baseline: 0.256 Gbps.
        double burstBytes = NetworkProfile.gbps(5) * 300;
        double more = 1e9;
        assertThat(t3.host().transferSeconds(burstBytes + more)).isCloseTo(300 + more / NetworkProfile.gbps(0.256),
                within(1e-6));
        assertThat(NetworkProfiles.get("c8gb.large").physicalBound(2_500_000_000L).toNanos() / 1e9)
                .as("sustained 20 Gbps").isCloseTo(0.030 + 1.0, within(1e-6));
        assertThat(NetworkProfiles.get("none").physicalBound(1L << 40)).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> t3.physicalBound(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aColdBoundAddsALatencyPerMetadataRoundAndTheMetadatasBytes() {
        NetworkProfile t3 = NetworkProfiles.get("t3.medium");
        assertThat(t3.physicalBound(1_200_000L, 2, 612_000L).toNanos() / 1e9)
                .isCloseTo(2 * 0.030 + 0.030 + (1_200_000 + 612_000) / 625e6, within(1e-6));
        assertThat(t3.physicalBound(1_200_000L, 0, 0)).as("nothing to load: the warm bound")
                .isEqualTo(t3.physicalBound(1_200_000L));
        assertThat(NetworkProfiles.get("none").physicalBound(1L << 40, 3, 1L << 20)).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> t3.physicalBound(1, -1, 0)).hasMessageContaining("metadataRounds");
        assertThatThrownBy(() -> t3.physicalBound(1, 0, 10)).hasMessageContaining("need a round");
        assertThatThrownBy(() -> t3.physicalBound(-1, 1, 10)).hasMessageContaining("payloadBytes");
        assertThatThrownBy(() -> t3.physicalBound(Long.MAX_VALUE, 1, 10)).hasMessageContaining("fit beside");
    }

    private static final NetworkProfile VALID = new NetworkProfile("valid", Duration.ofMillis(30), 0.5,
            50e6, HostBandwidth.sustained(1e9), Duration.ofMillis(5), 50, 0.1);

    @Test
    void presetsCarryThePapersInstances() {
        assertThat(NetworkProfiles.names())
                .containsExactly("none", "t3.medium", "c5.large", "c8gb.large", "t3.large", "t3.xlarge", "t3.2xlarge");

        NetworkProfile t3Medium = NetworkProfiles.get("t3.medium");
        assertThat(t3Medium.host().baselineBytesPerSecond()).isEqualTo(32_000_000);       // 0.256 Gbps
        assertThat(t3Medium.host().burstBytesPerSecond()).isEqualTo(625_000_000);         // 5 Gbps
        assertThat(t3Medium.host().burstDuration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(t3Medium.hourlyPriceUsd()).isEqualTo(0.0416);

        NetworkProfile c5Large = NetworkProfiles.get("c5.large");
        assertThat(c5Large.host().baselineBytesPerSecond()).isEqualTo(93_750_000);        // 0.75 Gbps
        assertThat(c5Large.host().burstBytesPerSecond()).isEqualTo(1_250_000_000);        // 10 Gbps
        assertThat(c5Large.hourlyPriceUsd()).isEqualTo(0.0850);

        NetworkProfile c8gbLarge = NetworkProfiles.get("c8gb.large");
        assertThat(c8gbLarge.host()).isEqualTo(HostBandwidth.sustained(2_500_000_000.0)); // 20 Gbps
        assertThat(c8gbLarge.hourlyPriceUsd()).isEqualTo(0.1185);

        assertThat(NetworkProfiles.get("t3.large").host().baselineBytesPerSecond()).isEqualTo(64_000_000);
        assertThat(NetworkProfiles.get("t3.xlarge").host().baselineBytesPerSecond()).isEqualTo(128_000_000);
        assertThat(NetworkProfiles.get("t3.2xlarge").host().baselineBytesPerSecond()).isEqualTo(256_000_000);
        assertThat(NetworkProfiles.get("t3.large").hourlyPriceUsd()).isEqualTo(0.0832);
        assertThat(NetworkProfiles.get("t3.xlarge").hourlyPriceUsd()).isEqualTo(0.1664);
        assertThat(NetworkProfiles.get("t3.2xlarge").hourlyPriceUsd()).isEqualTo(0.3328);

        for (NetworkProfile instance : NetworkProfiles.all().subList(1, NetworkProfiles.all().size())) {
            assertThat(instance.firstByteLatency()).isEqualTo(Duration.ofMillis(30));
            assertThat(instance.connectionBytesPerSecond()).isEqualTo(55 * 1024 * 1024);
            assertThat(instance.connectionSetup()).isEqualTo(Duration.ofMillis(5));
            assertThat(instance.maxConnections()).as("a pool that fills the link with 64 KiB reads")
                    .isEqualTo(instance.requestsToFillLink(64 << 10));
            assertThat(instance.isUnlimited()).isFalse();
        }
        assertThat(NetworkProfiles.T3_MEDIUM.maxConnections()).isEqualTo(297);
        assertThat(NetworkProfiles.C5_LARGE.maxConnections()).isEqualTo(594);
        assertThat(NetworkProfiles.C8GB_LARGE.maxConnections()).isEqualTo(1188);
    }

    /**
     * The bandwidth-delay product, and the reads that fill the link: t3.medium (5 Gbps burst, 30 ms, 55 MiB/s per
     * connection) holds 18.75 MB in flight; 176 reads of 114 kB fill it, 14 of 8 MB.
     */
    @Test
    void theLinkIsFullWithTheBandwidthDelayProductInFlight() {
        assertThat(NetworkProfiles.T3_MEDIUM.bandwidthDelayProduct()).isCloseTo(18.75e6, within(1.0));
        assertThat(NetworkProfiles.T3_MEDIUM.requestsToFillLink(114_000)).isEqualTo(176);
        assertThat(NetworkProfiles.T3_MEDIUM.requestsToFillLink(8_000_000)).isEqualTo(14);
        assertThat(NetworkProfiles.NONE.bandwidthDelayProduct()).isZero();
        assertThat(NetworkProfiles.NONE.requestsToFillLink(1)).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(() -> NetworkProfiles.T3_MEDIUM.requestsToFillLink(0)).hasMessageContaining("> 0");
    }

    @Test
    void noneIsUnlimitedAndFree() {
        NetworkProfile none = NetworkProfiles.get("none");
        assertThat(none.isUnlimited()).isTrue();
        assertThat(none.hourlyPriceUsd()).isZero();
        assertThat(none).hasToString("none: no delay, unlimited bandwidth");
    }

    @Test
    void lookupIgnoresCaseAndNamesTheKnownProfilesWhenItFails() {
        assertThat(NetworkProfiles.get(" T3.Medium ")).isSameAs(NetworkProfiles.T3_MEDIUM);
        assertThatThrownBy(() -> NetworkProfiles.get("m5.large"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown network profile 'm5.large'; known profiles: none, t3.medium, c5.large, "
                        + "c8gb.large, t3.large, t3.xlarge, t3.2xlarge");
    }

    @Test
    void unitHelpersConvertToBytesPerSecond() {
        assertThat(NetworkProfile.gbps(1)).isEqualTo(125_000_000);
        assertThat(NetworkProfile.mibPerSecond(1)).isEqualTo(1_048_576);
    }

    @Test
    void burstCreditIsTheBytesAboveBaselineForTheBurstDuration() {
        HostBandwidth t3 = NetworkProfiles.T3_MEDIUM.host();
        assertThat(t3.burstCreditBytes()).isCloseTo((625e6 - 32e6) * 300, within(1.0));
        assertThat(t3.withoutBurst()).isEqualTo(HostBandwidth.sustained(32e6));
        assertThat(t3.withoutBurst().burstCreditBytes()).isZero();
        assertThat(NetworkProfiles.T3_MEDIUM.withoutBurst().host().bursts()).isFalse();
    }

    @Test
    void withersChangeOneThing() {
        NetworkProfile changed = VALID.withMaxConnections(4).withFirstByteLatency(Duration.ofMillis(80));
        assertThat(changed.maxConnections()).isEqualTo(4);
        assertThat(changed.firstByteLatency()).isEqualTo(Duration.ofMillis(80));
        assertThat(changed.withMaxConnections(50).withFirstByteLatency(Duration.ofMillis(30))).isEqualTo(VALID);
        assertThat(VALID.withName("x").withLatencyJitter(0).withConnectionBytesPerSecond(1)
                .withConnectionSetup(Duration.ZERO).withHourlyPriceUsd(2).withHost(HostBandwidth.unlimited()))
                .isEqualTo(new NetworkProfile("x", Duration.ofMillis(30), 0, 1, HostBandwidth.unlimited(),
                        Duration.ZERO, 50, 2));
    }

    @Test
    void describesItselfOnOneLine() {
        assertThat(NetworkProfiles.T3_MEDIUM.toString()).isEqualTo("t3.medium: 30.0 ms first byte (lognormal sigma"
                + " 0.5), 57.7 MB/s per connection, host 32.0 MB/s (burst 625.0 MB/s for PT5M), set-up 5.0 ms, 297"
                + " connections, $0.0416/h");
    }

    @Test
    void rejectsNumbersThatMakeNoSense() {
        assertThatThrownBy(() -> VALID.withName(" ")).hasMessage("Network profile name is blank");
        assertThatThrownBy(() -> VALID.withFirstByteLatency(Duration.ofMillis(-1)))
                .hasMessage("Network profile valid: first-byte latency must be >= 0, got PT-0.001S");
        assertThatThrownBy(() -> VALID.withLatencyJitter(Double.NaN))
                .hasMessageContaining("latency jitter (lognormal sigma) must be finite and >= 0, got NaN");
        assertThatThrownBy(() -> VALID.withConnectionBytesPerSecond(0))
                .hasMessage("Network profile valid: per-connection throughput must be > 0 bytes/s, got 0.0");
        assertThatThrownBy(() -> VALID.withConnectionSetup(Duration.ofSeconds(-1)))
                .hasMessageContaining("connection set-up must be >= 0");
        assertThatThrownBy(() -> VALID.withMaxConnections(0))
                .hasMessage("Network profile valid: maxConnections must be >= 1, got 0");
        assertThatThrownBy(() -> VALID.withHourlyPriceUsd(-0.01))
                .hasMessageContaining("hourly price must be a finite number of dollars >= 0, got -0.01");
        assertThatThrownBy(() -> VALID.withHost(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("host of network profile valid is null");
    }

    @Test
    void hostBandwidthRejectsBurstsItCannotPayFor() {
        assertThatThrownBy(() -> HostBandwidth.sustained(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Host baseline bandwidth must be > 0 bytes/s, got 0.0");
        assertThatThrownBy(() -> HostBandwidth.burstable(10, 5, Duration.ofMinutes(1)))
                .hasMessage("Host burst bandwidth 5.0 bytes/s must be at least the baseline 10.0 bytes/s");
        assertThatThrownBy(() -> HostBandwidth.burstable(10, 20, Duration.ZERO))
                .hasMessageContaining("needs a positive burstDuration");
        assertThatThrownBy(() -> HostBandwidth.burstable(10, Double.POSITIVE_INFINITY, Duration.ofMinutes(1)))
                .hasMessageContaining("must be finite when the baseline");
        assertThat(HostBandwidth.burstable(10, 10, Duration.ofMinutes(1))).isEqualTo(HostBandwidth.sustained(10));
    }
}
