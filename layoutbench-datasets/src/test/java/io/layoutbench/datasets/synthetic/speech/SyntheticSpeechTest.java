package io.layoutbench.datasets.synthetic.speech;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.Sample;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.UnsupportedAudioFileException;

import org.junit.jupiter.api.Test;

class SyntheticSpeechTest {

    @Test
    void sameSeedGivesSameMetadataAndBytes() {
        SyntheticSpeech a = SyntheticSpeech.of(SpeechScale.MINI, 42L, true);
        SyntheticSpeech b = SyntheticSpeech.of(SpeechScale.MINI, 42L, true);

        for (long i = 0; i < a.size(); i += 97) {
            Sample x = a.sample(i);
            Sample y = b.sample(i);
            assertThat(y.metadata()).isEqualTo(x.metadata()).isEqualTo(a.metadata(i));
            assertThat(y.field(SyntheticSpeech.WAV).readAll()).isEqualTo(x.field(SyntheticSpeech.WAV).readAll());
            assertThat(y.field(SyntheticSpeech.TXT).readAll()).isEqualTo(x.field(SyntheticSpeech.TXT).readAll());
        }
    }

    @Test
    void seedChangesContentsButNotTheCorpusStructure() {
        SyntheticSpeech a = SyntheticSpeech.of(SpeechScale.MINI, 1L, false);
        SyntheticSpeech b = SyntheticSpeech.of(SpeechScale.MINI, 2L, false);

        int sameDuration = 0;
        for (long i = 0; i < a.size(); i++) {
            MetadataRow x = a.metadata(i);
            MetadataRow y = b.metadata(i);
            assertThat(y.getString("filename")).isEqualTo(x.getString("filename"));
            assertThat(y.getString("sex")).isEqualTo(x.getString("sex"));
            assertThat(y.getString("transcript")).isNotEqualTo(x.getString("transcript"));
            if (x.getDouble("duration_seconds") == y.getDouble("duration_seconds")) {
                sameDuration++;
            }
        }
        assertThat(sameDuration).isLessThan((int) a.size() / 20);
        assertThat(b.sample(1).field(SyntheticSpeech.WAV).readAll())
                .isNotEqualTo(a.sample(1).field(SyntheticSpeech.WAV).readAll());
    }

    @Test
    void schemaHasTheLibriSpeechColumnsAndTwoPayloadFields() {
        SyntheticSpeech tiny = SyntheticSpeech.of(SpeechScale.TINY, 42L, false);

        assertThat(tiny.schema()).isSameAs(SyntheticSpeech.SCHEMA);
        assertThat(tiny.schema().payloadFields()).containsExactly("wav", "txt");
        assertThat(tiny.schema().columns()).extracting(c -> c.name() + " " + c.type()).containsExactly(
                "filename STRING", "speaker_id BIGINT", "chapter_id BIGINT", "sex STRING", "duration_seconds DOUBLE",
                "sample_rate BIGINT", "transcript STRING", "filesize_bytes BIGINT");
        assertThat(tiny.schema().column("filesize_bytes").type()).isEqualTo(ColumnType.BIGINT);
    }

    @Test
    void everyWavIsA16KilohertzMonoPcmFileOfTheStatedDuration() throws Exception {
        SyntheticSpeech tiny = SyntheticSpeech.of(SpeechScale.TINY, 42L, false);

        for (Sample sample : tiny) {
            byte[] wav = sample.field(SyntheticSpeech.WAV).toByteArray();
            AudioFileFormat file = AudioSystem.getAudioFileFormat(new ByteArrayInputStream(wav));
            assertThat(file.getType()).isEqualTo(AudioFileFormat.Type.WAVE);
            try (AudioInputStream audio = AudioSystem.getAudioInputStream(new ByteArrayInputStream(wav))) {
                AudioFormat format = audio.getFormat();
                assertThat(format.getEncoding()).isEqualTo(AudioFormat.Encoding.PCM_SIGNED);
                assertThat(format.getSampleRate()).isEqualTo(16_000f);
                assertThat(format.getSampleSizeInBits()).isEqualTo(16);
                assertThat(format.getChannels()).isEqualTo(1);
                assertThat(format.isBigEndian()).isFalse();
                double seconds = sample.metadata().getDouble("duration_seconds");
                assertThat(audio.getFrameLength()).isEqualTo(Math.round(seconds * 16_000));
                byte[] pcm = audio.readAllBytes();
                assertThat(pcm).hasSize(wav.length - 44);
                assertThat(peak(pcm)).as("audible, not clipped").isBetween(2_000, 12_000);
            }
        }
    }

