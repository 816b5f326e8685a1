package io.layoutbench.datasets.synthetic.speech;

import io.layoutbench.datasets.synthetic.Hashing;
import io.layoutbench.datasets.synthetic.Normal;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * The seed-independent shape of the synthetic corpus at one scale: its speakers (id, sex, speaking rate), their
 * chapters (id, number in the book) and how many utterances each chapter has. A few KB per scale, built once; every
 * utterance's attributes are then computed from it in O(log n).
 *
 * <p>Medium is shaped like train-clean-100 (Panayotov et al., ICASSP 2015, Table 1, and the corpus release): 251
 * speakers, 125 female and 126 male; 585 chapters, 1 to 4 per speaker (2.33 on average); 28,539 utterances, 113.7
 * per speaker (about 24 minutes each at the mean duration; Table 1 rounds the target to 25), with a spread of 10%
 * between speakers. Mini and small are medium's first 10 and 50 speakers with all their chapters; tiny is medium's
 * first 4 speakers with only the first 5 utterances of their first chapter.
 */
final class SpeechPlan {

    static final int MEDIUM_SPEAKERS = 251;
    static final int MEDIUM_CHAPTERS = 585;
    static final int MEDIUM_UTTERANCES = 28_539;
    /** Words per second of read speech, on average over speakers. */
    static final double WORDS_PER_SECOND = 2.7;

    private static final int TINY_CHAPTER_UTTERANCES = 5;
    /** Spread of utterances per speaker: LibriSpeech capped each speaker near 25 minutes, so it is small. */
    private static final double SPEAKER_SPREAD = 0.10;
    /** Speaking rates are uniform in 2.7 x [1 - 0.1, 1 + 0.1) words per second. */
    private static final double RATE_SPREAD = 0.10;
    private static final int MAX_CHAPTER_NUMBER = 40;
    private static final double GOLDEN = 0.6180339887498949;
    /**
     * Speaker 0's stratum offset. Near 1, so that its last stratum lies in the top 1.25% of durations and even
     * tiny's four non-title clips per speaker include one over 20 s.
     */
    private static final double FIRST_ROTATION = 0.95;

    private static final long COUNT_KEY = 0x5BEA_0000_0000_0001L;
    private static final long CHAPTERS_KEY = 0x5BEA_0000_0000_0002L;
    private static final long CHAPTER_SIZE_KEY = 0x5BEA_0000_0000_0003L;
    private static final long SEX_KEY = 0x5BEA_0000_0000_0004L;
    private static final long SPEAKER_ID_KEY = 0x5BEA_0000_0000_0005L;
    private static final long CHAPTER_ID_KEY = 0x5BEA_0000_0000_0006L;
    private static final long CHAPTER_NUMBER_KEY = 0x5BEA_0000_0000_0007L;
    private static final long RATE_KEY = 0x5BEA_0000_0000_0008L;
    private static final long PITCH_KEY = 0x5BEA_0000_0000_0009L;

    private static final Map<SpeechScale, SpeechPlan> CACHE = new EnumMap<>(SpeechScale.class);

    final SpeechScale scale;
    final long[] speakerId;
    final boolean[] female;
    /** Words per second of each speaker. */
    final double[] wordsPerSecond;
    /** Fundamental frequency of each speaker's voice in Hz. */
    final double[] pitchHz;
    /** Offset in [0, 1) of each speaker's duration strata (see {@link SyntheticSpeech}). */
    final double[] rotation;
    /** speakerStart[s] is the index of speaker s's first utterance; the last entry is the utterance count. */
    final int[] speakerStart;
    /** speakerChapterStart[s] is the index of speaker s's first chapter; the last entry is the chapter count. */
    final int[] speakerChapterStart;
    final long[] chapterId;
    /** The chapter's position in medium's chapter order: what keys its random choices, the same at every scale. */
    final int[] chapterKey;
    /** "CHAPTER n": the chapter's number in its book. */
    final int[] chapterNumber;
    final int[] chapterSpeaker;
    /** chapterStart[c] is the index of chapter c's first utterance (its title); the last entry is the count. */
    final int[] chapterStart;

