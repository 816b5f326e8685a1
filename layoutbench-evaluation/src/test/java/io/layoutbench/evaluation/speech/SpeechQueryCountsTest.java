package io.layoutbench.evaluation.speech;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.datasets.synthetic.speech.SpeechScale;
import io.layoutbench.datasets.synthetic.speech.SyntheticSpeech;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/**
 * S1-S10 over the synthetic speech corpus return the sizes {@link SpeechQueries} documents, at every scale and any
 * seed; the predicate language agrees with the same predicates written in Java; and the sizes follow from how the
 * corpus is generated (one title under 3 s per chapter, the rare word in every eighth speaker).
 */
class SpeechQueryCountsTest {

    /** S1..S10 at tiny, mini, small, medium: the table in SpeechQueries' Javadoc. */
    private static final long[][] COUNTS = {
        {1, 5, 10, 4, 1, 4, 1, 1, 2, 5},
        {1, 115, 573, 22, 22, 338, 2, 11, 62, 24},
        {1, 115, 2_904, 110, 114, 1_718, 7, 58, 62, 117},
        {1, 115, 14_244, 585, 555, 8_409, 32, 274, 62, 617}};

    private static final long FIRST_SPEAKER = 42;
    private static final long SECOND_SPEAKER = 61;

    /** S1-S10 without LIMIT, in Java. */
    private static final List<Predicate<MetadataRow>> IN_JAVA = List.of(
            r -> speaker(r) == FIRST_SPEAKER,
            r -> speaker(r) == SECOND_SPEAKER,
            r -> r.getString("sex").equals("M"),
            r -> seconds(r) < 3,
            r -> seconds(r) > 20,
            r -> text(r).contains("SAID"),
            r -> text(r).contains("NIGHTINGALE"),
            r -> r.getString("sex").equals("F") && seconds(r) > 20,
            r -> Set.of(FIRST_SPEAKER, SECOND_SPEAKER).contains(speaker(r)) && text(r).contains("SAID"),
            r -> seconds(r) < 3 || text(r).contains("NIGHTINGALE"));

    @Test
    void everyScaleReturnsTheDocumentedCounts() {
        for (SpeechScale scale : SpeechScale.values()) {
            SyntheticSpeech corpus = SyntheticSpeech.of(scale, 42L, false);
            assertThat(counts(corpus)).as(scale.scaleName()).containsExactly(COUNTS[scale.ordinal()]);
        }
    }

    @Test
    void countsDoNotDependOnSeedOrOrder() {
        for (SpeechScale scale : List.of(SpeechScale.TINY, SpeechScale.MINI)) {
            for (long seed : new long[] {1L, 987_654_321L}) {
                assertThat(counts(SyntheticSpeech.of(scale, seed, true))).as("%s seed %d", scale, seed)
                        .containsExactly(COUNTS[scale.ordinal()]);
            }
        }
    }

    @Test
    void predicateLanguageAgreesWithJava() {
        SyntheticSpeech mini = SyntheticSpeech.of(SpeechScale.MINI, 5L, false);
        List<MetadataRow> rows = mini.metadata().toList();
        ColumnarTable table = ColumnarTable.of(mini.schema(), rows);

        for (int q = 0; q < SpeechQueries.ALL.size(); q++) {
            SpeechQuery query = SpeechQueries.ALL.get(q);
            Predicate<MetadataRow> inJava = IN_JAVA.get(q);
            List<Integer> expected = IntStream.range(0, rows.size()).filter(i -> inJava.test(rows.get(i)))
                    .boxed().toList();
            long limit = query.parse().limit().orElse(Long.MAX_VALUE);
            List<Integer> selected = query.bind(mini.schema()).select(table).stream().boxed().toList();
            assertThat(selected).as(query.toString())
                    .isEqualTo(expected.subList(0, (int) Math.min(limit, expected.size())));
        }
    }

    @Test
    void theQueriesNameWhatTheGeneratorPlaces() {
        for (SpeechScale scale : SpeechScale.values()) {
            SyntheticSpeech corpus = SyntheticSpeech.of(scale, 3L, false);
            long[] counts = counts(corpus);
            assertThat(corpus.speakerId(0)).isEqualTo(FIRST_SPEAKER);
            assertThat(corpus.speakerId(1)).isEqualTo(SECOND_SPEAKER);
            assertThat(counts[3]).as("S4: one title per chapter").isEqualTo(corpus.chapterCount());
            int everyEighth = (corpus.speakerCount() + SyntheticSpeech.RARE_WORD_SPEAKER_STRIDE - 1)
                    / SyntheticSpeech.RARE_WORD_SPEAKER_STRIDE;
            assertThat(counts[6]).as("S7: one clip of every eighth speaker").isEqualTo(everyEighth);
            assertThat(counts[9]).as("S10: titles and the rare word are disjoint").isEqualTo(counts[3] + counts[6]);
            assertThat(counts).as("every query returns a clip at %s", scale).doesNotContain(0L);
        }
        assertThat(SyntheticSpeech.COMMON_WORD).isEqualTo("SAID");
        assertThat(SyntheticSpeech.RARE_WORD).isEqualTo("NIGHTINGALE");
        assertThat(SyntheticSpeech.SHORT_CLIP_SECONDS).isEqualTo(3);
        assertThat(SyntheticSpeech.LONG_CLIP_SECONDS).isEqualTo(20);
    }

    private static long[] counts(SyntheticSpeech corpus) {
        ColumnarTable.Builder table = ColumnarTable.builder(corpus.schema());
        corpus.metadata().forEach(table::add);
        ColumnarTable built = table.build();
        return SpeechQueries.ALL.stream().mapToLong(q -> q.bind(corpus.schema()).select(built).size()).toArray();
    }

    private static long speaker(MetadataRow row) {
        return row.getLong("speaker_id");
    }

    private static double seconds(MetadataRow row) {
        return row.getDouble("duration_seconds");
    }

    private static String text(MetadataRow row) {
        return row.getString("transcript");
    }
}