    @Test
    void theLongestClipIsAValidWavToo() throws IOException, UnsupportedAudioFileException {
        SyntheticSpeech medium = SyntheticSpeech.of(SpeechScale.MEDIUM, 7L, false);
        long longest = 0;
        double seconds = 0;
        for (long i = 0; i < medium.size(); i++) {
            double d = medium.metadata(i).getDouble("duration_seconds");
            if (d > seconds) {
                seconds = d;
                longest = i;
            }
        }
        Sample sample = medium.sample(longest);

        assertThat(seconds).isGreaterThan(30).isLessThanOrEqualTo(SyntheticSpeech.MAX_CLIP_SECONDS);
        try (AudioInputStream audio = AudioSystem.getAudioInputStream(
                new ByteArrayInputStream(sample.field(SyntheticSpeech.WAV).toByteArray()))) {
            assertThat(audio.getFrameLength()).isEqualTo(Math.round(seconds * 16_000));
        }
    }

    @Test
    void fieldSizesAddUpToFilesizeBytes() {
        SyntheticSpeech mini = SyntheticSpeech.of(SpeechScale.MINI, 3L, false);

        for (long i = 0; i < mini.size(); i += 13) {
            Sample sample = mini.sample(i);
            MetadataRow row = sample.metadata();
            Blob wav = sample.field(SyntheticSpeech.WAV);
            Blob txt = sample.field(SyntheticSpeech.TXT);
            assertThat(sample.fields().keySet()).containsExactly("wav", "txt");
            assertThat(wav.size()).isEqualTo(44 + 2 * Math.round(row.getDouble("duration_seconds") * 16_000));
            assertThat(StandardCharsets.UTF_8.decode(txt.readAll()).toString())
                    .isEqualTo(row.getString("transcript"));
            assertThat(row.getLong("filesize_bytes")).isEqualTo(wav.size() + txt.size()).isEqualTo(sample.size())
                    .isEqualTo(mini.filesizeBytes(i));
            assertThat(row.getLong("sample_rate")).isEqualTo(16_000);
        }
    }