    private SpeechPlan(SpeechScale scale, int speakers, int[] chapterCounts, int[] chapterSizes,
            int[] chapterKeys) {
        this.scale = scale;
        speakerId = new long[speakers];
        female = new boolean[speakers];
        wordsPerSecond = new double[speakers];
        pitchHz = new double[speakers];
        rotation = new double[speakers];
        speakerStart = new int[speakers + 1];
        speakerChapterStart = new int[speakers + 1];
        int chapters = chapterSizes.length;
        chapterId = new long[chapters];
        chapterKey = chapterKeys.clone();
        chapterNumber = new int[chapters];
        chapterSpeaker = new int[chapters];
        chapterStart = new int[chapters + 1];
        for (int s = 0; s < speakers; s++) {
            speakerId[s] = speakerIdOf(s);
            female[s] = isFemale(s);
            double u = unit(Hashing.mix64(RATE_KEY, s));
            wordsPerSecond[s] = WORDS_PER_SECOND * (1 - RATE_SPREAD + 2 * RATE_SPREAD * u);
            double v = unit(Hashing.mix64(PITCH_KEY, s));
            // Typical adult fundamentals: about 165-255 Hz for women, 85-155 Hz for men.
            pitchHz[s] = female[s] ? 165 + 90 * v : 85 + 70 * v;
            double r = FIRST_ROTATION + s * GOLDEN;
            rotation[s] = r - Math.floor(r);
            speakerChapterStart[s + 1] = speakerChapterStart[s] + chapterCounts[s];
            for (int c = speakerChapterStart[s]; c < speakerChapterStart[s + 1]; c++) {
                chapterSpeaker[c] = s;
                chapterStart[c + 1] = chapterStart[c] + chapterSizes[c];
                chapterId[c] = chapterIdOf(chapterKeys[c]);
                chapterNumber[c] = 1 + (int) Math.floorMod(Hashing.mix64(CHAPTER_NUMBER_KEY, chapterKeys[c]),
                        (long) MAX_CHAPTER_NUMBER);
                if (chapterSizes[c] < 2) {
                    throw new IllegalStateException("Chapter " + c + " of the " + scale.scaleName()
                            + " speech plan has " + chapterSizes[c] + " utterances; it needs a title and a clip");
                }
            }
            speakerStart[s + 1] = chapterStart[speakerChapterStart[s + 1]];
        }
    }

    /** The plan of a scale, built on first use and shared: it does not depend on the seed. */
    static SpeechPlan of(SpeechScale scale) {
        synchronized (CACHE) {
            return CACHE.computeIfAbsent(scale, SpeechPlan::build);
        }
    }

    int speakerCount() {
        return speakerId.length;
    }

    int chapterCount() {
        return chapterId.length;
    }

    int utteranceCount() {
        return chapterStart[chapterStart.length - 1];
    }

    /** The chapter holding utterance {@code index}. */
    int chapterOf(int index) {
        // Chapters are never empty: an exact hit is a chapter's title; a miss lies in the chapter before the
        // insertion point.
        int found = Arrays.binarySearch(chapterStart, index);
        return found >= 0 ? found : -found - 2;
    }

    /** Number of non-title utterances of speaker {@code s}: the strata its durations are spread over. */
    int clipCount(int s) {
        return speakerStart[s + 1] - speakerStart[s] - (speakerChapterStart[s + 1] - speakerChapterStart[s]);
    }

