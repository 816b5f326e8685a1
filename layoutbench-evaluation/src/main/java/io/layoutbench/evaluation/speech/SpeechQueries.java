package io.layoutbench.evaluation.speech;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;

/**
 * Ten queries over the synthetic LibriSpeech-like corpus ({@code SyntheticSpeech} in layoutbench-datasets), in the
 * spirit of the paper's Q1-Q11: point lookups and whole speakers, a sex, duration ranges, words in transcripts, and
 * their combinations. The values they name come from how the corpus is generated, so every result size is known
 * and the same at any seed:
 * <ul>
 *   <li>speakers 42 and 61 are the corpus's first two, at every scale;</li>
 *   <li>the clips under 3 s are the chapter titles, one per chapter; about 2% of the other clips last over 20 s;</li>
 *   <li>{@code SAID} is in 30% of each chapter's other clips, {@code NIGHTINGALE} in one clip of every eighth
 *       speaker, and no other word contains either.</li>
 * </ul>
 * Result sizes at tiny, mini, small and medium, at any seed (SpeechQueryCountsTest checks them):
 *
 * <pre>
 *        tiny  mini  small  medium            tiny  mini  small  medium
 * S1        1     1      1       1    S6        4   338  1,718   8,409
 * S2        5   115    115     115    S7        1     2      7      32
 * S3       10   573  2,904  14,244    S8        1    11     58     274
 * S4        4    22    110     585    S9        2    62     62      62
 * S5        1    22    114     555    S10       5    24    117     617
 * </pre>
 *
 * <pre>{@code
 * for (SpeechQuery q : SpeechQueries.ALL) {
 *     System.out.println(q.id() + " selects " + q.bind(SyntheticSpeech.SCHEMA).select(table).size() + " clips");
 * }
 * }</pre>
 */
public final class SpeechQueries {

    /** The speech dataset's scales, smallest first. */
    public static final List<String> SCALES = List.of("tiny", "mini", "small", "medium");

    /** The ten queries. */
    public static final List<SpeechQuery> ALL = List.of(
            new SpeechQuery("S1", "Point lookup: the first clip of one speaker",
                    "speaker_id = 42 LIMIT 1"),
            new SpeechQuery("S2", "Every clip of one speaker",
                    "speaker_id = 61"),
            new SpeechQuery("S3", "Every clip of one sex: about half the corpus",
                    "sex = 'M'"),
            new SpeechQuery("S4", "Short clips, under 3 s: the chapter titles",
                    "duration_seconds < 3"),
            new SpeechQuery("S5", "Long clips, over 20 s",
                    "duration_seconds > 20"),
            new SpeechQuery("S6", "A common word in the transcript: about 30% of the clips",
                    "transcript LIKE '%SAID%'"),
            new SpeechQuery("S7", "A rare word in the transcript: one clip in every eighth speaker",
                    "transcript LIKE '%NIGHTINGALE%'"),
            new SpeechQuery("S8", "Long clips of one sex",
                    "sex = 'F' AND duration_seconds > 20"),
            new SpeechQuery("S9", "Two speakers, clips with a common word",
                    "speaker_id IN (42, 61) AND transcript LIKE '%SAID%'"),
            new SpeechQuery("S10", "Short clips or a rare word: two disjoint sets",
                    "duration_seconds < 3 OR transcript LIKE '%NIGHTINGALE%'"));

    private SpeechQueries() {
    }

    /**
     * The queries at {@code scale}: the same ten at every scale.
     *
     * @throws IllegalArgumentException naming the known scales if {@code scale} is not one
     */
    public static List<SpeechQuery> forScale(String scale) {
        requireNonNull(scale, "scale is null");
        if (!SCALES.contains(scale.strip().toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("Unknown speech scale '" + scale + "'; known scales: "
                    + String.join(", ", SCALES));
        }
        return ALL;
    }

    /** The query with {@code id} ({@code S1} .. {@code S10}, ignoring case). */
    public static SpeechQuery get(String id) {
        requireNonNull(id, "id is null");
        for (SpeechQuery q : ALL) {
            if (q.id().equalsIgnoreCase(id)) {
                return q;
            }
        }
        throw new IllegalArgumentException("Unknown speech query '" + id + "'; known queries: S1 .. S10");
    }
}
