package io.layoutbench.api.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Ranges of a result: valid by construction, checked as a read's argument, joined as one reader would read them. */
class ResultRangeTest {

    @Test
    void aRangeIsNonEmptyAndStartsAtZeroOrLater() {
        assertThat(new ResultRange(3, 5).size()).isEqualTo(2);
        assertThatThrownBy(() -> new ResultRange(5, 5)).hasMessageContaining("0 <= from < to").hasMessageContaining(
                "[5, 5)");
        assertThatThrownBy(() -> new ResultRange(-1, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRangesOfAReadAreAscendingApartAndWithinTheResult() {
        List<ResultRange> ok = List.of(new ResultRange(0, 2), new ResultRange(2, 4), new ResultRange(9, 10));
        assertThat(ResultRange.checkSorted(ok, 10)).isEqualTo(ok);
        assertThatThrownBy(() -> ResultRange.checkSorted(List.of(new ResultRange(4, 6), new ResultRange(5, 7)), 10))
                .hasMessageContaining("range 1 [5, 7) starts before 6");
        assertThatThrownBy(() -> ResultRange.checkSorted(List.of(new ResultRange(8, 11)), 10))
                .hasMessageContaining("ends past the result's 10 samples");
    }

    @Test
    void sortedAndJoinedIsWhatOneReaderReads() {
        assertThat(ResultRange.sortedAndJoined(List.of(new ResultRange(6, 8), new ResultRange(0, 2),
                new ResultRange(2, 3), new ResultRange(8, 9)))).containsExactly(new ResultRange(0, 3),
                        new ResultRange(6, 9));
    }
}
