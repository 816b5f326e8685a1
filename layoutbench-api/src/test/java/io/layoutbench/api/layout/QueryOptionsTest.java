package io.layoutbench.api.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.network.NetworkProfiles;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

class QueryOptionsTest {

    @Test
    void defaultsReadWithinTenPercentOfTheNeededBytes() {
        QueryOptions defaults = QueryOptions.defaults();
        assertThat(defaults.maxReadAmplification()).isEqualTo(1.1);
        assertThat(defaults.mode()).isEqualTo(RetrievalMode.OPTIMIZED);
        assertThat(defaults.withMaxReadAmplification(Double.POSITIVE_INFINITY).maxReadAmplification()).isInfinite();
        assertThat(defaults.withMaxReadAmplification(1).withMode(RetrievalMode.PAPER).maxReadAmplification())
                .isEqualTo(1.0);
    }

    @Test
    void aReadBudgetBelowOneOrNotANumberIsRefused() {
        for (double bad : new double[] {0.99, 0, -1, Double.NaN, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> QueryOptions.defaults().withMaxReadAmplification(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("maxReadAmplification must be >= 1")
                    .hasMessageContaining(String.valueOf(bad));
        }
    }

    @Test
    void otherSettingsAreChecked() {
        assertThatThrownBy(() -> QueryOptions.defaults().withMaxConcurrency(0))
                .hasMessageContaining("maxConcurrency must be >= 1, got 0");
        assertThatThrownBy(() -> QueryOptions.defaults().withMaxBufferedBytes(0))
                .hasMessageContaining("maxBufferedBytes must be >= 1, got 0");
        assertThatThrownBy(() -> QueryOptions.defaults().withCoalesceGapBytes(-2))
                .hasMessageContaining("coalesceGapBytes must be >= 0, or -1 to derive it; got -2");
    }

    @Test
    void readsInFlightStartAtThePoolAndMayGrowToWhatTheBudgetHoldsWithinTheCap() {
        // t3.medium: a pool of 297, 64 MiB of budget (the default in a heap of 256 MiB)
        QueryOptions defaults = QueryOptions.defaults().withMaxBufferedBytes(QueryOptions.DEFAULT_MAX_BUFFERED_BYTES);
        assertThat(defaults.readsInFlight(114_000)).isEqualTo(297);
        assertThat(defaults.readsInFlightCeiling(114_000)).isEqualTo(588);
        assertThat(defaults.readsInFlight(8_000_000)).isEqualTo(8);
        assertThat(defaults.readsInFlightCeiling(8_000_000)).isEqualTo(8);
        assertThat(defaults.withMaxConcurrency(32).readsInFlight(114_000)).isEqualTo(32);
        assertThat(defaults.withMaxConcurrency(32).readsInFlightCeiling(114_000)).isEqualTo(32);
        assertThat(defaults.readsInFlightCeiling(100e6)).as("one read, however large").isEqualTo(1);
    }

    @Test
    void theDefaultByteBudgetIsAQuarterOfTheHeapAtMost256MiB() {
        assertThat(QueryOptions.defaultMaxBufferedBytes(3)).as("a byte at least").isEqualTo(1);
        assertThat(QueryOptions.defaultMaxBufferedBytes(128L << 20)).isEqualTo(32L << 20);
        assertThat(QueryOptions.defaultMaxBufferedBytes(256L << 20)).isEqualTo(64L << 20);
        assertThat(QueryOptions.defaultMaxBufferedBytes(512L << 20)).isEqualTo(128L << 20);
        assertThat(QueryOptions.defaultMaxBufferedBytes(1L << 30)).isEqualTo(256L << 20);
        assertThat(QueryOptions.defaultMaxBufferedBytes(Long.MAX_VALUE)).as("no heap limit").isEqualTo(256L << 20);
        assertThat(QueryOptions.defaults().maxBufferedBytes()).isEqualTo(QueryOptions.defaultMaxBufferedBytes())
                .isEqualTo(QueryOptions.defaultMaxBufferedBytes(Runtime.getRuntime().maxMemory()));
        assertThatThrownBy(() -> QueryOptions.defaultMaxBufferedBytes(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxHeapBytes must be >= 1, got 0");
    }

    @Test
    void onlyOptimizedQueriesOnAJitteredNetworkHedgeTheirReads() {
        QueryOptions defaults = QueryOptions.defaults();

        assertThat(defaults.hedging()).isTrue();
        assertThat(defaults.hedgesReads()).isTrue();
        assertThat(defaults.withHedging(false).hedgesReads()).isFalse();
        assertThat(defaults.withMode(RetrievalMode.PAPER).hedgesReads()).isFalse();
        assertThat(defaults.withNetwork(NetworkProfiles.T3_MEDIUM.withLatencyJitter(0)).hedgesReads()).isFalse();
        assertThat(defaults.withHedging(false).withMaxConcurrency(8).hedging()).as("kept by other withers").isFalse();
    }

    @Test
    void theTypicalReadIsWeighedByBytes() {
        assertThat(QueryOptions.typicalReadBytes(LongStream.of(1_000, 1_000))).isEqualTo(1_000);
        assertThat(QueryOptions.typicalReadBytes(LongStream.of(1_000, 99_000)))
                .isEqualTo((1e6 + 99_000.0 * 99_000) / 100_000);
        assertThat(QueryOptions.typicalReadBytes(LongStream.empty())).isEqualTo(1);
    }
}
