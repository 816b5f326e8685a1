package io.layoutbench.datasets.synthetic;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The sizes of the synthetic ImageNet-1K train set: the LayoutBench paper's three scales (Table 1) and a tiny one
 * for tests.
 *
 * <pre>{@code
 * ImageNetScale scale = ImageNetScale.fromName("mini");
 * long samples = scale.sampleCount();   // 12,756
 * }</pre>
 */
public enum ImageNetScale {
    /**
     * 1,030 samples for tests: one per class, four in each class the 11 queries name by label, so that every query
     * returns at least one sample.
     */
    TINY(1_030, 4),
    /** The paper's {@code mini}: about 1% of every class, 12,756 samples (1.39 GB in the paper). */
    MINI(12_756, 13),
    /** The paper's {@code medium}: about 10% of every class, 128,066 samples (13.91 GB in the paper). */
    MEDIUM(128_066, 130),
    /** The whole ImageNet-1K train set: 1,281,167 samples, 732 to 1,300 per class (139.25 GB in the paper). */
    FULL(1_281_167, 1_300);

    private final int sampleCount;
    private final int queryClassSamples;

    ImageNetScale(int sampleCount, int queryClassSamples) {
        this.sampleCount = sampleCount;
        this.queryClassSamples = queryClassSamples;
    }

    /** Number of samples at this scale. */
    public int sampleCount() {
        return sampleCount;
    }

    /**
     * Number of samples in each class that a LayoutBench query names (streetcar, lemon, cello, Old_English_sheepdog,
     * giant_panda, water_buffalo, canoe, starfish, tiger_cat, bagel, and the ten snakes except at {@link #TINY},
     * where they have one each): 13, 130 and 1,300 at mini, medium and full, as the paper's Table 2 implies.
     */
    public int queryClassSamples() {
        return queryClassSamples;
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
    public static ImageNetScale fromName(String name) {
        if (name != null) {
            for (ImageNetScale scale : values()) {
                if (scale.name().equalsIgnoreCase(name.strip())) {
                    return scale;
                }
            }
        }
        throw new IllegalArgumentException("Unknown ImageNet scale '" + name + "'; known scales: "
                + Arrays.stream(values()).map(ImageNetScale::scaleName).collect(Collectors.joining(", ")));
    }
}
