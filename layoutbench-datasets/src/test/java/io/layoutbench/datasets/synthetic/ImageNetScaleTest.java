package io.layoutbench.datasets.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ImageNetScaleTest {

    @Test
    void sampleCountsAreThePapers() {
        assertThat(ImageNetScale.MINI.sampleCount()).isEqualTo(12_756);
        assertThat(ImageNetScale.MEDIUM.sampleCount()).isEqualTo(128_066);
        assertThat(ImageNetScale.FULL.sampleCount()).isEqualTo(1_281_167);
        assertThat(ImageNetScale.TINY.sampleCount()).isBetween(1_000, 1_100);
    }

    @Test
    void namesIgnoreCaseAndSpaces() {
        assertThat(ImageNetScale.fromName("mini")).isEqualTo(ImageNetScale.MINI);
        assertThat(ImageNetScale.fromName(" MEDIUM ")).isEqualTo(ImageNetScale.MEDIUM);
        assertThat(ImageNetScale.FULL.scaleName()).isEqualTo("full");
    }

    @Test
    void unknownNameListsTheKnownOnes() {
        assertThatThrownBy(() -> ImageNetScale.fromName("huge"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown ImageNet scale 'huge'; known scales: tiny, mini, medium, full");
        assertThatThrownBy(() -> ImageNetScale.fromName(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
