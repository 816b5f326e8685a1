package io.layoutbench.layouts.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.RequestKind;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ReadWindowTest {

    private static final long MS = 1_000_000;

    /** The query's clock and counters, as the retrieval's metrics would hold them. */
    private long now;
    private long retries;
    private long firstByteNanos;
    private long firstByteCount;

    private MetricsSnapshot signals() {
        return new MetricsSnapshot(Map.of(), Map.of(RequestKind.RANGE_GET, retries), Map.of(), 0, 0,
                firstByteNanos, firstByteCount, 0, 0, Duration.ZERO);
    }

    private ReadWindow adaptive(int start, int ceiling) {
        return ReadWindow.adaptive(start, ceiling, this::signals, () -> now);
    }

    /**
     * One round: as many reads are launched and complete as the round takes, {@code bytesPerSecond} over 100 ms, each
     * first byte after {@code latencyMs}, the last {@code retried} of them retried once; {@code full}: reads waited
     * for a slot all along.
     */
    private void round(ReadWindow window, double bytesPerSecond, long latencyMs, int retried, boolean full) {
        int reads = Math.max(ReadWindow.MIN_ROUND_READS, window.limit());
        long[] launches = new long[reads];
        for (int i = 0; i < reads; i++) {
            launches[i] = window.onLaunched();
        }
        long bytesPerRead = (long) (bytesPerSecond * 0.1 / reads);
        for (int i = 0; i < reads; i++) {
            now += 100 * MS / reads;
            if (i >= reads - retried) {
                retries++;
            }
            firstByteCount++;
            firstByteNanos += latencyMs * MS;
            if (full) {
                window.onFull(); // as the retrieval finds the window full again after each launch
            }
            window.onCompleted(bytesPerRead, launches[i]);
        }
    }

    @Test
    void growsWhileThroughputGrowsAndHoldsWhereGrowingStopsPaying() {
        ReadWindow window = adaptive(16, 1000);

        round(window, 100e6, 30, 0, true);
        assertThat(window.limit()).as("a full round doubles the window").isEqualTo(32);
        round(window, 190e6, 30, 0, true);
        assertThat(window.limit()).as("the growth paid: kept").isEqualTo(32);
        round(window, 190e6, 30, 0, true);
        assertThat(window.limit()).isEqualTo(64);
        round(window, 200e6, 30, 0, true);
        assertThat(window.limit()).as("5% more throughput does not pay for twice the reads").isEqualTo(32);
        for (int i = 0; i < 5; i++) {
            round(window, 200e6, 30, 0, true);
        }
        assertThat(window.limit()).as("holding: the link is the limit").isEqualTo(32);
        assertThat(window.peak()).isEqualTo(64);
        assertThat(window.backOffs()).isZero();
    }

    @Test
    void growsOnlyWhenTheWindowHeldReadsBackAndNeverAboveItsCeiling() {
        ReadWindow window = adaptive(16, 40);
        for (int i = 0; i < 4; i++) {
            round(window, 100e6, 30, 0, false);
        }
        assertThat(window.limit()).as("reads waited for the budget or the query's end, not the window")
                .isEqualTo(16);

        double rate = 100e6;
        for (int i = 0; i < 10; i++) {
            rate *= 2;
            round(window, rate, 30, 0, true);
        }
        assertThat(window.limit()).isEqualTo(40);
        assertThat(window.peak()).isEqualTo(40);
    }

    @Test
    void halvesWhenTheStoreThrottlesThenRegainsAnEighthARoundUpToWhereItWas() {
        ReadWindow window = adaptive(64, 1000);

        round(window, 100e6, 30, 3, true);
        assertThat(window.limit()).isEqualTo(32);
        assertThat(window.backOffs()).isEqualTo(1);

        round(window, 100e6, 30, 0, true);
        assertThat(window.limit()).isEqualTo(36);
        round(window, 100e6, 30, 0, true);
        assertThat(window.limit()).isEqualTo(40);
        for (int i = 0; i < 20 && window.limit() < 64; i++) {
            round(window, 100e6, 30, 0, true);
            assertThat(window.limit()).isLessThanOrEqualTo(64);
        }
        assertThat(window.limit()).as("back where it was throttled").isEqualTo(64);
        round(window, 100e6, 30, 0, true);
        assertThat(window.limit()).as("then probing again").isEqualTo(128);
    }

    @Test
    void throttledAgainAndAgainItComesDownToOneRead() {
        ReadWindow window = adaptive(64, 1000);
        for (int i = 0; i < 10; i++) {
            round(window, 1e6, 30, 1, true);
        }
        assertThat(window.limit()).isEqualTo(1);
        assertThat(window.backOffs()).isEqualTo(10);
    }

    @Test
    void readsLaunchedBeforeABackOffDoNotShrinkTheWindowAgain() {
        ReadWindow window = adaptive(64, 1000);
        long[] old = new long[100];
        for (int i = 0; i < old.length; i++) {
            old[i] = window.onLaunched();
        }
        for (int i = 0; i < 64; i++) {   // one burst of throttling: the first round of 64 reads backs off
            retries++;
            window.onCompleted(1_000, old[i]);
        }
        assertThat(window.limit()).isEqualTo(32);
        for (int i = 64; i < old.length; i++) {   // the rest of that burst's reads, retried too, complete after it
            retries++;
            window.onCompleted(1_000, old[i]);
        }
        round(window, 100e6, 30, 0, true);
        assertThat(window.limit()).as("one back-off for one burst, then recovering").isEqualTo(36);
        assertThat(window.backOffs()).isOne();
    }

    @Test
    void shrinksByAQuarterWhenFirstByteTimeRises() {
        ReadWindow window = adaptive(64, 1000);
        round(window, 100e6, 30, 0, true);
        assertThat(window.limit()).isEqualTo(128);

        round(window, 100e6, 90, 0, true);
        assertThat(window.limit()).as("queueing: three times the first-byte time").isEqualTo(96);
        assertThat(window.backOffs()).isEqualTo(1);

        round(window, 100e6, 50, 0, true);
        assertThat(window.limit()).as("under twice the lowest: no back-off").isGreaterThan(96);
    }

    @Test
    void aFixedWindowNeverMoves() {
        ReadWindow window = ReadWindow.fixed(50);
        for (int i = 0; i < 1000; i++) {
            window.onFull();
            window.onCompleted(1_000_000, window.onLaunched());
        }
        assertThat(window.limit()).isEqualTo(50);
        assertThat(window.peak()).isEqualTo(50);
    }

    @Test
    void rejectsAStartOutsideOneToTheCeiling() {
        assertThatThrownBy(() -> adaptive(0, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("start 0");
        assertThatThrownBy(() -> adaptive(20, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ceiling 10");
    }
}
