package io.layoutbench.api.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HedgeDelayTest {

    private static final NetworkProfile T3 = NetworkProfiles.T3_MEDIUM;

    @Test
    void aSmallReadAloneIsHedgedAtTheLatencyQuantilePlusItsTransfer() {
        double quantile = 30e6 * Math.exp(HedgeDelay.LATENCY_QUANTILE_Z * 0.5);
        double transfer = 110_000 / T3.connectionBytesPerSecond() * 1e9;

        assertThat((double) HedgeDelay.nanos(T3, 110_000, 110_000)).isCloseTo(quantile + transfer, within(1.0));
    }

    @Test
    void aReadSharingABusyLinkWaitsForItsShare() {
        long alone = HedgeDelay.nanos(T3, 110_000, 110_000);
        long shared = HedgeDelay.nanos(T3, 110_000, 26_000_000);

        assertThat(shared - alone).isGreaterThan(30_000_000L);   // 26 MB at 5 Gbps: 41.6 ms, less its own 1.9 ms
    }

    @Test
    void withoutJitterOrLatencyNothingIsHedged() {
        assertThat(HedgeDelay.worthwhile(T3)).isTrue();
        assertThat(HedgeDelay.worthwhile(T3.withLatencyJitter(0))).isFalse();
        assertThat(HedgeDelay.worthwhile(NetworkProfiles.NONE)).isFalse();
        assertThat(HedgeDelay.nanos(T3.withLatencyJitter(0), 1000, 1000)).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> HedgeDelay.nanos(T3, -1, 0)).hasMessageContaining("readBytes");
    }
}
