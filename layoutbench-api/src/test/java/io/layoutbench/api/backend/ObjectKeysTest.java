package io.layoutbench.api.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ObjectKeysTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "l2/shards/shard-000001.tar", ".hidden", "a/..b/c", "..x", "a/.../b", "sp ace",
            "ünïcödé/😀", "a:b*c?"})
    void acceptsValidKeys(String key) {
        assertThat(ObjectKeys.check(key)).isSameAs(key);
    }

    @Test
    void rejectsKeysNamingTheRule() {
        assertThatThrownBy(() -> ObjectKeys.check(null)).hasMessage("Object key is null");
        assertThatThrownBy(() -> ObjectKeys.check("")).hasMessage("Object key is empty");
        assertThatThrownBy(() -> ObjectKeys.check("/abs")).hasMessage("Object key '/abs' must not start with '/'");
        assertThatThrownBy(() -> ObjectKeys.check("a\\b"))
                .hasMessage("Object key 'a\\b' contains a backslash at index 1");
        assertThatThrownBy(() -> ObjectKeys.check("a\nb"))
                .hasMessage("Object key 'a\nb' contains the control character U+000A at index 1");
        assertThatThrownBy(() -> ObjectKeys.check("a\u007fb")).hasMessageContaining("U+007F");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x", "a/../b", "a//b", "a/", "./a", "a/.", "..", "."})
    void rejectsEmptyDotAndDotDotSegments(String key) {
        assertThatThrownBy(() -> ObjectKeys.check(key))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Object key '" + key + "' has an empty, '.' or '..' segment");
    }

    @Test
    void limitsKeysTo1024Utf8Bytes() {
        assertThat(ObjectKeys.check("k".repeat(1024))).hasSize(1024);
        assertThatThrownBy(() -> ObjectKeys.check("k".repeat(1025)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than 1024 UTF-8 bytes")
                .hasMessageContaining("...");
        // 342 three-byte characters are 1,026 bytes though only 342 chars.
        assertThatThrownBy(() -> ObjectKeys.check("€".repeat(342))).isInstanceOf(IllegalArgumentException.class);
        assertThat(ObjectKeys.check("€".repeat(341))).hasSize(341);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a", "a/", "l2/shards/shard-0", "a/.", "a/..", ".", "a/.hid"})
    void acceptsListingPrefixes(String prefix) {
        assertThat(ObjectKeys.checkPrefix(prefix)).isSameAs(prefix);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/a", "../", "a//", "a/./", "a/../b", "a\\"})
    void rejectsListingPrefixesNoKeyCouldStartWith(String prefix) {
        assertThatThrownBy(() -> ObjectKeys.checkPrefix(prefix)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNullPrefixIsRejected() {
        assertThatThrownBy(() -> ObjectKeys.checkPrefix(null)).hasMessage("Listing prefix is null");
    }
}