    /** Number of non-title utterances of chapter {@code c}. */
    int chapterClipCount(int c) {
        return chapterStart[c + 1] - chapterStart[c] - 1;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Construction

    private static SpeechPlan build(SpeechScale scale) {
        int[] utterances = split(MEDIUM_UTTERANCES, speakerWeights());
        double[] extraWeights = new double[MEDIUM_SPEAKERS];
        for (int s = 0; s < MEDIUM_SPEAKERS; s++) {
            extraWeights[s] = 2 * unit(Hashing.mix64(CHAPTERS_KEY, s));
        }
        int[] chapterCounts = split(MEDIUM_CHAPTERS - MEDIUM_SPEAKERS, extraWeights);
        int[] mediumSizes = new int[MEDIUM_CHAPTERS];
        int chapter = 0;
        for (int s = 0; s < MEDIUM_SPEAKERS; s++) {
            chapterCounts[s]++;
            double[] weights = new double[chapterCounts[s]];
            for (int k = 0; k < weights.length; k++) {
                weights[k] = 0.5 + unit(Hashing.mix64(CHAPTER_SIZE_KEY, chapter + k));
            }
            int[] sizes = split(utterances[s], weights);
            System.arraycopy(sizes, 0, mediumSizes, chapter, sizes.length);
            chapter += sizes.length;
        }
        int speakers = scale.speakerCount();
        SpeechPlan plan;
        if (scale == SpeechScale.TINY) {
            int[] counts = new int[speakers];
            int[] sizes = new int[speakers];
            int[] keys = new int[speakers];
            int first = 0;
            for (int s = 0; s < speakers; s++) {
                counts[s] = 1;
                sizes[s] = TINY_CHAPTER_UTTERANCES;
                keys[s] = first;
                first += chapterCounts[s];
            }
            plan = new SpeechPlan(scale, speakers, counts, sizes, keys);
        } else {
            int chapters = 0;
            for (int s = 0; s < speakers; s++) {
                chapters += chapterCounts[s];
            }
            int[] keys = new int[chapters];
            Arrays.setAll(keys, c -> c);
            plan = new SpeechPlan(scale, speakers, Arrays.copyOf(chapterCounts, speakers),
                    Arrays.copyOf(mediumSizes, chapters), keys);
        }
        if (plan.utteranceCount() != scale.utteranceCount()) {
            throw new IllegalStateException("The " + scale.scaleName() + " speech plan has " + plan.utteranceCount()
                    + " utterances, expected " + scale.utteranceCount());
        }
        return plan;
    }

    /** Relative utterance counts of medium's speakers: 1 + 10% of a normal quantile, stratified over speakers. */
    private static double[] speakerWeights() {
        double[] weights = new double[MEDIUM_SPEAKERS];
        for (int s = 0; s < MEDIUM_SPEAKERS; s++) {
            long rank = Hashing.permute(s, MEDIUM_SPEAKERS, COUNT_KEY);
            weights[s] = 1 + SPEAKER_SPREAD * Normal.quantile((rank + 0.5) / MEDIUM_SPEAKERS);
        }
        return weights;
    }

    /**
     * {@code total} split in proportion to {@code weights} by rounding the running sums: the parts add up to the
     * total exactly, and each is within one of its exact share.
     */
    static int[] split(int total, double[] weights) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        int[] parts = new int[weights.length];
        double running = 0;
        long given = 0;
        for (int i = 0; i < weights.length; i++) {
            running += weights[i];
            long upTo = i == weights.length - 1 ? total : Math.round(total * running / sum);
            parts[i] = (int) (upTo - given);
            given = upTo;
        }
        return parts;
    }

    /**
     * Speaker ids rise with the index, 16 to 8,047, like LibriSpeech's (19 to 8,975 in train-clean-100), so samples
     * in speaker order are in id order.
     */
    private static long speakerIdOf(int s) {
        return 16 + 32L * s + Math.floorMod(Hashing.mix64(SPEAKER_ID_KEY, s), 32L);
    }

    /** Chapter ids rise with medium's chapter order, up to about 300,000 as LibriSpeech's do. */
    private static long chapterIdOf(int key) {
        return 100 + 512L * key + Math.floorMod(Hashing.mix64(CHAPTER_ID_KEY, key), 512L);
    }

    /**
     * Speakers come in pairs, one female and one male in a hashed order, so every even prefix is balanced; medium's
     * 251st speaker, unpaired, is male: 125 female and 126 male, as in train-clean-100.
     */
    private static boolean isFemale(int s) {
        if (s == MEDIUM_SPEAKERS - 1) {
            return false;
        }
        boolean femaleFirst = (Hashing.mix64(SEX_KEY, s / 2) & 1) == 0;
        return (s % 2 == 0) == femaleFirst;
    }

    /** A hash's top 53 bits as a double in [0, 1). */
    static double unit(long hash) {
        return (hash >>> 11) * 0x1.0p-53;
    }
}
