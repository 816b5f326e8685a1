package io.layoutbench.fusion.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.ConfigurationException;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** FAC options as text: what a layout's descriptor records reads back as the same options. */
class FacOptionsTest {

    @Test
    void optionsReadBackFromTheirText() {
        FacOptions defaults = FacOptions.defaults();
        assertThat(FacOptions.fromMap(defaults.toMap())).isEqualTo(defaults);
        FacOptions set = FacOptions.fromMap(Map.of("single-block-limit", "1MB", "checksum-unit", "16KB",
                "overhead-budget", "3%"));
        assertThat(set.singleBlockLimit()).isEqualTo(1L << 20);
        assertThat(FacOptions.fromMap(set.toMap())).isEqualTo(set);
    }

    @Test
    void aSingleBlockLimitOfZeroTurnsItOff() {
        assertThat(FacOptions.defaults().singleBlockLimit()).isZero();
        assertThat(FacOptions.fromMap(Map.of("single-block-limit", "0")).singleBlockLimit()).isZero();
        assertThatThrownBy(() -> FacOptions.fromMap(Map.of("single-block-limit", "lots")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("single-block-limit");
    }
}
