package io.layoutbench.api.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

class ByteRangeTest {

    @Test
    void isHalfOpen() {
        ByteRange range = ByteRange.between(4096, 8192);

        assertThat(range).isEqualTo(ByteRange.of(4096, 4096));
        assertThat(range.end()).isEqualTo(8192);
        assertThat(range).hasToString("[4096, 8192)");
        assertThat(ByteRange.of(7, 0)).hasToString("[7, 7)");
    }

    @Test
    void rejectsNegativeAndOverflowingRanges() {
        assertThatThrownBy(() -> ByteRange.of(-1, 10)).hasMessage("Byte range offset must be >= 0, got -1");
        assertThatThrownBy(() -> ByteRange.of(0, -5)).hasMessage("Byte range length must be >= 0, got -5");
        assertThatThrownBy(() -> ByteRange.between(10, 9)).hasMessage("Byte range end 9 is before its start 10");
        assertThatThrownBy(() -> ByteRange.of(Long.MAX_VALUE, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overflows");
        assertThat(ByteRange.of(Long.MAX_VALUE, 0).end()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void fitsInAnObjectUpToItsEnd() {
        assertThat(ByteRange.of(0, 100).fitsIn(100)).isTrue();
        assertThat(ByteRange.of(100, 0).fitsIn(100)).isTrue();
        assertThat(ByteRange.of(0, 0).fitsIn(0)).isTrue();
        assertThat(ByteRange.of(0, 101).fitsIn(100)).isFalse();
        assertThat(ByteRange.of(101, 0).fitsIn(100)).isFalse();
    }

    @Test
    void containsSpansAndMeasuresGaps() {
        ByteRange a = ByteRange.between(0, 100);
        ByteRange b = ByteRange.between(150, 200);

        assertThat(a.contains(ByteRange.between(10, 100))).isTrue();
        assertThat(a.contains(ByteRange.between(10, 101))).isFalse();
        assertThat(a.span(b)).isEqualTo(ByteRange.between(0, 200));
        assertThat(b.span(a)).isEqualTo(ByteRange.between(0, 200));
        assertThat(a.gapTo(b)).isEqualTo(50);
        assertThat(a.gapTo(ByteRange.between(90, 120))).isEqualTo(-10);
        assertThat(a.gapTo(ByteRange.between(100, 120))).isZero();
    }

    @Test
    void sortsByOffsetThenLength() {
        List<ByteRange> ranges = new ArrayList<>(List.of(ByteRange.of(10, 5), ByteRange.of(0, 9),
                ByteRange.of(10, 1), ByteRange.of(0, 2)));

        Collections.sort(ranges);

        assertThat(ranges).containsExactly(ByteRange.of(0, 2), ByteRange.of(0, 9), ByteRange.of(10, 1),
                ByteRange.of(10, 5));
    }
}
