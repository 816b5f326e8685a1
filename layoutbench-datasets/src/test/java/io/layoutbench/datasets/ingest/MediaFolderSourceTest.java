package io.layoutbench.datasets.ingest;

import static io.layoutbench.datasets.media.MediaFixtures.bytes;
import static io.layoutbench.datasets.media.MediaFixtures.firstHalf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.datasets.media.MediaFixtures;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MediaFolderSourceTest {

    private static final long BIG = 300L << 20;

    @TempDir
    Path root;

    @BeforeEach
    void layOutFolder() {
        write("speech/a.wav", MediaFixtures.wav(16_000, 1, 16, 8_000));
        write("speech/deep/er/b.flac", bytes("tone.flac"));
        write("music/c.ogg", bytes("tone.ogg"));
        write("music/d.opus", bytes("tone.opus"));
        write("music/e.mp3", bytes("tone.mp3"));
        write("video/clip.mp4", bytes("clip.mp4"));
        write("images/x.png", bytes("image.png"));
        write("images/y.jpg", bytes("image.jpg"));
        write("notes/readme.txt", "hello\n".getBytes(StandardCharsets.UTF_8));
        byte[] random = new byte[1000];
        new Random(1).nextBytes(random);
        random[0] = 0;
        write("notes/blob.bin", random);
        write("speech/.DS_Store", new byte[] {0, 0, 0, 1});
        write(".cache/z.wav", MediaFixtures.wav(8_000, 1, 8, 10));
        write("images/.thumbs/q.png", bytes("image.png"));
        write("LICENSE", "not a sample".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void listsEveryMediaFileInOrderWithItsHeaderFacts() {
        MediaFolderSource source = MediaFolderSource.open(root);

        assertThat(source.labels()).containsExactly("images", "music", "notes", "speech", "video");
        try (Stream<MetadataRow> rows = source.metadata()) {
            assertThat(rows.map(this::describe)).containsExactly(
                    "images/x.png images image png 40x30",
                    "images/y.jpg images image jpeg 48x36",
                    "music/c.ogg music audio ogg 2.0s 22050Hz 2ch",
                    "music/d.opus music audio opus 1.3s 48000Hz 2ch",
                    "music/e.mp3 music audio mp3 6.1s 22050Hz 1ch",
                    "notes/blob.bin notes other bin",
                    "notes/readme.txt notes text txt",
                    "speech/a.wav speech audio wav 0.5s 16000Hz 1ch",
                    "speech/deep/er/b.flac speech audio flac 1.5s 16000Hz 1ch",
                    "video/clip.mp4 video video mp4 2.0s 96x64 8000Hz 1ch");
        }
    }

    @Test
    void samplesHoldTheFilesLazilyWithTheSameMetadata() throws IOException {
        MediaFolderSource source = MediaFolderSource.open(root);
        List<MetadataRow> rows = collect(source::metadata);
        List<Sample> samples = collect(source::samples);

        assertThat(samples).extracting(Sample::metadata).containsExactlyElementsOf(rows);
        for (Sample sample : samples) {
            Blob blob = sample.field(Sample.DATA);
            assertThat(sample.fields().keySet()).containsExactly(Sample.DATA);
            assertThat(blob.inMemory()).as("file-backed, read when the writer reads it").isFalse();
            assertThat(blob.readAll()).isEqualTo(ByteBuffer.wrap(Files.readAllBytes(root.resolve(sample.filename()))));
            assertThat(sample.metadata().getLong("filesize_bytes")).isEqualTo(blob.size());
        }
    }

    @Test
    void theSchemaNamesEveryFactAndOnePayloadField() {
        MetadataSchema schema = MediaFolderSource.open(root).schema();

        assertThat(schema.columns()).extracting(Column::toString).containsExactly("filename string",
                "label string", "media_type string", "format string", "filesize_bytes bigint", "width bigint",
                "height bigint", "duration_seconds double", "sample_rate bigint", "channels bigint");
        assertThat(schema.find("human_label")).as("the paper's alias is the ImageNet schema's alone").isEmpty();
        assertThat(schema.payloadFields()).containsExactly(Sample.DATA);
        assertThat(MediaFolderSource.mediaSchema()).isEqualTo(schema);
    }

    @Test
    void fileNameStyleAndTwoFilesOfOneNameFailNamingBoth() {
        write("music/a.wav", MediaFixtures.wav(8_000, 1, 16, 100));
        IngestOptions fileNames = IngestOptions.defaults().withFilenames(IngestOptions.FilenameStyle.FILE_NAME);

        try (Stream<MetadataRow> rows = MediaFolderSource.open(root, fileNames).metadata()) {
            assertThatThrownBy(rows::count).isInstanceOf(IngestException.class).hasMessage(root.resolve(
                    "speech/a.wav") + ": sample name 'a.wav' is already the name of " + root.resolve("music/a.wav")
                    + "; the samples of a dataset need distinct names, as the layouts store and find them by name: "
                    + "name samples by their path in the folder (IngestOptions.FilenameStyle.RELATIVE_PATH)");
        }
        try (Stream<MetadataRow> rows = MediaFolderSource.open(root).metadata()) {
            assertThat(rows.count()).as("relative paths are distinct").isEqualTo(11);
        }
    }

    @Test
    void unreadableMediaIsStoredAsOpaqueBytesWithOneWarningEach() {
        write("speech/cut.wav", firstHalf(MediaFixtures.wav(16_000, 1, 16, 8_000)));
        write("music/empty.mp3", new byte[0]);
        MediaFolderSource source = MediaFolderSource.open(root);

        List<MetadataRow> rows;
        String log;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            rows = collect(source::metadata);
        } finally {
            System.setErr(err);
        }
        log = captured.toString(StandardCharsets.UTF_8);

        assertThat(rows).hasSize(12).map(this::describe).contains(
                "music/empty.mp3 music audio mp3",
                "speech/cut.wav speech audio wav");
        List<String> lines = log.lines().collect(Collectors.toList());
        assertThat(lines).as("one WARN line a file, nothing from the libraries: %s", log).hasSize(2);
        assertThat(lines.get(0)).contains("WARN").contains("Cannot read the MP3 header of "
                + root.resolve("music/empty.mp3") + ": the file is empty; storing it as opaque bytes");
        assertThat(lines.get(1)).contains("WARN").contains("Cannot read the WAV header of "
                + root.resolve("speech/cut.wav") + ": the data chunk ends at byte");
        try (Stream<Sample> samples = source.samples()) {
            Sample cut = samples.filter(s -> s.filename().equals("speech/cut.wav")).findFirst().orElseThrow();
            assertThat(cut.field(Sample.DATA).size()).isEqualTo(size("speech/cut.wav"));
            assertThat(cut.metadata().get("duration_seconds")).isNull();
        }
    }

    @Test
    void strictIngestRefusesUnreadableMediaNamingTheFile() {
        write("speech/cut.wav", firstHalf(MediaFixtures.wav(16_000, 1, 16, 8_000)));
        IngestOptions strict = IngestOptions.defaults()
                .withUnreadableMedia(IngestOptions.UnreadableMediaPolicy.FAIL);

        try (Stream<Sample> samples = MediaFolderSource.open(root, strict).samples()) {
            assertThatThrownBy(samples::count)
                    .isInstanceOf(IngestException.class)
                    .hasMessageStartingWith("Cannot read the WAV header of " + root.resolve("speech/cut.wav")
                            + ": the data chunk ends at byte 16044 but the file has 8022 bytes")
                    .hasMessageEndingWith("(IngestOptions.UnreadableMediaPolicy.FAIL; STORE_OPAQUE would store it "
                            + "as opaque bytes without header facts)");
        }
        try (Stream<MetadataRow> rows = MediaFolderSource.open(root, strict).metadata()) {
            assertThat(rows.limit(3).count()).as("streams are lazy: files before the damaged one pass").isEqualTo(3);
        }
    }

    @Test
    void unknownFormatsAreSamplesWhateverTheImageOption() {
        IngestOptions skip = IngestOptions.defaults().withUnknownFormats(IngestOptions.UnknownFormatPolicy.SKIP);
        assertThat(collect(MediaFolderSource.open(root, skip)::metadata))
                .isEqualTo(collect(MediaFolderSource.open(root)::metadata));
    }

    @Test
    void largeFilesAreSizedAndProbedWithoutReadingThem() throws IOException {
        Files.createDirectories(root.resolve("big"));
        try (RandomAccessFile zeros = new RandomAccessFile(root.resolve("big/zeros.bin").toFile(), "rw")) {
            zeros.setLength(BIG); // sparse: no byte is written
        }
        MediaFixtures.sparseMp4(root.resolve("big/long.mp4"), bytes("clip.mp4"), BIG, false);
        MediaFolderSource source = MediaFolderSource.open(root);
        collect(source::metadata); // classes loaded and headers cached before counting

        OptionalLong before = MediaFixtures.bytesReadByProcess();
        List<MetadataRow> rows = collect(source::metadata);
        List<Sample> samples = collect(source::samples);
        DatasetMetadata dataset = source.datasetMetadata("big");
        OptionalLong after = MediaFixtures.bytesReadByProcess();

        assertThat(rows.subList(0, 2)).map(this::describe).containsExactly(
                "big/long.mp4 big video mp4 2.0s 96x64 8000Hz 1ch",
                "big/zeros.bin big other bin");
        assertThat(rows.get(1).getLong("filesize_bytes")).isEqualTo(BIG);
        assertThat(samples.get(1).field(Sample.DATA).size()).isEqualTo(BIG);
        assertThat(samples.get(0).field(Sample.DATA).size()).isEqualTo(size("big/long.mp4"));
        assertThat(dataset.payloadBytes()).isGreaterThan(2 * BIG);
        assertThat(dataset.sampleCount()).isEqualTo(12);
        assumeTrue(before.isPresent() && after.isPresent(), "no /proc/self/io to count bytes read");
        assertThat(after.getAsLong() - before.getAsLong())
                .as("bytes read by three passes over %s bytes of files", 2 * BIG)
                .isLessThan(8L << 20);
    }

    @Test
    void rootMustBeADirectory() {
        assertThatThrownBy(() -> MediaFolderSource.open(root.resolve("LICENSE")))
                .isInstanceOf(IngestException.class)
                .hasMessage("Media folder " + root.resolve("LICENSE") + " is not a directory");
    }

    @Test
    void filesListsWhatSamplesRead() {
        MediaFolderSource source = MediaFolderSource.open(root);
        try (Stream<Path> files = source.files(); Stream<Sample> samples = source.samples()) {
            assertThat(files.map(root::relativize).map(Path::toString))
                    .containsExactlyElementsOf(samples.map(Sample::filename).collect(Collectors.toList()));
        }
    }

    private void write(String relative, byte[] bytes) {
        MediaFixtures.write(root.resolve(relative), bytes);
    }

    private long size(String relative) {
        try {
            return Files.size(root.resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> List<T> collect(Supplier<Stream<T>> streams) {
        try (Stream<T> stream = streams.get()) {
            return stream.collect(Collectors.toList());
        }
    }

    /** "file label type format [WxH] [seconds rate channels]", with what the row has. */
    private String describe(MetadataRow row) {
        StringBuilder text = new StringBuilder(row.getString("filename") + " " + row.getString("label") + " "
                + row.getString("media_type") + " " + row.getString("format"));
        if (row.get("duration_seconds") != null) {
            text.append(String.format(Locale.ROOT, " %.1fs", row.getDouble("duration_seconds")));
        }
        if (row.get("width") != null) {
            text.append(" ").append(row.getLong("width")).append("x").append(row.getLong("height"));
        }
        if (row.get("sample_rate") != null) {
            text.append(" ").append(row.getLong("sample_rate")).append("Hz ").append(row.getLong("channels"))
                    .append("ch");
        }
        assertThat(row.getLong("filesize_bytes")).isEqualTo(size(row.getString("filename")));
        return text.toString();
    }
}
