package io.layoutbench.datasets.synthetic.speech;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.layoutbench.api.dataset.MetadataRow;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The medium corpus against the figures it is shaped on: LibriSpeech's train-clean-100 (Panayotov et al., ICASSP
 * 2015, Table 1, and the corpus release): 100.6 h, 251 speakers (125 F, 126 M), 585 chapters, 28,539 utterances
 * (113.7 per speaker, a mean of 12.69 s), at most 35 s, and transcripts of about 2.7 words per second.
 */
class SpeechCorpusStatisticsTest {

    private static final double TRAIN_CLEAN_100_HOURS = 100.6;

    @Test
    void mediumIsShapedLikeTrainClean100() {
        Statistics medium = Statistics.of(SyntheticSpeech.of(SpeechScale.MEDIUM, 42L, false));

        assertThat(medium.utterances).isEqualTo(28_539);
        assertThat(medium.speakers.size()).isEqualTo(251);
        assertThat(medium.femaleSpeakers.size()).isEqualTo(125);
        assertThat(medium.chapters.size()).isEqualTo(585);
        assertThat(medium.seconds / 3600).isCloseTo(TRAIN_CLEAN_100_HOURS, within(0.5));
        assertThat(medium.seconds / medium.utterances).isCloseTo(TRAIN_CLEAN_100_HOURS * 3600 / 28_539, within(0.05));
        assertThat(medium.maxSeconds).isLessThanOrEqualTo(35).isGreaterThan(30);
        assertThat(medium.minSeconds).isGreaterThanOrEqualTo(1.5);
        assertThat(medium.words / medium.seconds).isCloseTo(2.7, within(0.05));
        // About 24 minutes per speaker (Table 1 rounds the target to 25), at most a third more or less.
        double minutesPerSpeaker = medium.seconds / 60 / 251;
        assertThat(minutesPerSpeaker).isCloseTo(24.0, within(0.5));
        assertThat(medium.utterancesPerSpeaker.values()).allSatisfy(n -> assertThat(n).isBetween(76, 152));
        assertThat(medium.chaptersPerSpeaker.values()).allSatisfy(n -> assertThat(n).isBetween(1, 4));
        assertThat(new HashSet<>(medium.chaptersPerSpeaker.values())).contains(1, 2, 3, 4);
    }

    @Test
    void chapterTitlesAreTheClipsUnderThreeSecondsAndTwoPercentOfTheRestExceedTwentySeconds() {
        Statistics medium = Statistics.of(SyntheticSpeech.of(SpeechScale.MEDIUM, 11L, false));

        assertThat(medium.shortClips).isEqualTo(585);
        double clips = medium.utterances - 585;
        assertThat(medium.longClips / clips).isCloseTo(ClipDurations.bodyShareAbove(20), within(0.002));
        assertThat(ClipDurations.bodyShareAbove(20)).isCloseTo(0.02, within(1e-9));
    }

    @Test
    void theDurationFitHasTheCorpusMean() {
        double titles = 585 * ClipDurations.titleMeanSeconds();
        double clips = (28_539 - 585) * ClipDurations.bodyMeanSeconds();

        assertThat(ClipDurations.bodyMeanSeconds()).isCloseTo(12.907, within(1e-9));
        assertThat((titles + clips) / 28_539).isCloseTo(12.69, within(0.005));
        assertThat(ClipDurations.bodySamples(0)).isEqualTo(3 * 16_000 + 1);
        assertThat(ClipDurations.bodySamples(Math.nextDown(1.0))).isEqualTo(35 * 16_000);
        assertThat(ClipDurations.titleSamples(Long.MIN_VALUE)).isBetween(24_000, 47_999);
        assertThatThrownBy(() -> ClipDurations.bodySamples(1)).hasMessage("Quantile must be in [0, 1): 1.0");
    }

    @Test
    void eachSpeakersClipsSpreadOverTheWholeDistribution() {
        SyntheticSpeech mini = SyntheticSpeech.of(SpeechScale.MINI, 42L, false);
        Map<Long, double[]> perSpeaker = new HashMap<>();
        mini.metadata().forEach(row -> {
            double[] sums = perSpeaker.computeIfAbsent(row.getLong("speaker_id"), id -> new double[2]);
            sums[0] += row.getDouble("duration_seconds");
            sums[1]++;
        });

        assertThat(perSpeaker).hasSize(10);
        assertThat(perSpeaker.values()).allSatisfy(sums -> assertThat(sums[0] / sums[1]).isBetween(11.5, 13.5));
    }

