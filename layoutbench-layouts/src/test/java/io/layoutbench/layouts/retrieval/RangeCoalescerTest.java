package io.layoutbench.layouts.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ByteRange;

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
}
