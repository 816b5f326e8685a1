package io.layoutbench.datasets.synthetic.speech;

import java.util.Arrays;

/**
 * How long the synthetic clips are, in samples at 16 kHz.
 *
 * <p>The published figures (Panayotov et al., "LibriSpeech: an ASR corpus based on public domain audio books",
 * ICASSP 2015): train-clean-100 holds 100.6 hours (Table 1) in 28,539 utterances (the corpus release), a mean of
 * 12.69 s, and the audio was segmented into utterances of at most 35 s. The paper gives no histogram, so its shape
 * here is an assumption fitted to those figures, with the mode at 15-17 s and a short left tail as in the released
 * corpus:
 * <ul>
 *   <li>the first utterance of every chapter is its title ("CHAPTER TWELVE ..."), uniform in [1.5 s, 3 s): the
 *       clips under 3 s, one per chapter (585 of 28,539 in train-clean-100, 2%);</li>
 *   <li>every other utterance has a piecewise-uniform duration over {@link #EDGES} with the probabilities
 *       {@link #WEIGHTS} (each bin {@code (low, high]}); its mean is {@link #bodyMeanSeconds()}, 12.907 s, chosen so
 *       that the corpus mean with the titles is 12.69 s, 100.59 h for train-clean-100's shape. 2% of them are over
 *       20 s, none over 35 s.</li>
 * </ul>
 * Bin edges are whole numbers of seconds, the thresholds of the speech queries (3 s, 20 s); a clip's sample count is
 * kept inside its bin, so whether a clip is short or long is decided by its bin alone and query result counts are
 * fixed by how many clips each bin gets.
 */
final class ClipDurations {

    static final int SAMPLE_RATE = 16_000;

    /** Bin edges of non-title utterances, in seconds: above 3 s (titles are below), at most 35 s. */
    static final double[] EDGES = {3, 6, 9, 12, 15, 17, 20, 25, 35};
    /** Probability of each bin {@code (EDGES[b], EDGES[b + 1]]}. */
    static final double[] WEIGHTS = {0.080, 0.120, 0.181, 0.250, 0.229, 0.120, 0.015, 0.005};

    /** Titles last from 1.5 s (24,000 samples) to just under 3 s. */
    static final int TITLE_MIN_SAMPLES = 24_000;
    static final int TITLE_SPAN_SAMPLES = 24_000;

    private static final double[] CUMULATIVE = cumulative();

    private ClipDurations() {
    }

    /**
     * The sample count of a non-title utterance at quantile {@code p} in [0, 1): inverse of the piecewise-uniform
     * CDF, rounded to a sample and kept inside the bin {@code p} falls in.
     */
    static int bodySamples(double p) {
        if (!(p >= 0 && p < 1)) {
            throw new IllegalArgumentException("Quantile must be in [0, 1): " + p);
        }
        int bin = 0;
        while (bin < WEIGHTS.length - 1 && p >= CUMULATIVE[bin + 1]) {
            bin++;
        }
        double low = EDGES[bin];
        double high = EDGES[bin + 1];
        double seconds = low + (p - CUMULATIVE[bin]) / WEIGHTS[bin] * (high - low);
        long samples = Math.round(seconds * SAMPLE_RATE);
        long first = Math.round(low * SAMPLE_RATE) + 1;
        long last = Math.round(high * SAMPLE_RATE);
        return (int) Math.min(Math.max(samples, first), last);
    }

    /** The sample count of a chapter title, from a 64-bit hash: in [1.5 s, 3 s). */
    static int titleSamples(long hash) {
        return TITLE_MIN_SAMPLES + (int) Math.floorMod(hash, (long) TITLE_SPAN_SAMPLES);
    }

    /** Mean duration of a non-title utterance in seconds: the sum of bin probabilities times bin midpoints. */
    static double bodyMeanSeconds() {
        double mean = 0;
        for (int b = 0; b < WEIGHTS.length; b++) {
            mean += WEIGHTS[b] * (EDGES[b] + EDGES[b + 1]) / 2;
        }
        return mean;
    }

    /** Mean duration of a title in seconds. */
    static double titleMeanSeconds() {
        return (TITLE_MIN_SAMPLES + (TITLE_SPAN_SAMPLES - 1) / 2.0) / SAMPLE_RATE;
    }

    /** Probability that a non-title utterance lasts more than {@code seconds}, one of the {@link #EDGES}. */
    static double bodyShareAbove(double seconds) {
        for (int b = 0; b < EDGES.length; b++) {
            if (EDGES[b] == seconds) {
                return 1 - CUMULATIVE[b];
            }
        }
        throw new IllegalArgumentException(seconds + " s is not a bin edge; edges: " + Arrays.toString(EDGES));
    }

    private static double[] cumulative() {
        double[] cumulative = new double[WEIGHTS.length + 1];
        for (int b = 0; b < WEIGHTS.length; b++) {
            cumulative[b + 1] = cumulative[b] + WEIGHTS[b];
        }
        if (Math.abs(cumulative[WEIGHTS.length] - 1) > 1e-12) {
            throw new IllegalStateException("Duration bin weights sum to " + cumulative[WEIGHTS.length] + ", not 1");
        }
        cumulative[WEIGHTS.length] = 1;
        return cumulative;
    }
}
