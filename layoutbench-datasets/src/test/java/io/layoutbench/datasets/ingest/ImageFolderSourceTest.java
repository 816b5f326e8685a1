package io.layoutbench.datasets.ingest;

import static io.layoutbench.datasets.image.TestImages.encode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.datasets.image.ImageHeaderException;
import io.layoutbench.datasets.image.TestImages;
import io.layoutbench.datasets.image.UnknownImageFormatException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageFolderSourceTest {

    @TempDir
    Path root;

    @BeforeEach
    void layOutFolder() throws IOException {
        write("tench/n01440764_2.JPEG", encode("jpeg", 500, 375));
        write("tench/n01440764_10.JPEG", encode("jpeg", 375, 500));
        write("goldfish/b.png", encode("png", 640, 480));
        write("goldfish/a.gif", encode("gif", 32, 16));
        write("goldfish/more/c.bmp", encode("bmp", 7, 9));
        write("goldfish/d.webp", TestImages.webpLossy(300, 200));
        write("goldfish/.DS_Store", new byte[] {0, 0, 0, 1});
        write(".hidden/x.jpg", encode("jpeg", 8, 8));
        write("README.txt", new byte[] {'h', 'i'});
    }

    @Test
    void listsLabelsAndFilesInSortedOrderWithHeaderDimensions() throws IOException {
        ImageFolderSource source = ImageFolderSource.open(root);

        assertThat(source.labels()).containsExactly("goldfish", "tench");
        try (Stream<MetadataRow> rows = source.metadata()) {
            assertThat(rows.map(ImageFolderSourceTest::describe)).containsExactly(
                    "goldfish/a.gif goldfish 32x16 " + size("goldfish/a.gif"),
                    "goldfish/b.png goldfish 640x480 " + size("goldfish/b.png"),
                    "goldfish/d.webp goldfish 300x200 " + size("goldfish/d.webp"),
                    "goldfish/more/c.bmp goldfish 7x9 " + size("goldfish/more/c.bmp"),
                    "tench/n01440764_10.JPEG tench 375x500 " + size("tench/n01440764_10.JPEG"),
                    "tench/n01440764_2.JPEG tench 500x375 " + size("tench/n01440764_2.JPEG"));
        }
    }

    @Test
    void samplesCarryTheFileBytesAndTheSameMetadata() throws IOException {
        ImageFolderSource source = ImageFolderSource.open(root);
        List<MetadataRow> rows;
        try (Stream<MetadataRow> stream = source.metadata()) {
            rows = stream.collect(Collectors.toList());
        }
        List<Sample> samples;
        try (Stream<Sample> stream = source.samples()) {
            samples = stream.collect(Collectors.toList());
        }

        assertThat(samples).extracting(Sample::metadata).containsExactlyElementsOf(rows);
        for (Sample sample : samples) {
            assertThat(sample.data()).isEqualTo(ByteBuffer.wrap(Files.readAllBytes(root.resolve(sample.filename()))));
        }
    }

    @Test
    void fileNameStyleDropsTheDirectories() {
        ImageFolderSource source = ImageFolderSource.open(root,
                IngestOptions.defaults().withFilenames(IngestOptions.FilenameStyle.FILE_NAME));
        try (Stream<MetadataRow> rows = source.metadata()) {
            assertThat(rows.map(r -> r.getString("filename"))).containsExactly("a.gif", "b.png", "d.webp", "c.bmp",
                    "n01440764_10.JPEG", "n01440764_2.JPEG");
        }
    }

    @Test
    void twoFilesOfOneNameFailNamingBothUnlessSkipped() throws IOException {
        write("tench/a.gif", encode("gif", 1, 1));
        ImageFolderSource source = ImageFolderSource.open(root,
                IngestOptions.defaults().withFilenames(IngestOptions.FilenameStyle.FILE_NAME));
        try (Stream<Sample> samples = source.samples()) {
            assertThatThrownBy(samples::count).isInstanceOf(IngestException.class).hasMessage(root.resolve(
                    "tench/a.gif") + ": sample name 'a.gif' is already the name of " + root.resolve("goldfish/a.gif")
                    + "; the samples of a dataset need distinct names, as the layouts store and find them by name: "
                    + "name samples by their path in the folder (IngestOptions.FilenameStyle.RELATIVE_PATH)");
        }
        Files.delete(root.resolve("tench/a.gif"));
        write("tench/notes.txt", new byte[] {'n'});
        write("goldfish/notes.txt", new byte[] {'n'});
        try (Stream<MetadataRow> rows = ImageFolderSource.open(root, IngestOptions.defaults()
                .withFilenames(IngestOptions.FilenameStyle.FILE_NAME)
                .withUnknownFormats(IngestOptions.UnknownFormatPolicy.SKIP)).metadata()) {
            assertThat(rows.count()).as("skipped files are not samples, so their names do not repeat").isEqualTo(6);
        }
    }

    @Test
    void filesListsWhatSamplesRead() {
        ImageFolderSource source = ImageFolderSource.open(root);
        try (Stream<Path> files = source.files(); Stream<Sample> samples = source.samples()) {
            assertThat(files.map(root::relativize).map(Path::toString))
                    .containsExactlyElementsOf(samples.map(Sample::filename).toList());
        }
    }

    @Test
    void unknownFormatsFailOrAreSkipped() throws IOException {
        write("tench/notes.txt", new byte[] {'n', 'o', 't', 'e', 's'});

        try (Stream<MetadataRow> rows = ImageFolderSource.open(root).metadata()) {
            assertThatThrownBy(rows::count)
                    .isInstanceOf(UnknownImageFormatException.class)
                    .hasMessageContaining(root.resolve("tench/notes.txt").toString());
        }
        IngestOptions skip = IngestOptions.defaults().withUnknownFormats(IngestOptions.UnknownFormatPolicy.SKIP);
        try (Stream<MetadataRow> rows = ImageFolderSource.open(root, skip).metadata();
             Stream<Sample> samples = ImageFolderSource.open(root, skip).samples()) {
            assertThat(rows.count()).isEqualTo(6);
            assertThat(samples.map(Sample::filename)).doesNotContain("tench/notes.txt").hasSize(6);
        }
    }

    @Test
    void malformedImagesFailEvenWhenSkippingUnknownFormats() throws IOException {
        byte[] jpeg = encode("jpeg", 64, 64);
        write("tench/z-cut.JPEG", Arrays.copyOf(jpeg, 30));
        IngestOptions skip = IngestOptions.defaults().withUnknownFormats(IngestOptions.UnknownFormatPolicy.SKIP);

        try (Stream<Sample> samples = ImageFolderSource.open(root, skip).samples()) {
            assertThatThrownBy(samples::count)
                    .isInstanceOf(ImageHeaderException.class)
                    .hasMessageContaining("z-cut.JPEG")
                    .hasMessageContaining("truncated JPEG header");
        }
    }

    @Test
    void streamsAreLazy() throws IOException {
        write("zebra/broken.png", new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        try (Stream<Sample> samples = ImageFolderSource.open(root).samples()) {
            assertThat(samples.findFirst().orElseThrow().filename()).isEqualTo("goldfish/a.gif");
        }
    }

    @Test
    void rootMustBeADirectory() {
        assertThatThrownBy(() -> ImageFolderSource.open(root.resolve("README.txt")))
                .isInstanceOf(IngestException.class)
                .hasMessageContaining("is not a directory");
    }

    private void write(String relative, byte[] bytes) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    private long size(String relative) throws IOException {
        return Files.size(root.resolve(relative));
    }

    private static String describe(MetadataRow row) {
        return row.getString("filename") + " " + row.getString("label") + " " + row.getLong("width") + "x"
                + row.getLong("height") + " " + row.getLong("filesize_bytes");
    }
}
