package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** query --out: every sample inside the directory, none through a link, none over another. */
class SampleFilesTest {

    @TempDir
    Path dir;

    @Test
    void namesWithDirectoriesSpacesAndNonAsciiAreWrittenAsTheyAre() throws IOException {
        SampleFiles files = new SampleFiles(dir.resolve("out"));
        Path written = files.write(sample("a/x y/\u00e9t\u00e9 \u732b.png", "one"));

        assertThat(written).isEqualTo(dir.resolve("out/a/x y/\u00e9t\u00e9 \u732b.png").toRealPath());
        assertThat(Files.readString(written)).isEqualTo("one");
        assertThat(files.written()).isEqualTo(1);
        assertThat(files.renamed()).isZero();
    }

    @Test
    void aNameThatWouldLeaveTheDirectoryIsWrittenUnderItsSafeForm() throws IOException {
        // Only datasets ingested before names were checked hold such names.
        SampleFiles files = new SampleFiles(dir.resolve("out"));
        files.write(sample("/tmp/abs.png", "abs"));
        files.write(sample("../../up.png", "up"));

        assertThat(Files.readString(dir.resolve("out/tmp/abs.png"))).isEqualTo("abs");
        assertThat(Files.readString(dir.resolve("out/up.png"))).isEqualTo("up");
        assertThat(files.renamed()).isEqualTo(2);
        assertThat(dir.resolve("up.png")).doesNotExist();
        assertThatThrownBy(() -> files.write(sample("..", "x"))).isInstanceOf(LayoutBenchException.class)
                .hasMessage("Cannot write sample '..': Path '..' leaves no name for a sample");
    }

    @Test
    void aSecondSampleOfOneNameFailsAndTheCountIsTheFilesThere() throws IOException {
        SampleFiles files = new SampleFiles(dir.resolve("out"));
        files.write(sample("dup.png", "first"));
        Path file = dir.resolve("out/dup.png").toRealPath();

        assertThatThrownBy(() -> files.write(sample("dup.png", "second"))).isInstanceOf(LayoutBenchException.class)
                .hasMessage("Cannot write sample 'dup.png' to " + file + ": an earlier sample of this query was "
                        + "written there (the dataset holds two samples of one name, written before repeated names "
                        + "were refused); ingest the dataset again");
        assertThat(Files.readString(file)).isEqualTo("first");
        assertThat(files.written()).isEqualTo(1);
        try (Stream<Path> all = Files.walk(dir.resolve("out"))) {
            assertThat(all.filter(Files::isRegularFile).count()).isEqualTo(files.written());
        }
    }

    @Test
    void aFileLeftByAnEarlierRunIsReplaced() throws IOException {
        new SampleFiles(dir.resolve("out")).write(sample("x.png", "old"));
        SampleFiles again = new SampleFiles(dir.resolve("out"));
        again.write(sample("x.png", "new"));
        assertThat(Files.readString(dir.resolve("out/x.png"))).isEqualTo("new");
    }

    @Test
    void linksInsideTheDirectoryAreNotFollowed() throws IOException {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.createSymbolicLink(out.resolve("evil"), elsewhere);
        Files.createSymbolicLink(out.resolve("x.png"), elsewhere.resolve("target.png"));
        SampleFiles files = new SampleFiles(out);

        assertThatThrownBy(() -> files.write(sample("evil/passwd", "x"))).isInstanceOf(LayoutBenchException.class)
                .hasMessage("Cannot write sample 'evil/passwd': " + out.toRealPath().resolve("evil") + " is a "
                        + "symbolic link, and --out writes through none");
        assertThatThrownBy(() -> files.write(sample("x.png", "x"))).hasMessageContaining("x.png: it is a symbolic "
                + "link, and --out writes through none");
        try (Stream<Path> left = Files.list(elsewhere)) {
            assertThat(left).isEmpty();
        }
        assertThat(files.written()).isZero();
    }

    @Test
    void aHardLinkInsideTheDirectoryIsReplacedNotWrittenThrough() throws IOException {
        Path outside = Files.writeString(dir.resolve("outside.txt"), "keep me");
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.createLink(out.resolve("x.png"), outside);
        SampleFiles files = new SampleFiles(out);

        files.write(sample("x.png", "sample"));

        assertThat(Files.readString(outside)).isEqualTo("keep me");
        assertThat(Files.readString(out.resolve("x.png"))).isEqualTo("sample");
        try (Stream<Path> left = Files.list(out)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("x.png");
        }
    }

    private static Sample sample(String name, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new Sample(new MetadataRow(MetadataSchema.imageNet(), Arrays.asList(name, "x", (long) bytes.length,
                1L, 1L)), ByteBuffer.wrap(bytes));
    }
}
