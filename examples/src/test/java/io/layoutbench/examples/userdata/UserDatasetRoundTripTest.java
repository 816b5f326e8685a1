package io.layoutbench.examples.userdata;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.SampleSource;
import io.layoutbench.datasets.ingest.ManifestOptions;
import io.layoutbench.datasets.ingest.ManifestSource;
import io.layoutbench.datasets.ingest.MediaFolderSource;
import io.layoutbench.datasets.synthetic.SyntheticJpeg;
import io.layoutbench.datasets.synthetic.speech.SpeechScale;
import io.layoutbench.datasets.synthetic.speech.SyntheticSpeech;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Users' own datasets round trip exactly in every layout: each of three sources is written into l1, l2, l3 and fac
 * (l3 and fac also with a small {@code blob-threshold}, so that their fields are stored out of line and come back
 * lazily read), and every query returns what a row-at-a-time evaluation of the source's metadata selects, in order,
 * each sample with the source's metadata row and, field by field, the source's bytes (CRC32C and length). Each query
 * runs in both retrieval modes; {@code TRUE} runs once more with every field returned lazily read.
 *
 * <ul>
 *   <li><b>A media folder</b> ({@link MediaFolderSource}, {@code root/<label>/<file>}): images (synthetic and real
 *       JPEG, PNG), audio (WAV written here, FLAC, Ogg Vorbis, Opus, MP3, AAC in MP4), video (MP4 with the movie box
 *       last and first), text ({@code .txt}, {@code .json}, an empty file, non-ASCII UTF-8) and opaque bytes.
 *   <li><b>A JSON Lines manifest</b> ({@link ManifestSource}) with two path columns, so two payload fields, some rows
 *       lacking one of them, and metadata columns of every type with NULLs.
 *   <li><b>The synthetic speech corpus</b> ({@link SyntheticSpeech} at tiny): WAV and transcript fields.
 * </ul>
 *
 * <p>The real media files are tiny ffmpeg-made fixtures (see this package's test resources); the rest is made
 * here. Every dataset lives in a memory backend; fac stores it on nine prefix nodes of that backend.
 */
class UserDatasetRoundTripTest {

    /** A layout and the options it writes with. */
    record LayoutCase(String layout, Map<String, String> options) {
        @Override
        public String toString() {
            return options.isEmpty() ? layout : layout + " " + options;
        }
    }

    /** A source, the queries run against it, and what it holds. */
    record Source(SampleSource source, List<String> queries, List<Stored> samples) {
    }

    /** A sample as it should come back: its metadata values and each field's size and checksum. */
    record Stored(List<Object> metadata, Map<String, Bytes> fields) {
    }

    /** A field's length and CRC32C. */
    record Bytes(long size, long crc32c) {
    }

    static final List<LayoutCase> LAYOUTS = List.of(
            new LayoutCase("l1", Map.of()),
            new LayoutCase("l2", Map.of("shard-size", "64KB")),
            new LayoutCase("l3", Map.of("file-size", "1MB", "row-group-size", "256KB")),
            new LayoutCase("l3", Map.of("blob-threshold", "4KB")),
            new LayoutCase("fac", Map.of()),
            new LayoutCase("fac", Map.of("blob-threshold", "4KB")));

    static final Map<String, Source> SOURCES = new LinkedHashMap<>();

    @TempDir
    static Path dir;

    @BeforeAll
    static void makeTheSources() throws IOException {
        SyntheticSpeech speech = SyntheticSpeech.of(SpeechScale.TINY, 13, false);
        add("media folder", MediaFolderSource.open(mediaFolder(dir.resolve("media"), speech)), List.of(
                "media_type = 'audio' AND duration_seconds > 0.5",
                "media_type = 'image' AND width >= 48",
                "format = 'mp4' OR media_type = 'text'",
                "label = 'music' AND filesize_bytes > 5000",
                "duration_seconds IS NULL",
                "sample_rate >= 22050 LIMIT 3"));
        add("jsonl manifest", ManifestSource.open(manifest(dir.resolve("manifest"), speech),
                ManifestOptions.defaults().withPayloadColumns("audio=audio,txt=caption")), List.of(
                "score > 0.5 AND train",
                "speaker IS NULL OR takes < 3",
                "NOT train"));
        add("speech corpus", speech, List.of(
                "sex = 'F' AND duration_seconds > 10",
                "transcript LIKE '%" + SyntheticSpeech.COMMON_WORD + "%'",
                "duration_seconds < 3"));
    }

    static Stream<Arguments> cases() {
        return SOURCES.keySet().stream().flatMap(source -> LAYOUTS.stream().map(l -> Arguments.of(source, l)));
    }

    @ParameterizedTest(name = "{0} in {1}")
    @MethodSource("cases")
    void everyQueryReturnsTheSourcesRowsAndBytes(String name, LayoutCase layoutCase) {
        Source source = SOURCES.get(name);
        MetadataSchema schema = source.source().schema();
        StorageLayout layout = StorageLayouts.get(layoutCase.layout());
        try (ObjectBackend backend = new MemoryBackend()) {
            try (Stream<Sample> samples = source.source().samples();
                    DatasetWriter writer = layout.create(backend, "ds", schema, layoutCase.options())) {
                samples.forEach(writer::add);
                writer.commit();
            }
            try (Dataset dataset = layout.open(backend, "ds")) {
                assertThat(dataset.schema()).isEqualTo(schema);
                for (String where : source.queries()) {
                    Query query = Query.parse(where, schema);
                    List<Stored> expected = select(source.samples(), query, schema);
                    assertThat(expected).as("%s selects some of %s, not all", where, name).isNotEmpty()
                            .hasSizeLessThan(source.samples().size());
                    for (RetrievalMode mode : RetrievalMode.values()) {
                        assertThat(run(dataset, query, QueryOptions.defaults().withMode(mode)))
                                .as("%s, %s", where, mode).containsExactlyElementsOf(expected);
                    }
                }
                for (RetrievalMode mode : RetrievalMode.values()) {
                    assertThat(run(dataset, Query.parse("TRUE"), QueryOptions.defaults().withMode(mode)))
                            .as("every sample, in order, %s", mode).containsExactlyElementsOf(source.samples());
                }
                assertThat(run(dataset, Query.parse("TRUE"), QueryOptions.defaults().withLazyFieldBytes(1)))
                        .as("every sample, every field lazily read").containsExactlyElementsOf(source.samples());
            }
        }
    }

    /** Reads {@code source} once: its metadata rows, which its samples must carry too, and its fields' bytes. */
    private static void add(String name, SampleSource source, List<String> queries) {
        List<MetadataRow> rows;
        try (Stream<MetadataRow> metadata = source.metadata()) {
            rows = metadata.toList();
        }
        List<Stored> samples = new ArrayList<>();
        try (Stream<Sample> stream = source.samples()) {
            stream.forEach(sample -> samples.add(stored(sample)));
        }
        assertThat(samples).extracting(Stored::metadata).as("%s: samples() carry the rows of metadata()", name)
                .containsExactlyElementsOf(rows.stream().map(MetadataRow::values).toList());
        SOURCES.put(name, new Source(source, queries, List.copyOf(samples)));
    }

    /** The samples a row-at-a-time evaluation of their metadata selects, in order, LIMIT applied. */
    private static List<Stored> select(List<Stored> samples, Query query, MetadataSchema schema) {
        BoundQuery bound = query.bind(schema);
        long limit = bound.limit().orElse(Long.MAX_VALUE);
        List<Stored> selected = new ArrayList<>();
        for (Iterator<Stored> it = samples.iterator(); it.hasNext() && selected.size() < limit; ) {
            Stored sample = it.next();
            if (bound.test(new MetadataRow(schema, sample.metadata()))) {
                selected.add(sample);
            }
        }
        return selected;
    }

    /** What the query returns, each field read while the stream is open (a lazily read field needs it). */
    private static List<Stored> run(Dataset dataset, Query query, QueryOptions options) {
        List<Stored> returned = new ArrayList<>();
        try (SampleStream stream = dataset.query(query, options)) {
            stream.forEachRemaining(sample -> returned.add(stored(sample)));
        }
        return returned;
    }

    private static Stored stored(Sample sample) {
        Map<String, Bytes> fields = new LinkedHashMap<>();
        sample.fields().forEach((field, blob) -> fields.put(field, bytes(blob)));
        return new Stored(sample.metadata().values(), fields);
    }

    /** The blob's length and checksum, streamed, so a lazily read blob is read as a user reads a large one. */
    private static Bytes bytes(Blob blob) {
        CRC32C crc = new CRC32C();
        long size = 0;
        byte[] buffer = new byte[64 << 10];
        try (InputStream in = blob.openStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                crc.update(buffer, 0, n);
                size += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(size).as("bytes streamed from %s", blob).isEqualTo(blob.size());
        return new Bytes(size, crc.getValue());
    }

    /**
     * {@code root/<label>/<file>} with files of every kind: two labels, images, audio, video, text and opaque bytes,
     * one in a subdirectory.
     */
    private static Path mediaFolder(Path root, SyntheticSpeech speech) throws IOException {
        Path animals = root.resolve("animals");
        write(animals.resolve("cat.jpg"), SyntheticJpeg.generate(7, 64, 48, 3000));
        write(animals.resolve("dog.jpg"), fixture("image.jpg"));
        write(animals.resolve("mouse.png"), fixture("image.png"));
        write(animals.resolve("meow.wav"), wav(8000, 2, 8, 2000));   // 0.25 s: below the audio query's 0.5 s
        write(animals.resolve("bark.wav"), wav(44100, 1, 16, 44100));
        write(animals.resolve("purr.flac"), fixture("tone.flac"));
        write(animals.resolve("notes.txt"), "a cat on a mat\n".getBytes(StandardCharsets.UTF_8));
        write(animals.resolve("info.json"), "{\"legs\": [4, 2], \"name\": \"Zoë\"}\n"
                .getBytes(StandardCharsets.UTF_8));
        Path music = root.resolve("music");
        write(music.resolve("tone.ogg"), fixture("tone.ogg"));
        write(music.resolve("tone.opus"), fixture("tone.opus"));
        write(music.resolve("tone.mp3"), fixture("tone.mp3"));
        write(music.resolve("tone.m4a"), fixture("tone.m4a"));
        write(music.resolve("read.wav"), speech.sample(1).field(SyntheticSpeech.WAV).toByteArray());
        write(music.resolve("clip.mp4"), fixture("clip.mp4"));
        write(music.resolve("videos/clip-faststart.mp4"), fixture("clip-faststart.mp4"));
        write(music.resolve("lyrics.txt"), "naïve café ☕, 夜曲\n".getBytes(StandardCharsets.UTF_8));
        write(music.resolve("empty.txt"), new byte[0]);
        write(music.resolve("noise.bin"), random(200_000, 3));
        return root;
    }

    /**
     * {@code samples.jsonl}: an audio file (FLAC or WAV, column {@code audio}, field {@code audio}) and a caption
     * (column {@code caption}, field {@code txt}) a row, some rows lacking one of them (empty, null or absent),
     * metadata of every type, NULLs among them, two rows named by the manifest.
     */
    private static Path manifest(Path folder, SyntheticSpeech speech) throws IOException {
        write(folder.resolve("clips/tone.flac"), fixture("tone.flac"));
        write(folder.resolve("clips/read.wav"), speech.sample(3).field(SyntheticSpeech.WAV).toByteArray());
        for (int i = 0; i < 6; i++) {
            write(folder.resolve("captions/c" + i + ".txt"), speech.sample(i).field(SyntheticSpeech.TXT).toByteArray());
        }
        List<String> lines = List.of(
                "{\"audio\": \"clips/tone.flac\", \"caption\": \"captions/c0.txt\", \"speaker\": \"ann\", "
                        + "\"score\": 0.9, \"takes\": 1, \"train\": true}",
                "{\"audio\": \"clips/read.wav\", \"caption\": \"\", \"speaker\": \"bo\", \"score\": 0.2, "
                        + "\"takes\": 4, \"train\": true}",
                "{\"caption\": \"captions/c1.txt\", \"speaker\": null, \"score\": 0.75, \"takes\": 7, \"train\": true}",
                "{\"audio\": null, \"caption\": \"captions/c2.txt\", \"speaker\": \"cy\", \"score\": 0.6, "
                        + "\"takes\": 2, \"train\": false}",
                "{\"audio\": \"clips/tone.flac\", \"caption\": \"captions/c3.txt\", \"speaker\": \"ann\", "
                        + "\"score\": null, \"takes\": 5, \"train\": true, \"filename\": \"again/tone\"}",
                "{\"audio\": \"clips/read.wav\", \"caption\": \"captions/c4.txt\", \"speaker\": \"bo\", "
                        + "\"score\": 1, \"takes\": 3, \"train\": null, \"filename\": \"again/read\"}",
                "{\"caption\": \"captions/c5.txt\", \"speaker\": \"dee\", \"score\": 0.1, \"takes\": 9, "
                        + "\"train\": false}");
        Path manifest = folder.resolve("samples.jsonl");
        Files.writeString(manifest, String.join("\n", lines) + "\n");
        return manifest;
    }

    /** A PCM WAV file of a 440 Hz tone, written by the JDK's own WAV writer. */
    private static byte[] wav(int sampleRate, int channels, int bitsPerSample, int frames) {
        AudioFormat format = new AudioFormat(sampleRate, bitsPerSample, channels, bitsPerSample > 8, false);
        int frameBytes = channels * bitsPerSample / 8;
        byte[] pcm = new byte[frames * frameBytes];
        for (int frame = 0; frame < frames; frame++) {
            double value = Math.sin(2 * Math.PI * 440 * frame / sampleRate) * 0.5;
            for (int channel = 0; channel < channels; channel++) {
                int at = frame * frameBytes + channel * bitsPerSample / 8;
                if (bitsPerSample == 8) {
                    pcm[at] = (byte) (128 + value * 127);   // 8-bit WAV is unsigned
                } else {
                    short sample = (short) (value * Short.MAX_VALUE);
                    pcm[at] = (byte) sample;
                    pcm[at + 1] = (byte) (sample >> 8);
                }
            }
        }
        try (AudioInputStream in = new AudioInputStream(new ByteArrayInputStream(pcm), format, frames)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            AudioSystem.write(in, AudioFileFormat.Type.WAVE, out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] fixture(String name) throws IOException {
        try (InputStream in = UserDatasetRoundTripTest.class.getResourceAsStream(name)) {
            assertThat(in).as("test resource %s", name).isNotNull();
            return in.readAllBytes();
        }
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }

    private static void write(Path file, byte[] bytes) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }
}