    @Test
    void everyScaleHasItsStatedSpeakersAndUtterances() {
        for (SpeechScale scale : SpeechScale.values()) {
            SpeechPlan plan = SpeechPlan.of(scale);
            Statistics stats = Statistics.of(SyntheticSpeech.of(scale, 1L, false));
            assertThat(plan.speakerCount()).as(scale.scaleName()).isEqualTo(scale.speakerCount());
            assertThat(plan.utteranceCount()).as(scale.scaleName()).isEqualTo(scale.utteranceCount());
            assertThat(stats.femaleSpeakers.size() * 2).as(scale.scaleName())
                    .isBetween(scale.speakerCount() - 1, scale.speakerCount());
            assertThat(stats.shortClips).as("one title per chapter").isEqualTo(plan.chapterCount());
            assertThat(stats.longClips).as(scale.scaleName()).isPositive();
        }
        assertThat(SpeechScale.fromName(" Small ")).isEqualTo(SpeechScale.SMALL);
        assertThatThrownBy(() -> SpeechScale.fromName("full"))
                .hasMessage("Unknown speech scale 'full'; known scales: tiny, mini, small, medium");
    }

    @Test
    void splitIsExactAndProportional() {
        int[] parts = SpeechPlan.split(10, new double[] {1, 1, 1});

        assertThat(parts).containsExactly(3, 4, 3);
        assertThat(SpeechPlan.split(7, new double[] {0, 1})).containsExactly(0, 7);
    }

    @Test
    void vocabularyWordsAreDistinctAndNeverHoldTheQueryWords() {
        Set<String> words = new HashSet<>();
        for (int r = 0; r < Vocabulary.SIZE; r++) {
            String word = Vocabulary.word(r);
            assertThat(word).matches("[A-Z]+").doesNotContain("SAID").doesNotContain("NIGHTINGALE");
            words.add(word);
        }
        assertThat(words).hasSize(Vocabulary.SIZE);
        assertThat(Vocabulary.wordAt(0)).isEqualTo("THE");
        assertThat(Vocabulary.number(1)).isEqualTo("ONE");
        assertThat(Vocabulary.number(40)).isEqualTo("FORTY");
        assertThat(Vocabulary.number(73)).isEqualTo("SEVENTY THREE");
    }

    /** Figures of one corpus, from its metadata. */
    private static final class Statistics {
        long utterances;
        double seconds;
        double minSeconds = Double.MAX_VALUE;
        double maxSeconds;
        long words;
        long shortClips;
        long longClips;
        final Set<Long> speakers = new HashSet<>();
        final Set<Long> femaleSpeakers = new HashSet<>();
        final Set<Long> chapters = new HashSet<>();
        final Map<Long, Integer> utterancesPerSpeaker = new HashMap<>();
        final Map<Long, Integer> chaptersPerSpeaker = new HashMap<>();

        static Statistics of(SyntheticSpeech corpus) {
            Statistics stats = new Statistics();
            corpus.metadata().forEach(stats::add);
            return stats;
        }

        private void add(MetadataRow row) {
            double d = row.getDouble("duration_seconds");
            long speaker = row.getLong("speaker_id");
            utterances++;
            seconds += d;
            minSeconds = Math.min(minSeconds, d);
            maxSeconds = Math.max(maxSeconds, d);
            words += row.getString("transcript").split(" ").length;
            shortClips += d < 3 ? 1 : 0;
            longClips += d > 20 ? 1 : 0;
            speakers.add(speaker);
            if (row.getString("sex").equals("F")) {
                femaleSpeakers.add(speaker);
            }
            if (chapters.add(row.getLong("chapter_id"))) {
                chaptersPerSpeaker.merge(speaker, 1, Integer::sum);
            }
            utterancesPerSpeaker.merge(speaker, 1, Integer::sum);
        }
    }
}
