package io.layoutbench.datasets.media;

import static io.layoutbench.datasets.media.MediaFixtures.bytes;
import static io.layoutbench.datasets.media.MediaFixtures.firstHalf;
import static io.layoutbench.datasets.media.MediaFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.layoutbench.datasets.image.TestImages;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MediaProbeTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // fixture,     type,  format, seconds, rate,  channels
            "tone.flac,     AUDIO, flac,   1.5,     16000, 1",
            "tone.ogg,      AUDIO, ogg,    2.0,     22050, 2",
            "tone.opus,     AUDIO, opus,   1.25,    48000, 2",
            "tone.mp3,      AUDIO, mp3,    6.0,     22050, 1",
            "tone.m4a,      AUDIO, mp4,    1.5,     16000, 1",
    })
    void readsAudioFacts(String fixture, MediaType type, String format, double seconds, int rate, int channels) {
        MediaInfo info = MediaProbe.probe(write(dir.resolve(fixture), bytes(fixture)));

        assertThat(info.mediaType()).isEqualTo(type);
        assertThat(info.format()).isEqualTo(format);
        // MP3 and Opus count the encoder's priming and padding: about 1% here.
        assertThat(info.durationSeconds()).isCloseTo(seconds, withinPercentage(1.5));
        assertThat(info.sampleRate()).isEqualTo(rate);
        assertThat(info.channels()).isEqualTo(channels);
        assertThat(info.width()).isNull();
        assertThat(info.height()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "clip.mp4",
            "clip-faststart.mp4",
    })
    void readsVideoFactsWithTheSoundTrackOfAnMp4(String fixture) {
        MediaInfo info = MediaProbe.probe(write(dir.resolve(fixture), bytes(fixture)));

        assertThat(info).usingRecursiveComparison().ignoringFields("durationSeconds")
                .isEqualTo(MediaInfo.video("mp4", null, 96, 64, 8000, 1));
        assertThat(info.durationSeconds()).isCloseTo(2.0, withinPercentage(1));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "image.png, png,  40, 30",
            "image.jpg, jpeg, 48, 36",
    })
    void readsImageDimensions(String fixture, String format, int width, int height) {
        assertThat(MediaProbe.probe(write(dir.resolve(fixture), bytes(fixture))))
                .isEqualTo(MediaInfo.image(format, width, height));
    }

    @ParameterizedTest(name = "{0} Hz, {1} channels, {2} bits, {3} frames")
    @CsvSource({
            "44100, 2, 16, 22050",
            "8000,  1, 8,  12000",
            "16000, 1, 16, 1",
    })
    void readsWavFilesWrittenByTheJdk(int rate, int channels, int bits, int frames) {
        Path file = write(dir.resolve("clip.wav"), MediaFixtures.wav(rate, channels, bits, frames));

        MediaInfo info = MediaProbe.probe(file);

        assertThat(info).usingRecursiveComparison().ignoringFields("durationSeconds")
                .isEqualTo(MediaInfo.audio("wav", null, rate, channels));
        assertThat(info.durationSeconds()).isCloseTo((double) frames / rate, withinPercentage(0.1));
    }

    @Test
    void contentDecidesOverTheExtension() {
        Path flacNamedMp3 = write(dir.resolve("mislabelled.mp3"), bytes("tone.flac"));
        Path mp4WithoutExtension = write(dir.resolve("clip"), bytes("clip.mp4"));
        Path pngNamedTxt = write(dir.resolve("picture.txt"), bytes("image.png"));

        assertThat(MediaProbe.probe(flacNamedMp3).format()).isEqualTo("flac");
        assertThat(MediaProbe.probe(mp4WithoutExtension).mediaType()).isEqualTo(MediaType.VIDEO);
        assertThat(MediaProbe.probe(pngNamedTxt)).isEqualTo(MediaInfo.image("png", 40, 30));
    }

    @Test
    void otherImageFormatsOfTheHeaderReaderAreRead() {
        assertThat(MediaProbe.probe(write(dir.resolve("a.gif"), TestImages.encode("gif", 7, 5))))
                .isEqualTo(MediaInfo.image("gif", 7, 5));
        assertThat(MediaProbe.probe(write(dir.resolve("b"), TestImages.webpLossless(300, 200))))
                .isEqualTo(MediaInfo.image("webp", 300, 200));
        assertThat(MediaProbe.probe(write(dir.resolve("c.bmp"), TestImages.encode("bmp", 3, 9))))
                .isEqualTo(MediaInfo.image("bmp", 3, 9));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // fixture,          type,  format, reason
            "tone.wav,           AUDIO, wav,  'the data chunk ends at byte'",
            "tone.ogg,           AUDIO, ogg,  'the last Ogg page, at offset'",
            "tone.opus,          AUDIO, opus, 'the last Ogg page, at offset'",
            "clip.mp4,           VIDEO, mp4,  'box ''mdat'' at offset 40 declares 4139 bytes but only 2960 follow'",
            "clip-faststart.mp4, VIDEO, mp4,  'box ''mdat'' at offset 1861 declares 4139 bytes but only 1139 follow'",
            "tone.m4a,           AUDIO, mp4,  'box ''mdat'' at offset 36 declares 2529 bytes but only 1659 follow'",
    })
    void aFileCutInHalfIsUnreadableWhereItsFormatShowsIt(String fixture, MediaType type, String format,
                                                          String reason) {
        byte[] whole = fixture.equals("tone.wav") ? MediaFixtures.wav(11025, 2, 16, 8269) : bytes(fixture);
        Path file = write(dir.resolve("cut-" + fixture), firstHalf(whole));

        assertThatThrownBy(() -> MediaProbe.probe(file))
                .isInstanceOfSatisfying(MediaHeaderException.class, e -> {
                    assertThat(e.detected()).isEqualTo(MediaInfo.of(type, format));
                    assertThat(e.source()).isEqualTo(file.toString());
                    assertThat(e.reason()).startsWith(reason);
                })
                .hasMessageStartingWith("Cannot read the " + format.toUpperCase(Locale.ROOT)
                        + " header of " + file + ": ")
                .hasMessageNotContaining("\n");
    }

    @Test
    void anMp4CutRightBeforeItsMovieBoxHasNone() {
        byte[] clip = bytes("clip.mp4");
        Path file = write(dir.resolve("no-moov.mp4"), Arrays.copyOf(clip, clip.length
                - MediaFixtures.box(clip, "moov").length));

        assertThatThrownBy(() -> MediaProbe.probe(file))
                .isInstanceOf(MediaHeaderException.class)
                .hasMessage("Cannot read the MP4 header of " + file + ": there is no movie box ('moov'): the file may "
                        + "be cut short, or hold fragments only");
    }

    @Test
    void flacMp3AndImagesCutAfterTheirHeadersReportWhatTheHeaderDeclares() {
        // The documented limit: these formats do not say where they end, so only a cut header shows.
        assertThat(MediaProbe.probe(write(dir.resolve("cut.flac"), firstHalf(bytes("tone.flac")))).durationSeconds())
                .isEqualTo(1.5);
        assertThat(MediaProbe.probe(write(dir.resolve("cut.mp3"), firstHalf(bytes("tone.mp3")))).durationSeconds())
                .isCloseTo(6.0, withinPercentage(1.5));
        assertThat(MediaProbe.probe(write(dir.resolve("cut.png"), firstHalf(bytes("image.png")))))
                .isEqualTo(MediaInfo.image("png", 40, 30));
        assertThatThrownBy(() -> MediaProbe.probe(write(dir.resolve("head.jpg"), Arrays.copyOf(bytes("image.jpg"),
                30))))
                .isInstanceOf(MediaHeaderException.class)
                .hasMessageContaining("head.jpg: at offset")
                .hasMessageContaining("truncated JPEG header");
    }

    @Test
    void anEmptyFileIsUnreadableMediaByItsExtensionElseOther() {
        Path wav = write(dir.resolve("empty.wav"), new byte[0]);
        assertThatThrownBy(() -> MediaProbe.probe(wav))
                .isInstanceOf(MediaHeaderException.class)
                .hasMessage("Cannot read the WAV header of " + wav + ": the file is empty");

        assertThat(MediaProbe.probe(write(dir.resolve("empty"), new byte[0])))
                .isEqualTo(MediaInfo.of(MediaType.OTHER, "unknown"));
        assertThat(MediaProbe.probe(write(dir.resolve("empty.txt"), new byte[0])))
                .isEqualTo(MediaInfo.of(MediaType.TEXT, "txt"));
    }

    @Test
    void aFileNamedLikeMediaThatIsNotIsUnreadableWithoutCallingTheLibraries() {
        Path fake = write(dir.resolve("song.mp3"), "not really a song".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> MediaProbe.probe(fake))
                .isInstanceOfSatisfying(MediaHeaderException.class,
                        e -> assertThat(e.detected()).isEqualTo(MediaInfo.of(MediaType.AUDIO, "mp3")))
                .hasMessage("Cannot read the MP3 header of " + fake + ": the file is named .mp3 but does not start "
                        + "like one (first bytes 6E 6F 74 20 72 65 61 6C)");
        assertThat(MediaProbe.detect(fake)).isEqualTo(MediaInfo.of(MediaType.AUDIO, "mp3"));
    }

    @Test
    void textIsAKnownExtensionOrValidUtf8() {
        assertThat(MediaProbe.probe(write(dir.resolve("labels.json"), "{\"a\": 1}".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(MediaInfo.of(MediaType.TEXT, "json"));
        assertThat(MediaProbe.probe(write(dir.resolve("README"), "Grüße\r\n\tà tous\f".getBytes(
                StandardCharsets.UTF_8)))).isEqualTo(MediaInfo.of(MediaType.TEXT, "txt"));
        assertThat(MediaProbe.probe(write(dir.resolve("train.py"), "print('hi')\n".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(MediaInfo.of(MediaType.TEXT, "py"));
        assertThat(MediaProbe.probe(write(dir.resolve("BMW.md"), "BM\0\0".getBytes(StandardCharsets.UTF_8))))
                .as("a known text extension is text even when the bytes are not")
                .isEqualTo(MediaInfo.of(MediaType.TEXT, "md"));
        assertThat(MediaProbe.probe(write(dir.resolve("cars"), "BMW and Audi\n".getBytes(StandardCharsets.UTF_8))))
                .as("'BM' starts text too; a bitmap also has reserved zeros")
                .isEqualTo(MediaInfo.of(MediaType.TEXT, "txt"));
    }

    @Test
    void utf8CutByTheSniffedPrefixIsStillText() {
        byte[] text = "é".repeat(MediaProbe.PREFIX_BYTES).getBytes(StandardCharsets.UTF_8);
        byte[] shifted = new byte[text.length + 1];
        shifted[0] = 'x';
        System.arraycopy(text, 0, shifted, 1, text.length); // the prefix now ends inside a two-byte character

        assertThat(MediaProbe.probe(write(dir.resolve("long"), shifted)).mediaType()).isEqualTo(MediaType.TEXT);
    }

    @Test
    void binaryIsOtherWithItsExtensionAsFormat() {
        byte[] random = new byte[4096];
        new Random(7).nextBytes(random);
        random[0] = 0; // not a signature of anything

        assertThat(MediaProbe.probe(write(dir.resolve("weights.bin"), random)))
                .isEqualTo(MediaInfo.of(MediaType.OTHER, "bin"));
        assertThat(MediaProbe.probe(write(dir.resolve("blob"), random)))
                .isEqualTo(MediaInfo.of(MediaType.OTHER, "unknown"));
        assertThat(MediaProbe.probe(write(dir.resolve("latin1"), "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1))))
                .as("not valid UTF-8").isEqualTo(MediaInfo.of(MediaType.OTHER, "unknown"));
        assertThat(MediaProbe.probe(write(dir.resolve("a.weird-ext"), random)))
                .as("an extension that cannot be a format name").isEqualTo(MediaInfo.of(MediaType.OTHER, "unknown"));
    }

    @Test
    void formatsRecognisedButNotReadHaveNoFacts() {
        byte[] avi = ascii("RIFF\0\0\0\0AVI LIST");
        byte[] webm = concat(new byte[] {0x1A, 0x45, (byte) 0xDF, (byte) 0xA3}, ascii("....B\u0082\u0084webm"));
        byte[] heic = concat(new byte[] {0, 0, 0, 24}, ascii("ftypheic\0\0\0\0mif1heic"));

        assertThat(MediaProbe.probe(write(dir.resolve("a.avi"), avi))).isEqualTo(MediaInfo.of(MediaType.VIDEO, "avi"));
        assertThat(MediaProbe.probe(write(dir.resolve("b"), webm))).isEqualTo(MediaInfo.of(MediaType.VIDEO, "webm"));
        assertThat(MediaProbe.probe(write(dir.resolve("c"), heic))).isEqualTo(MediaInfo.of(MediaType.IMAGE, "heif"));
    }

    @Test
    void anMp4WhoseMovieComesAfterThreeGigabytesOfMediaDataReadsFewBytes() {
        Path file = MediaFixtures.sparseMp4(dir.resolve("long.mp4"), bytes("clip.mp4"), 3L << 30, true);
        MediaProbe.probe(write(dir.resolve("warm.mp4"), bytes("clip.mp4"))); // classes loaded before counting
        OptionalLong before = MediaFixtures.bytesReadByProcess();

        MediaInfo info = MediaProbe.probe(file);

        OptionalLong after = MediaFixtures.bytesReadByProcess();
        assertThat(info.width()).isEqualTo(96);
        assertThat(info.durationSeconds()).isCloseTo(2.0, withinPercentage(1));
        assumeTrue(before.isPresent() && after.isPresent(), "no /proc/self/io to count bytes read");
        assertThat(after.getAsLong() - before.getAsLong()).as("bytes read for the headers").isLessThan(1 << 20);
    }

    @Test
    void aNestedBoxThatDeclaresGigabytesIsRefusedBeforeAnythingIsAllocated() {
        byte[] clip = bytes("clip-faststart.mp4");
        byte[] moov = MediaFixtures.box(clip, "moov");
        int moovAt = indexOf(clip, moov);
        ByteBuffer.wrap(clip).putInt(moovAt + 8, 0x7FFF_FFF0); // the size of mvhd, the first box in moov
        Path file = write(dir.resolve("damaged.mp4"), clip);

        assertThatThrownBy(() -> MediaProbe.probe(file))
                .isInstanceOf(MediaHeaderException.class)
                .hasMessageContaining("box 'mvhd' inside 'moov' declares 2147483632 bytes but only");
    }

    @Test
    void aMissingFileIsAnIoErrorNotAHeaderError() {
        Path missing = dir.resolve("missing.wav");
        assertThatThrownBy(() -> MediaProbe.probe(missing))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(missing.toString());
    }

    @Test
    void detectReadsNoFacts() {
        assertThat(MediaProbe.detect(write(dir.resolve("tone.flac"), bytes("tone.flac"))))
                .isEqualTo(MediaInfo.of(MediaType.AUDIO, "flac"));
        assertThat(MediaProbe.detect(write(dir.resolve("clip.m4v"), bytes("tone.m4a"))))
                .as("the brand says audio").isEqualTo(MediaInfo.of(MediaType.AUDIO, "mp4"));
    }

    @Test
    void mediaInfoValidatesItself() {
        assertThatThrownBy(() -> MediaInfo.image("PNG", 1, 1)).hasMessageContaining("lower-case");
        assertThatThrownBy(() -> MediaInfo.image("png", 0, 1)).hasMessage("width must be at least 1: 0");
        assertThatThrownBy(() -> MediaInfo.audio("wav", -1.0, 8000, 1)).hasMessageContaining("not negative");
        assertThatThrownBy(() -> MediaInfo.audio("wav", Double.NaN, 8000, 1)).hasMessageContaining("finite");
        assertThatThrownBy(() -> new MediaInfo(MediaType.TEXT, "txt", null, null, 1.0, null, null))
                .hasMessage("TEXT has no duration, sample rate or channels");
        assertThatThrownBy(() -> new MediaInfo(MediaType.AUDIO, "wav", 3, 4, null, null, null))
                .hasMessage("AUDIO has no width and height");
        assertThatThrownBy(() -> new MediaInfo(MediaType.VIDEO, "mp4", 3, null, null, null, null))
                .hasMessageContaining("together");
        assertThat(MediaInfo.of(MediaType.AUDIO, "wav").hasFacts()).isFalse();
        assertThat(MediaType.AUDIO.columnValue()).isEqualTo("audio");
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static int indexOf(byte[] data, byte[] part) {
        for (int i = 0; i + part.length <= data.length; i++) {
            if (Arrays.equals(data, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new IllegalArgumentException("not found");
    }
}
