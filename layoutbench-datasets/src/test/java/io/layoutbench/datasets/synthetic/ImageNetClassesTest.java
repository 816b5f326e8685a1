package io.layoutbench.datasets.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.LayoutBenchException;

import java.io.BufferedReader;
import java.io.StringReader;

import org.junit.jupiter.api.Test;

class ImageNetClassesTest {

    @Test
    void loadsTheThousandClassesInWnidOrder() {
        assertThat(ImageNetClasses.all()).hasSize(1000);
        assertThat(ImageNetClasses.all().get(0)).isEqualTo(new ImageNetClass(0, "n01440764", "tench"));
        assertThat(ImageNetClasses.uniqueByLabel("cello").wnid()).isEqualTo("n02992211");
        assertThat(ImageNetClasses.byWnid("n04335435").orElseThrow().label()).isEqualTo("streetcar");
        for (int i = 0; i < 1000; i++) {
            assertThat(ImageNetClasses.all().get(i).index()).isEqualTo(i);
        }
    }

    @Test
    void tenLabelsEndInSnakeAndTwoLabelsRepeat() {
        assertThat(ImageNetClasses.all().stream().filter(c -> c.label().endsWith("snake"))).hasSize(10);
        assertThat(ImageNetClasses.byLabel("crane")).hasSize(2);
        assertThat(ImageNetClasses.byLabel("maillot")).hasSize(2);
        assertThat(ImageNetClasses.byLabel("no such label")).isEmpty();
        assertThatThrownBy(() -> ImageNetClasses.uniqueByLabel("crane"))
                .hasMessageContaining("exactly one")
                .hasMessageContaining("found 2");
    }

    @Test
    void malformedTablesNameTheLine() {
        assertThatThrownBy(() -> ImageNetClasses.parse(reader("n01440764\ttench\nn01443537 goldfish\n"), "t.tsv"))
                .isInstanceOf(LayoutBenchException.class)
                .hasMessageContaining("t.tsv line 2");
        assertThatThrownBy(() -> ImageNetClasses.parse(reader("n01443537\tgoldfish\nn01440764\ttench\n"), "t.tsv"))
                .hasMessageContaining("t.tsv line 2")
                .hasMessageContaining("sorted by wnid");
        assertThatThrownBy(() -> ImageNetClasses.parse(reader("n01440764\ttench\n"), "t.tsv"))
                .hasMessageContaining("expected 1000 classes but found 1");
    }

    private static BufferedReader reader(String text) {
        return new BufferedReader(new StringReader(text));
    }
}
