package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CostEquationTest {

    @Test
    void pushesDownOnlyWhenTheProductIsBelowOne() {
        assertThat(CostEquation.pushesProjection(0.5, Math.nextDown(2.0))).isTrue();    // just below 1
        assertThat(CostEquation.pushesProjection(0.5, 2.0)).isFalse();                  // exactly 1: fetch
        assertThat(CostEquation.pushesProjection(0.5, Math.nextUp(2.0))).isFalse();     // just above 1
        assertThat(CostEquation.pushesProjection(0.01, 63)).isTrue();                   // 0.63
        assertThat(CostEquation.pushesProjection(0.02, 63)).isFalse();                  // 1.26
        assertThat(CostEquation.pushesProjection(0.375, 1.6)).isTrue();                 // the paper's taxi Q3: 0.6
        assertThat(CostEquation.pushesProjection(0.375, 152)).isFalse();                // its Q4 fare column
        assertThat(CostEquation.pushesProjection(0, 1000)).isTrue();
        assertThat(CostEquation.pushesProjection(1, 0.99)).isTrue();                    // incompressible chunk
    }

    @Test
    void rejectsValuesOutOfRange() {
        assertThatThrownBy(() -> CostEquation.pushesProjection(1.01, 2)).hasMessageContaining("selectivity");
        assertThatThrownBy(() -> CostEquation.pushesProjection(Double.NaN, 2)).hasMessageContaining("selectivity");
        assertThatThrownBy(() -> CostEquation.pushesProjection(0.5, 0)).hasMessageContaining("compressibility");
        assertThatThrownBy(() -> CostEquation.pushesProjection(0.5, Double.POSITIVE_INFINITY))
                .hasMessageContaining("compressibility");
    }
}
