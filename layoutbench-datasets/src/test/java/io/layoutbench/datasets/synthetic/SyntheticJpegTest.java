package io.layoutbench.datasets.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.datasets.image.ImageFormat;
import io.layoutbench.datasets.image.ImageHeader;
import io.layoutbench.datasets.image.ImageHeaders;

import org.junit.jupiter.api.Test;

class SyntheticJpegTest {

    @Test
    void hasExactLengthFramingAndDimensions() {
        for (int length : new int[] {SyntheticJpeg.MIN_LENGTH, SyntheticJpeg.MIN_LENGTH + 1, 1_000, 1_007, 110_003}) {
            byte[] jpeg = SyntheticJpeg.generate(length, 4272, 2848, length);

            assertThat(jpeg).hasSize(length);
            assertThat(jpeg[0] & 0xFF).isEqualTo(0xFF);
            assertThat(jpeg[1] & 0xFF).isEqualTo(0xD8);
            assertThat(jpeg[length - 2] & 0xFF).isEqualTo(0xFF);
            assertThat(jpeg[length - 1] & 0xFF).isEqualTo(0xD9);
            assertThat(ImageHeaders.read(jpeg, "synthetic")).isEqualTo(new ImageHeader(ImageFormat.JPEG, 4272, 2848));
            for (int i = SyntheticJpeg.HEADER_LENGTH; i < length - 2; i++) {
                assertThat(jpeg[i] & 0xFF).as("body byte %d", i).isNotEqualTo(0xFF);
            }
        }
    }

    @Test
    void sameSeedSameBytes() {
        assertThat(SyntheticJpeg.generate(1L, 500, 375, 5_000)).isEqualTo(SyntheticJpeg.generate(1L, 500, 375, 5_000));
        assertThat(SyntheticJpeg.generate(1L, 500, 375, 5_000)).isNotEqualTo(SyntheticJpeg.generate(2L, 500, 375,
                5_000));
    }

    @Test
    void bodyUsesEveryByteValueButFF() {
        byte[] jpeg = SyntheticJpeg.generate(9L, 500, 375, 200_000);
        int[] histogram = new int[256];
        for (int i = SyntheticJpeg.HEADER_LENGTH; i < jpeg.length - 2; i++) {
            histogram[jpeg[i] & 0xFF]++;
        }
        assertThat(histogram[0xFF]).isZero();
        for (int b = 0; b < 0xFE; b++) {
            assertThat(histogram[b]).as("byte %02X", b).isBetween(600, 1000);
        }
    }

    @Test
    void rejectsImpossibleRequests() {
        assertThatThrownBy(() -> SyntheticJpeg.generate(1L, 500, 375, SyntheticJpeg.MIN_LENGTH - 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least " + SyntheticJpeg.MIN_LENGTH);
        assertThatThrownBy(() -> SyntheticJpeg.generate(1L, 70_000, 375, 1_000))
                .hasMessageContaining("70000x375");
        assertThatThrownBy(() -> SyntheticJpeg.generate(1L, 500, 0, 1_000))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
