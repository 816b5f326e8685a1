package io.layoutbench.api.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

class HedgeDelayTest {

    private static final NetworkProfile T3 = NetworkProfiles.T3_MEDIUM;
    private static final double QUANTILE = 30e6 * Math.exp(HedgeDelay.LATENCY_QUANTILE_Z * 0.5);

    @Test
    void aReadIsFirstCheckedAtTheLatencyQuantilePlusItsBytesOnItsConnection() {
        double transfer = 110_000 / T3.connectionBytesPerSecond() * 1e9;

        assertThat((double) HedgeDelay.firstCheckNanos(T3, 110_000)).isCloseTo(QUANTILE + transfer, within(1.0));
    }

    @Test
    void aLateReadOnAnIdleLinkIsHedgedAtItsFirstCheck() {
        long first = HedgeDelay.firstCheckNanos(T3, 110_000);

        assertThat(HedgeDelay.recheckNanos(T3, 110_000, 110_000, first)).isZero();
        assertThat(HedgeDelay.recheckNanos(T3, 110_000, 110_000, first + 1_000_000)).isZero();
        assertThat(HedgeDelay.recheckNanos(T3, 110_000, 110_000, first - 1_000_000)).isEqualTo(1_000_000);
    }

    @Test
    void aReadSharingALinkWaitsForItsShareAndABusyLinkPutsHedgesOff() {
        long first = HedgeDelay.firstCheckNanos(T3, 110_000);
        // 20 MB in flight: 32 ms at 5 Gbps, under the 42 ms quantile: due at 42 + 32 ms.
        long share = HedgeDelay.recheckNanos(T3, 110_000, 20_000_000, first);
        // 66.7 MB in flight: 107 ms, longer than the latency a duplicate could save: check again once it drained.
        long busy = HedgeDelay.recheckNanos(T3, 776_000, 66_700_000, first);

        assertThat((double) share).isCloseTo(QUANTILE + 32e6 - first, within(1e5));
        assertThat((double) busy).isCloseTo(106.72e6, within(1e5));
    }

    @Test
    void withoutJitterOrLatencyNothingIsHedged() {
        assertThat(HedgeDelay.worthwhile(T3)).isTrue();
        assertThat(HedgeDelay.worthwhile(T3.withLatencyJitter(0))).isFalse();
        assertThat(HedgeDelay.worthwhile(NetworkProfiles.NONE)).isFalse();
        assertThat(HedgeDelay.firstCheckNanos(T3.withLatencyJitter(0), 1000)).isEqualTo(Long.MAX_VALUE);
        assertThat(HedgeDelay.recheckNanos(NetworkProfiles.NONE, 1000, 1000, 0)).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> HedgeDelay.firstCheckNanos(T3, -1)).hasMessageContaining("readBytes");
        assertThatThrownBy(() -> HedgeDelay.recheckNanos(T3, 1, 1, -1)).hasMessageContaining("sentAgoNanos");
    }

    @Test
    void aFewSmallReadsOnAnIdleLinkAreRacedAndALinkBoundBatchIsNot() {
        List<Long> thirteen = Collections.nCopies(13, 92_000L);
        List<Long> linkBound = Collections.nCopies(86, 776_000L);

        int copies = HedgeDelay.racedCopies(T3, thirteen, 297);

        assertThat(copies).isEqualTo(HedgeDelay.MAX_RACED_COPIES);
        assertThat(HedgeDelay.racedCopies(T3, thirteen, 297)).as("remembered").isEqualTo(copies);
        // Each copy taken saves at least a twentieth of the time of the choice before it.
        long late = NetworkModel.expectation(T3, thirteen, 297, 1).time().toNanos();
        long thrice = NetworkModel.expectation(T3, thirteen, 297, 3).time().toNanos();
        assertThat((double) thrice).isLessThanOrEqualTo(late * Math.pow(1 - HedgeDelay.MIN_RACE_GAIN, 2));
        assertThat(HedgeDelay.racedCopies(T3, linkBound, 297)).isEqualTo(1);
    }

    @Test
    void nothingIsRacedWithoutJitterAnEmptyBatchOrTooManyReads() {
        assertThat(HedgeDelay.racedCopies(T3.withLatencyJitter(0), Collections.nCopies(13, 92_000L), 297)).isEqualTo(1);
        assertThat(HedgeDelay.racedCopies(NetworkProfiles.NONE, Collections.nCopies(13, 92_000L), 297)).isEqualTo(1);
        assertThat(HedgeDelay.racedCopies(T3, List.of(), 297)).isEqualTo(1);
        assertThat(HedgeDelay.racedCopies(T3, Collections.nCopies(HedgeDelay.MAX_RACED_READS + 1, 1_000L), 297))
                .isEqualTo(1);
        assertThatThrownBy(() -> HedgeDelay.racedCopies(T3, List.of(1L), 0)).hasMessageContaining("concurrency");
    }

    @Test
    void aReadAloneIsRacedAsABatchOfItselfWeighedAtItsSizeRoundedToAPowerOfTwo() {
        int footer = HedgeDelay.racedCopiesAlone(T3, 65_536);

        assertThat(footer).isEqualTo(HedgeDelay.racedCopies(T3, List.of(65_536L), HedgeDelay.MAX_RACED_COPIES));
        assertThat(footer).as("a lone small read on an idle link").isGreaterThan(1);
        assertThat(HedgeDelay.racedCopiesAlone(T3, 40_000)).as("weighed as 64 KiB").isEqualTo(footer);
        assertThat(HedgeDelay.racedCopiesAlone(T3, 0)).isEqualTo(HedgeDelay.racedCopiesAlone(T3, 4096));
        assertThat(HedgeDelay.racedCopiesAlone(T3, 40_000_000)).as("over t3's 19 MB BDP").isEqualTo(1);
        assertThat(HedgeDelay.racedCopiesAlone(T3, Long.MAX_VALUE)).isEqualTo(1);
        assertThat(HedgeDelay.racedCopiesAlone(T3.withLatencyJitter(0), 65_536)).isEqualTo(1);
        assertThat(HedgeDelay.racedCopiesAlone(NetworkProfiles.NONE, 65_536)).isEqualTo(1);
        assertThatThrownBy(() -> HedgeDelay.racedCopiesAlone(T3, -1)).hasMessageContaining("readBytes");
    }
}
