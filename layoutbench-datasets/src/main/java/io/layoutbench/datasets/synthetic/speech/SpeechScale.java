package io.layoutbench.datasets.synthetic.speech;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The sizes of the synthetic LibriSpeech-like corpus, by number of speakers. {@link #MEDIUM} is shaped like
 * train-clean-100 (Panayotov et al., ICASSP 2015, Table 1: 100.6 h, 251 speakers, 125 female and 126 male); the
 * smaller scales are its first speakers, with every utterance they have there, so a query naming one of them returns
 * the same clips at mini, small and medium. {@link #TINY} is for tests.
 *
 * <pre>{@code
 * SpeechScale scale = SpeechScale.fromName("mini");
 * int speakers = scale.speakerCount();   // 10
 * }</pre>
 */
public enum SpeechScale {
    /** 4 speakers (2 F, 2 M), one chapter each of 5 utterances: 20 clips, about 7 MB, for tests. */
    TINY(4, 20),
    /** The first 10 speakers of medium (5 F, 5 M), 22 chapters: 1,149 clips, 4.1 h, about 470 MB. */
    MINI(10, 1_149),
    /** The first 50 speakers of medium (25 F, 25 M), 110 chapters: 5,834 clips, 20.6 h, about 2.4 GB. */
    SMALL(50, 5_834),
    /** Shaped like train-clean-100: 251 speakers (125 F, 126 M), 585 chapters, 28,539 clips, 100.6 h, 11.6 GB. */
    MEDIUM(251, 28_539);

    private final int speakerCount;
    private final int utteranceCount;

    SpeechScale(int speakerCount, int utteranceCount) {
        this.speakerCount = speakerCount;
        this.utteranceCount = utteranceCount;
    }

    /** Number of speakers at this scale. */
    public int speakerCount() {
        return speakerCount;
    }

    /** Number of utterances (samples) at this scale. */
    public int utteranceCount() {
        return utteranceCount;
    }

    /** The scale's lower-case name, as {@link #fromName} accepts it. */
    public String scaleName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The scale with this name, ignoring case.
     *
     * @throws IllegalArgumentException listing the known names when there is no such scale
     */
    public static SpeechScale fromName(String name) {
        if (name != null) {
            for (SpeechScale scale : values()) {
                if (scale.name().equalsIgnoreCase(name.strip())) {
                    return scale;
                }
            }
        }
        throw new IllegalArgumentException("Unknown speech scale '" + name + "'; known scales: "
                + Arrays.stream(values()).map(SpeechScale::scaleName).collect(Collectors.joining(", ")));
    }
}
