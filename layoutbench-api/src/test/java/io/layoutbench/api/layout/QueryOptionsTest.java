package io.layoutbench.api.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
