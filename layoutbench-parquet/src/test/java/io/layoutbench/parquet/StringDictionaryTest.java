package io.layoutbench.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class StringDictionaryTest {

    @Test
    void numbersDistinctValuesInOrderOfFirstAppearance() {
        StringDictionary dictionary = StringDictionary.of("tench", "streetcar", "tench", "", "naïve ☃");
        assertThat(dictionary.size()).isEqualTo(4);
        assertThat(dictionary.get(0)).isEqualTo("tench");
        assertThat(dictionary.get(3)).isEqualTo("naïve ☃");
        assertThat(dictionary.idOf("streetcar")).isEqualTo(1);
        assertThat(dictionary.idOf("")).isEqualTo(2);
        assertThat(dictionary.idOf("naïve ☃")).isEqualTo(3);
        assertThat(dictionary.idOf("goldfish")).isEqualTo(-1);
    }

    @Test
    void holdsManyValuesFromReadOnlyBuffers() {
        StringDictionary.Builder builder = StringDictionary.builder();
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 200_000; i++) {
                ByteBuffer utf8 = ByteBuffer.wrap(("n" + i + ".JPEG").getBytes(StandardCharsets.UTF_8))
                        .asReadOnlyBuffer();
                assertThat(builder.add(utf8)).isEqualTo(i);
                assertThat(utf8.position()).isZero();
            }
        }
        StringDictionary dictionary = builder.build();
        assertThat(dictionary.size()).isEqualTo(200_000);
        assertThat(dictionary.get(123_456)).isEqualTo("n123456.JPEG");
        assertThat(dictionary.idOf("n199999.JPEG")).isEqualTo(199_999);
        assertThat(dictionary.retainedBytes()).isLessThan(200_000L * 40);
    }
}