    @Test
    void anyByteRangeOfAWavIsTheSameAsInTheWholeFile() throws IOException {
        Blob wav = SyntheticSpeech.of(SpeechScale.TINY, 42L, false).sample(3).field(SyntheticSpeech.WAV);
        ByteBuffer all = wav.readAll();
        long size = wav.size();

        long[][] ranges = {{0, 44}, {0, 45}, {43, 3}, {44, 2}, {45, 1}, {45, 4}, {101, 1_000}, {size - 3, 3},
            {size - 1, 1}, {size, 0}, {17, 10_001}};
        for (long[] range : ranges) {
            ByteBuffer part = wav.read(range[0], (int) range[1]);
            assertThat(part).as("range %s+%s", range[0], range[1])
                    .isEqualTo(all.slice((int) range[0], (int) range[1]));
        }
        try (InputStream in = wav.openStream()) {
            assertThat(in.readAllBytes()).isEqualTo(wav.toByteArray());
        }
        assertThatThrownBy(() -> wav.read(size - 2, 3)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("synthetic WAV");
    }

    @Test
    void filenamesAreLibriSpeechStyleUniqueAndInSpeakerChapterOrder() {
        SyntheticSpeech mini = SyntheticSpeech.of(SpeechScale.MINI, 42L, false);
        List<MetadataRow> rows = mini.metadata().toList();

        Set<String> names = new HashSet<>();
        for (int i = 0; i < rows.size(); i++) {
            MetadataRow row = rows.get(i);
            String name = row.getString("filename");
            assertThat(name).matches("\\d+-\\d+-\\d{4}")
                    .startsWith(row.getLong("speaker_id") + "-" + row.getLong("chapter_id") + "-");
            assertThat(names.add(name)).as(name).isTrue();
            if (i > 0) {
                MetadataRow before = rows.get(i - 1);
                long[] previous = {before.getLong("speaker_id"), before.getLong("chapter_id"), utterance(before)};
                long[] current = {row.getLong("speaker_id"), row.getLong("chapter_id"), utterance(row)};
                assertThat(Arrays.compare(current, previous)).as(name).isPositive();
            }
        }
        // Every chapter starts with its title, numbered 0000.
        assertThat(rows.get(0).getString("filename")).endsWith("-0000");
        assertThat(rows.get(0).getString("transcript")).startsWith("CHAPTER ");
    }

    @Test
    void theSmallerScalesAreMediumsFirstSpeakers() {
        SyntheticSpeech mini = SyntheticSpeech.of(SpeechScale.MINI, 5L, false);
        SyntheticSpeech medium = SyntheticSpeech.of(SpeechScale.MEDIUM, 5L, false);

        for (long i = 0; i < mini.size(); i += 7) {
            assertThat(mini.metadata(i)).isEqualTo(medium.metadata(i));
        }
        assertThat(SyntheticSpeech.of(SpeechScale.TINY, 5L, false).speakerId(3)).isEqualTo(medium.speakerId(3));
    }

    @Test
    void shuffledIsAPermutationOfTheSameSamples() {
        SyntheticSpeech plain = SyntheticSpeech.of(SpeechScale.MINI, 9L, false);
        SyntheticSpeech shuffled = SyntheticSpeech.of(SpeechScale.MINI, 9L, true);

        Set<MetadataRow> plainRows = plain.metadata().collect(Collectors.toSet());
        List<MetadataRow> shuffledRows = shuffled.metadata().toList();
        assertThat(shuffledRows).hasSize(plainRows.size());
        assertThat(new HashSet<>(shuffledRows)).isEqualTo(plainRows);
        assertThat(shuffledRows).isNotEqualTo(plain.metadata().toList());
    }

    @Test
    void samplesStreamInMetadataOrder() {
        SyntheticSpeech tiny = SyntheticSpeech.of(SpeechScale.TINY, 42L, true);
        List<MetadataRow> fromSamples = new ArrayList<>();
        tiny.forEach(sample -> fromSamples.add(sample.metadata()));

        assertThat(fromSamples).isEqualTo(tiny.metadata().toList());
        assertThat(tiny.samples().count()).isEqualTo(20).isEqualTo(tiny.size());
    }

    @Test
    void indexOutOfRangeSaysWhichCorpus() {
        SyntheticSpeech tiny = SyntheticSpeech.of(SpeechScale.TINY, 42L, false);

        assertThatThrownBy(() -> tiny.sample(20)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("Sample index 20 out of range [0, 20) of SyntheticSpeech[tiny, seed 42, 20 samples]");
        assertThatThrownBy(() -> tiny.speakerId(4)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("Speaker index 4 out of range [0, 4) of SyntheticSpeech[tiny, seed 42, 20 samples]");
    }

    @Test
    void tinyIsAFewMegabytes() {
        assertThat(SyntheticSpeech.of(SpeechScale.TINY, 42L, false).totalBytes()).isBetween(3_000_000L,
                10_000_000L);
    }

    private static long utterance(MetadataRow row) {
        String name = row.getString("filename");
        return Long.parseLong(name.substring(name.lastIndexOf('-') + 1));
    }

    private static int peak(byte[] pcm) {
        ByteBuffer samples = ByteBuffer.wrap(pcm).order(ByteOrder.LITTLE_ENDIAN);
        int peak = 0;
        while (samples.remaining() >= 2) {
            peak = Math.max(peak, Math.abs(samples.getShort()));
        }
        return peak;
    }
}
