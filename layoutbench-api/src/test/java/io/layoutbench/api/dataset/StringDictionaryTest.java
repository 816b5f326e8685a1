package io.layoutbench.api.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        assertThat(dictionary.estimatedBytes()).isLessThan(200_000L * 40);
    }

    @Test
    void buildCopiesSoTheBuilderGoesOn() {
        StringDictionary.Builder builder = StringDictionary.builder();
        builder.add("tench");
        StringDictionary first = builder.build();
        builder.add("goldfish");
        assertThat(first.size()).isEqualTo(1);
        assertThat(first.idOf("goldfish")).isEqualTo(-1);
        assertThat(builder.build().idOf("goldfish")).isEqualTo(1);
    }

    @Test
    void storesWellFormedUtf8Only() {
        StringDictionary.Builder builder = StringDictionary.builder();
        // An overlong '/' and a lone continuation byte are stored as Java decodes them: U+FFFD each.
        byte[] malformed = {'a', (byte) 0xC0, (byte) 0xAF, (byte) 0x80};
        int id = builder.add(malformed, 0, malformed.length);
        StringDictionary dictionary = builder.build();
        String decoded = new String(malformed, StandardCharsets.UTF_8);
        assertThat(dictionary.get(id)).isEqualTo(decoded);
        assertThat(dictionary.idOf(decoded)).isEqualTo(id);
        assertThat(dictionary.utf8(id)).isEqualTo(ByteBuffer.wrap(decoded.getBytes(StandardCharsets.UTF_8)));
        assertThatThrownBy(() -> builder.add("a\uD800b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unpaired surrogate U+D800 at index 1");
        assertThat(dictionary.idOf("a\uD800b")).as("no dictionary holds an unpaired surrogate").isEqualTo(-1);
        assertThat(StringDictionary.of("a?b").idOf("a\uD800b")).isEqualTo(-1);
    }

    @Test
    void matchesRunOnTheBytesOfOneValue() {
        StringDictionary dictionary = StringDictionary.of("tench", "naïve");
        assertThat(dictionary.utf8Length(1)).isEqualTo(6);
        assertThat(dictionary.matches(1, (utf8, from, to) -> to - from == 6 && utf8[from] == 'n')).isTrue();
        assertThat(dictionary.matches(0, (utf8, from, to) -> utf8[from] == 'n')).isFalse();
        assertThatThrownBy(() -> dictionary.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
