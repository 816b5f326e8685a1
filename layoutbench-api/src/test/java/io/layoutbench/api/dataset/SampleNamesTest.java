package io.layoutbench.api.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class SampleNamesTest {

    @Test
    void relativePathsOfAnyCharactersButControlsAndBackslashesAreNames() {
        for (String name : List.of("a.png", "n01440764/n01440764_10026.JPEG", "with space.png", "\u732b/\u00fc.png",
                "..x", ".hidden/x", "a/b/c/d.png")) {
            assertThat(SampleNames.isValid(name)).as(name).isTrue();
            assertThat(SampleNames.check(name)).isSameAs(name);
        }
    }

    @Test
    void namesThatWouldLeaveTheirDirectoryAreRefusedWithTheRule() {
        assertThat(SampleNames.problem("/tmp/x.png")).contains("starts with '/'");
        assertThat(SampleNames.problem("../x.png")).contains("has a '..' segment");
        assertThat(SampleNames.problem("a/./x.png")).contains("has a '.' segment");
        assertThat(SampleNames.problem("a//x.png")).contains("has an empty segment");
        assertThat(SampleNames.problem("a/")).contains("has an empty segment");
        assertThat(SampleNames.problem("a\\x.png")).contains("contains a backslash at index 1");
        assertThat(SampleNames.problem("a\nb")).contains("contains the control character U+000A at index 1");
        assertThat(SampleNames.problem("a\uD800")).contains("contains an unpaired surrogate U+D800 at index 1");
        assertThat(SampleNames.problem("\uDC00a")).contains("contains an unpaired surrogate U+DC00 at index 0");
        assertThat(SampleNames.problem("cat \uD83D\uDC08.png")).as("a pair: U+1F408").isEmpty();
        assertThat(SampleNames.problem("")).contains("is empty");
        assertThat(SampleNames.problem(null)).contains("is NULL");
        assertThat(SampleNames.problem("x".repeat(1025))).contains("is longer than 1024 UTF-8 bytes");
        assertThatThrownBy(() -> SampleNames.check("/tmp/x.png")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Sample name '/tmp/x.png' starts with '/'; a sample name is a relative path (the "
                        + "layouts store the sample under it)");
    }

    @Test
    void aPathBecomesTheNameItNormalizesToBelowItsStart() {
        assertThat(SampleNames.fromPath("images/cat.png")).isEqualTo("images/cat.png");
        assertThat(SampleNames.fromPath("./images//cat.png")).isEqualTo("images/cat.png");
        assertThat(SampleNames.fromPath("../../images/cat.png")).isEqualTo("images/cat.png");
        assertThat(SampleNames.fromPath("/data/images/cat.png")).isEqualTo("data/images/cat.png");
        assertThat(SampleNames.fromPath("a/x/../b/./c.png")).isEqualTo("a/b/c.png");
        assertThat(SampleNames.fromPath("images\\cat.png")).isEqualTo("images/cat.png");
        assertThat(SampleNames.fromPath("new\nline.png")).isEqualTo("new_line.png");
        assertThat(SampleNames.fromPath("\u732b \u00fc.png")).isEqualTo("\u732b \u00fc.png");
        assertThatThrownBy(() -> SampleNames.fromPath("/")).hasMessageContaining("leaves no name");
        assertThatThrownBy(() -> SampleNames.fromPath("a/..")).hasMessageContaining("leaves no name");
    }

    @Test
    void theNameSetFindsEveryRepeatAndHoldsImageNetIn16MiB() {
        SampleNameSet seen = new SampleNameSet();
        int names = 1_281_167;
        for (int i = 0; i < names; i++) {
            assertThat(seen.add(name(i))).isTrue();
        }
        assertThat(seen.size()).isEqualTo(names);
        assertThat(seen.capacity() * 8L).as("table bytes").isLessThanOrEqualTo(16L << 20);
        for (int i = 0; i < names; i += 997) {
            assertThat(seen.add(name(i))).as(name(i)).isFalse();
        }
        assertThat(seen.add("")).isTrue();
        assertThat(seen.add("")).isFalse();
    }

    private static String name(int i) {
        return "n" + (1440764 + i % 1000) + "/n" + (1440764 + i % 1000) + "_" + i + ".JPEG";
    }
}
