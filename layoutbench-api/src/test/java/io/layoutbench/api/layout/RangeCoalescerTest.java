package io.layoutbench.api.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.network.NetworkProfiles;

import java.util.List;

import org.junit.jupiter.api.Test;

class RangeCoalescerTest {

    @Test
    void mergesWithinTheGapAndKeepsMembersInOffsetOrder() {
        List<ByteRange> ranges = List.of(ByteRange.of(1000, 10), ByteRange.of(0, 100), ByteRange.of(150, 50),
                ByteRange.of(150, 10), ByteRange.of(10_000, 1));
        List<RangeCoalescer.Merged> merged = RangeCoalescer.coalesce(ranges, 64, 1 << 20);
        assertThat(merged).extracting(RangeCoalescer.Merged::range)
                .containsExactly(ByteRange.of(0, 200), ByteRange.of(1000, 10), ByteRange.of(10_000, 1));
        assertThat(merged.get(0).members()).containsExactly(1, 3, 2);
    }

    @Test
    void gapZeroMergesOnlyTouchingRanges() {
        List<RangeCoalescer.Merged> merged = RangeCoalescer.coalesce(
                List.of(ByteRange.of(0, 10), ByteRange.of(10, 10), ByteRange.of(21, 1)), 0, 1 << 20);
        assertThat(merged).extracting(RangeCoalescer.Merged::range)
                .containsExactly(ByteRange.of(0, 20), ByteRange.of(21, 1));
    }

    @Test
    void stopsMergingAtTheMaximumSizeButKeepsLargeRangesWhole() {
        List<RangeCoalescer.Merged> merged = RangeCoalescer.coalesce(List.of(ByteRange.of(0, 60),
                ByteRange.of(60, 60), ByteRange.of(120, 500), ByteRange.of(620, 10)), 0, 100);
        assertThat(merged).extracting(RangeCoalescer.Merged::range).containsExactly(ByteRange.of(0, 60),
                ByteRange.of(60, 60), ByteRange.of(120, 500), ByteRange.of(620, 10));
    }

    @Test
    void overlappingRangesShareOneRequestEvenPastTheMaximumSize() {
        // Split at the size cap, [0,100) and [50,150) would read bytes 50-99 twice.
        List<RangeCoalescer.Merged> merged = RangeCoalescer.coalesce(List.of(ByteRange.of(0, 100),
                ByteRange.of(50, 100), ByteRange.of(0, 100), ByteRange.of(150, 10)), 0, 100);
        assertThat(merged).extracting(RangeCoalescer.Merged::range)
                .containsExactly(ByteRange.of(0, 150), ByteRange.of(150, 10));
        assertThat(merged.get(0).members()).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void emptyInputNeedsNoRequest() {
        assertThat(RangeCoalescer.coalesce(List.of(), 10, 10)).isEmpty();
    }

    @Test
    void breakEvenGapsFollowLatencyTimesBandwidthAndPrices() {
        assertThat(RangeCoalescer.breakEvenGap(0.030, 60e6)).isEqualTo(1_800_000);
        assertThat(RangeCoalescer.breakEvenGapForCost(0.0004 / 1000, 0.09 / 1e9)).isEqualTo(4444);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RangeCoalescer.breakEvenGap(0.01, 0))
                .hasMessageContaining("bytesPerSecond > 0");
    }

    @Test
    void aReadBudgetSpendsItselfOnTheSmallestGapsFirst() {
        // 400 bytes needed with gaps of 10, 20 and 500: 10% is 40 bytes, enough for the 10 and the 20.
        List<List<ByteRange>> ranges = List.of(List.of(ByteRange.of(0, 100), ByteRange.of(110, 100),
                ByteRange.of(230, 100), ByteRange.of(830, 100)));
        assertThat(RangeCoalescer.gapWithinBudget(ranges, 1 << 20, 1.1)).isEqualTo(20);
        assertThat(RangeCoalescer.gapWithinBudget(ranges, 15, 1.1)).isEqualTo(10);   // the objective's gap caps it
        assertThat(RangeCoalescer.gapWithinBudget(ranges, 1 << 20, 1.05)).isEqualTo(10);
        assertThat(RangeCoalescer.gapWithinBudget(ranges, 1 << 20, 1.0)).isZero();
        assertThat(RangeCoalescer.gapWithinBudget(ranges, 1 << 20, Double.POSITIVE_INFINITY)).isEqualTo(1 << 20);
        assertThat(RangeCoalescer.gapWithinBudget(ranges, 1 << 20, 3.0)).isEqualTo(500);
    }

