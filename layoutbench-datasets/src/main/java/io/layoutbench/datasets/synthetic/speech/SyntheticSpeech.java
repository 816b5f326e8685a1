package io.layoutbench.datasets.synthetic.speech;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.datasets.SampleSource;
import io.layoutbench.datasets.synthetic.Hashing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * A deterministic synthetic speech corpus shaped like LibriSpeech (Panayotov et al., "LibriSpeech: an ASR corpus
 * based on public domain audio books", ICASSP 2015), at one of the {@link SpeechScale}s: read speech of speakers
 * with a sex, in chapters of utterances named as LibriSpeech names them ({@code 103-1240-0000}: speaker, chapter,
 * utterance), 16 kHz 16-bit mono.
 *
 * <p>Each sample has two payload fields: {@value #WAV}, a real RIFF/WAVE PCM file of the clip's duration (synthetic
 * voiced audio, see {@code SyntheticWav}; {@code javax.sound.sampled.AudioSystem} reads it), and {@value #TXT}, the
 * transcript in UTF-8. Its metadata ({@link #SCHEMA}): {@code filename}, {@code speaker_id}, {@code chapter_id},
 * {@code sex} (F or M), {@code duration_seconds} (samples / 16,000), {@code sample_rate}, {@code transcript} and
 * {@code filesize_bytes}, the size of both fields together.
 *
 * <p>Shape (see {@code SpeechPlan} and {@code ClipDurations} for the figures and the fit): speakers with 1 to 4
 * chapters; each chapter starts with its title, a clip under 3 s ("CHAPTER TWELVE ..."); the other clips follow a
 * piecewise-uniform fit with mean 12.9 s (12.69 s with the titles, as 100.6 h over 28,539 utterances in
 * train-clean-100) and at most 35 s, the paper's segmentation bound. Transcripts have about 2.7 words per second of
 * audio (each speaker has its own rate within 10% of that), drawn from a fixed English-like vocabulary by Zipf's law.
 *
 * <p>Query result counts do not depend on the seed, so the speech queries return the same number of clips at any
 * seed: a speaker's clip durations are stratified over the duration distribution (stratum k of m at quantile
 * {@code (k + offset) / m}, the offset fixed per speaker), the seed choosing only which clip gets which stratum;
 * {@value #COMMON_WORD} is placed in 30% (rounded) of each chapter's non-title clips and {@value #RARE_WORD} in one
 * clip of every eighth speaker (speakers 0, 8, 16 ...), the seed choosing which clips. The seed also decides the
 * other words, the title durations and the audio.
 *
 * <p>Everything is computed from (scale, seed, index) from a plan of a few KB: metadata generates no audio, streams
 * hold one sample at a time, and a sample's {@value #WAV} field is generated when read, a range at a time. Instances
 * are immutable and thread-safe.
 *
 * <pre>{@code
 * SyntheticSpeech mini = SyntheticSpeech.of(SpeechScale.MINI, 42L, false);
 * MetadataRow first = mini.metadata(0);                 // a chapter title: duration_seconds < 3
 * Sample sample = mini.sample(1);
 * ByteBuffer wav = sample.field(SyntheticSpeech.WAV).readAll();   // RIFF....WAVEfmt ...
 * long said = mini.metadata().filter(r -> r.getString("transcript").contains("SAID")).count();
 * }</pre>
 */
public final class SyntheticSpeech implements SampleSource, Iterable<Sample> {

    /** Payload field of the audio: a RIFF/WAVE file. */
    public static final String WAV = "wav";
    /** Payload field of the transcript, UTF-8. */
    public static final String TXT = "txt";

    public static final String SPEAKER_ID = "speaker_id";
    public static final String CHAPTER_ID = "chapter_id";
    public static final String SEX = "sex";
    public static final String DURATION_SECONDS = "duration_seconds";
    public static final String SAMPLE_RATE = "sample_rate";
    public static final String TRANSCRIPT = "transcript";

    /** The corpus's metadata columns and its payload fields {@value #WAV} and {@value #TXT}. */
    public static final MetadataSchema SCHEMA = new MetadataSchema(List.of(
            new Column(MetadataSchema.FILENAME, ColumnType.STRING),
            new Column(SPEAKER_ID, ColumnType.BIGINT),
            new Column(CHAPTER_ID, ColumnType.BIGINT),
            new Column(SEX, ColumnType.STRING),
            new Column(DURATION_SECONDS, ColumnType.DOUBLE),
            new Column(SAMPLE_RATE, ColumnType.BIGINT),
            new Column(TRANSCRIPT, ColumnType.STRING),
            new Column(MetadataSchema.FILESIZE_BYTES, ColumnType.BIGINT)))
            .withPayloadFields(List.of(WAV, TXT));

    /** Samples per second of every clip. */
    public static final int SAMPLE_RATE_HZ = ClipDurations.SAMPLE_RATE;
    /** Chapter titles, one per chapter, are the clips shorter than this; no other clip is. */
    public static final double SHORT_CLIP_SECONDS = 3;
    /** About 2% of the other clips are longer than this. */
    public static final double LONG_CLIP_SECONDS = 20;
    /** No clip is longer than this: LibriSpeech's segmentation bound. */
    public static final double MAX_CLIP_SECONDS = 35;
    /** A word in 30% of each chapter's non-title clips, and in no other. */
    public static final String COMMON_WORD = "SAID";
    /** A word in one clip of every {@value #RARE_WORD_SPEAKER_STRIDE}th speaker, and in no other. */
    public static final String RARE_WORD = "NIGHTINGALE";
    /** Speakers 0, 8, 16 ... have one clip with {@link #RARE_WORD}. */
    public static final int RARE_WORD_SPEAKER_STRIDE = 8;

    private static final long ORDER_KEY = 0x5EEC_0000_0000_0001L;
    private static final long STRATUM_KEY = 0x5EEC_0000_0000_0002L;
    private static final long TITLE_KEY = 0x5EEC_0000_0000_0003L;
    private static final long TEXT_KEY = 0x5EEC_0000_0000_0004L;
    private static final long COMMON_KEY = 0x5EEC_0000_0000_0005L;
    private static final long RARE_KEY = 0x5EEC_0000_0000_0006L;
    private static final long AUDIO_KEY = 0x5EEC_0000_0000_0007L;
    /** Words per second vary by this much around the speaker's rate from clip to clip. */
    private static final double CLIP_RATE_SPREAD = 0.05;

    private final SpeechScale scale;
    private final long seed;
    private final boolean shuffle;
    private final SpeechPlan plan;
    private final int size;

    private SyntheticSpeech(SpeechScale scale, long seed, boolean shuffle) {
        this.scale = requireNonNull(scale, "scale is null");
        this.seed = seed;
        this.shuffle = shuffle;
        this.plan = SpeechPlan.of(scale);
        this.size = plan.utteranceCount();
    }

    /**
     * The corpus at {@code scale}.
     *
     * @param seed    decides which clip of a speaker gets which duration, where the two query words go, the other
     *                words, the audio and the shuffled order
     * @param shuffle whether samples come in a seeded random order instead of speaker, chapter, utterance order
     */
    public static SyntheticSpeech of(SpeechScale scale, long seed, boolean shuffle) {
        return new SyntheticSpeech(scale, seed, shuffle);
    }

    public SpeechScale scale() {
        return scale;
    }

    public long seed() {
        return seed;
    }

    /** Whether samples come in seeded random order rather than speaker order. */
    public boolean shuffled() {
        return shuffle;
    }

    /** Number of samples (utterances). */
    public long size() {
        return size;
    }

    /** Number of speakers. */
    public int speakerCount() {
        return plan.speakerCount();
    }

    /** Number of chapters, which is also the number of clips under {@value #SHORT_CLIP_SECONDS} s. */
    public int chapterCount() {
        return plan.chapterCount();
    }

    /**
     * The id of speaker {@code speakerIndex} (0 the first in speaker order): the same at every scale and seed.
     *
     * @throws IndexOutOfBoundsException if there is no such speaker at this scale
     */
    public long speakerId(int speakerIndex) {
        if (speakerIndex < 0 || speakerIndex >= plan.speakerCount()) {
            throw new IndexOutOfBoundsException("Speaker index " + speakerIndex + " out of range [0, "
                    + plan.speakerCount() + ") of " + this);
        }
        return plan.speakerId[speakerIndex];
    }

    /** {@link #SCHEMA}. */
    @Override
    public MetadataSchema schema() {
        return SCHEMA;
    }

    /** The metadata of the sample at {@code index}, in [0, {@link #size()}), without generating its audio. */
    public MetadataRow metadata(long index) {
        Utterance u = utterance(index);
        return row(u, transcript(u));
    }

    /** The size of the sample at {@code index}: its WAV file and its transcript. */
    public long filesizeBytes(long index) {
        Utterance u = utterance(index);
        return SyntheticWav.sizeOf(u.samples) + transcript(u).getBytes(StandardCharsets.UTF_8).length;
    }

    /** The sum of all samples' sizes, from metadata (no audio generated). */
    public long totalBytes() {
        long total = 0;
        for (long i = 0; i < size; i++) {
            total += filesizeBytes(i);
        }
        return total;
    }

    /**
     * The sample at {@code index}: its metadata, its {@value #WAV} field generated as it is read, and its
     * {@value #TXT} field.
     */
    public Sample sample(long index) {
        Utterance u = utterance(index);
        String transcript = transcript(u);
        Map<String, Blob> fields = new LinkedHashMap<>();
        fields.put(WAV, new SyntheticWav(Hashing.mix64(seed ^ AUDIO_KEY, u.key), u.samples,
                plan.pitchHz[u.speaker]));
        fields.put(TXT, Blob.of(transcript.getBytes(StandardCharsets.UTF_8)));
        return new Sample(row(u, transcript), fields);
    }

    @Override
    public Stream<MetadataRow> metadata() {
        return LongStream.range(0, size).mapToObj(this::metadata);
    }

    @Override
    public Stream<Sample> samples() {
        return LongStream.range(0, size).mapToObj(this::sample);
    }

    /** The samples in order, generated one at a time as the iterator advances. */
    @Override
    public Iterator<Sample> iterator() {
        return samples().iterator();
    }

    @Override
    public String toString() {
        return "SyntheticSpeech[" + scale.scaleName() + ", seed " + seed + (shuffle ? ", shuffled" : "") + ", "
                + size + " samples]";
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** Where an utterance lies in the plan, and what the seed chose for it. */
    private record Utterance(int speaker, int chapter, int number, long key, int samples, boolean common,
                             boolean rare) {

        boolean title() {
            return number == 0;
        }
    }

    private Utterance utterance(long index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("Sample index " + index + " out of range [0, " + size + ") of "
                    + this);
        }
        int base = (int) (shuffle ? Hashing.permute(index, size, Hashing.mix64(seed, ORDER_KEY)) : index);
        int c = plan.chapterOf(base);
        int s = plan.chapterSpeaker[c];
        int number = base - plan.chapterStart[c];
        long key = Hashing.mix64(plan.chapterKey[c], number);
        if (number == 0) {
            return new Utterance(s, c, 0, key, ClipDurations.titleSamples(Hashing.mix64(seed ^ TITLE_KEY, key)),
                    false, false);
        }
        // The speaker's non-title clips, in order, each get one stratum of the duration distribution.
        int clips = plan.clipCount(s);
        int clip = base - plan.speakerStart[s] - (c - plan.speakerChapterStart[s] + 1);
        long stratum = Hashing.permute(clip, clips, Hashing.mix64(seed ^ STRATUM_KEY, s));
        int samples = ClipDurations.bodySamples((stratum + plan.rotation[s]) / clips);
        int chapterClips = plan.chapterClipCount(c);
        long rank = Hashing.permute(number - 1, chapterClips, Hashing.mix64(seed ^ COMMON_KEY, plan.chapterKey[c]));
        boolean common = rank < commonWordClips(chapterClips);
        boolean rare = s % RARE_WORD_SPEAKER_STRIDE == 0
                && clip == Math.floorMod(Hashing.mix64(seed ^ RARE_KEY, s), (long) clips);
        return new Utterance(s, c, number, key, samples, common, rare);
    }

    /** Number of a chapter's {@code clips} non-title clips that have {@link #COMMON_WORD}: 30%, rounded. */
    static int commonWordClips(int clips) {
        return (3 * clips + 5) / 10;
    }

    private String transcript(Utterance u) {
        long key = Hashing.mix64(seed ^ TEXT_KEY, u.key);
        double seconds = (double) u.samples / SAMPLE_RATE_HZ;
        double rate = plan.wordsPerSecond[u.speaker]
                * (1 - CLIP_RATE_SPREAD + 2 * CLIP_RATE_SPREAD * SpeechPlan.unit(Hashing.mix64(key, -1)));
        int count = (int) Math.max(1, Math.round(seconds * rate));
        // A title reads "CHAPTER <number>" and then its words, however short it is.
        String[] heading = u.title()
                ? ("CHAPTER " + Vocabulary.number(plan.chapterNumber[u.chapter])).split(" ") : new String[0];
        String[] words = Arrays.copyOf(heading, Math.max(count, heading.length));
        int drawn = heading.length;
        for (int j = drawn; j < words.length; j++) {
            words[j] = Vocabulary.wordAt(SpeechPlan.unit(Hashing.mix64(key, j)));
        }
        // Non-title clips last at least 3 s, so they have at least 7 words: room for both placed words.
        int commonAt = (int) Math.floorMod(Hashing.mix64(key, -2), (long) words.length);
        if (u.common) {
            words[commonAt] = COMMON_WORD;
        }
        if (u.rare) {
            int rareAt = u.common
                    ? (commonAt + 1 + (int) Math.floorMod(Hashing.mix64(key, -3), (long) words.length - 1))
                            % words.length
                    : (int) Math.floorMod(Hashing.mix64(key, -3), (long) words.length);
            words[rareAt] = RARE_WORD;
        }
        return String.join(" ", words);
    }

    private MetadataRow row(Utterance u, String transcript) {
        String filename = plan.speakerId[u.speaker] + "-" + plan.chapterId[u.chapter] + "-"
                + String.format(Locale.ROOT, "%04d", u.number);
        long filesize = SyntheticWav.sizeOf(u.samples) + transcript.getBytes(StandardCharsets.UTF_8).length;
        return new MetadataRow(SCHEMA, Arrays.asList(filename, plan.speakerId[u.speaker], plan.chapterId[u.chapter],
                plan.female[u.speaker] ? "F" : "M", (double) u.samples / SAMPLE_RATE_HZ, (long) SAMPLE_RATE_HZ,
                transcript, filesize));
    }
}