    @Test
    void gapsOfOneSizeAreReadThroughAllOrNone() {
        // Three gaps of 30 over 400 needed bytes: a 40-byte budget cannot pay for all three, so none is taken.
        List<List<ByteRange>> ranges = List.of(List.of(ByteRange.of(0, 100), ByteRange.of(130, 100),
                ByteRange.of(260, 100), ByteRange.of(390, 100)));
        assertThat(RangeCoalescer.gapWithinBudget(ranges, 1 << 20, 1.1)).isZero();
        assertThat(RangeCoalescer.gapWithinBudget(ranges, 1 << 20, 1.25)).isEqualTo(30);
    }

    @Test
    void theBudgetCountsNeededBytesOnceAndGapsOnlyWithinAnObject() {
        // Overlapping and touching ranges cost nothing to merge; the distance between two objects is not a gap.
        List<List<ByteRange>> ranges = List.of(
                List.of(ByteRange.of(0, 100), ByteRange.of(50, 100), ByteRange.of(150, 50)),
                List.of(ByteRange.of(1_000_000, 100), ByteRange.of(1_000_110, 100)));
        // needed: 200 + 200 bytes; the one gap is 10 bytes, within a 3% budget (12 bytes).
        assertThat(RangeCoalescer.gapWithinBudget(ranges, 1 << 20, 1.03)).isEqualTo(10);
        assertThat(RangeCoalescer.gapWithinBudget(ranges, 1 << 20, 1.02)).isZero();
        assertThat(RangeCoalescer.gapWithinBudget(List.of(), 1 << 20, 1.1)).isZero();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RangeCoalescer.gapWithinBudget(ranges, 10, 0.9))
                .hasMessageContaining("maxAmplification >= 1");
    }

    /**
     * The derived gap and merged-read limit follow the network: on t3.medium (5 Gbps burst, 30 ms, 55 MiB/s a
     * connection) its pool of 297 shares the host, so a gap is worth reading through up to 30 ms x 625 MB/s / 297 =
     * 63 KB, and a merged read stops at what one connection receives in a latency (1.73 MB). With 64 in flight the
     * gap is 293 KB. c8gb.large's bandwidth-delay product (75 MB) is beyond the 64 MiB budget: merged reads keep the
     * budget's share of 64 reads, 1 MiB; so does a network with no latency.
     */
    @Test
    void theGapAndTheLargestMergedReadFollowTheNetwork() {
        QueryOptions t3 = QueryOptions.defaults().withMaxBufferedBytes(QueryOptions.DEFAULT_MAX_BUFFERED_BYTES);
        assertThat(RangeCoalescer.gapFor(t3)).isBetween(62_000L, 64_000L);
        assertThat(RangeCoalescer.gapFor(t3.withMaxConcurrency(64))).isBetween(292_000L, 294_000L);
        assertThat(RangeCoalescer.maxMergedBytesFor(t3)).isBetween(1_729_000L, 1_731_000L);
        assertThat(RangeCoalescer.maxMergedBytesFor(t3.withNetwork(NetworkProfiles.C8GB_LARGE))).isEqualTo(1L << 20);
        assertThat(RangeCoalescer.maxMergedBytesFor(t3.withNetwork(NetworkProfiles.NONE))).isEqualTo(1L << 20);
        assertThat(RangeCoalescer.maxMergedBytesFor(t3.withMaxBufferedBytes(1L << 20)))
                .as("a budget under the bandwidth-delay product").isEqualTo(64L << 10);
    }
}
