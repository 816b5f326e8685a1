package io.layoutbench.examples.cli;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.speech.SpeechScale;
import io.layoutbench.evaluation.BenchmarkQuery;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.speech.SpeechQueries;
import io.layoutbench.examples.bench.DatasetSource;
import io.layoutbench.examples.bench.LayoutSettings;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * What {@code bench} runs: a synthetic dataset at a scale, the queries written for it, and the settings its layouts
 * are written with. {@code imagenet} is the paper's workload (Q1-Q11, reports name the scale as the paper does:
 * {@code mini}); {@code speech} is the LibriSpeech-like corpus with the speech queries S1-S10 (reports name its scale
 * {@code speech-mini}, so its rows are never mistaken for ImageNet's).
 *
 * <pre>{@code
 * Workload speech = Workload.of(Workload.Kind.SPEECH, datasetOptions);
 * List<? extends BenchmarkQuery> all = speech.queries();      // S1 .. S10
 * }</pre>
 */
final class Workload {

    /** The synthetic datasets bench knows. */
    enum Kind {
        IMAGENET, SPEECH;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** About 110 KB a sample: the synthetic ImageNet's mean. */
    private static final long IMAGENET_SAMPLE_BYTES = 110_000;
    /** About 406 KB a clip: 12.69 s of 16-bit audio at 16 kHz, and its transcript. */
    private static final long SPEECH_CLIP_BYTES = 406_000;

    private final Kind kind;
    private final ImageNetScale imageNetScale;
    private final SpeechScale speechScale;
    private final DatasetSource source;

    private Workload(Kind kind, ImageNetScale imageNetScale, SpeechScale speechScale, DatasetSource source) {
        this.kind = kind;
        this.imageNetScale = imageNetScale;
        this.speechScale = speechScale;
        this.source = source;
    }

    /**
     * The workload of {@code kind} at the scale and seed of {@code options}.
     *
     * @throws picocli.CommandLine.ParameterException if the scale is not one of that dataset's
     */
    static Workload of(Kind kind, DatasetOptions options) {
        requireNonNull(kind, "kind is null");
        return switch (kind) {
            case IMAGENET -> new Workload(kind, options.scale(), null, options.source());
            case SPEECH -> {
                SpeechScale scale = options.speechScale();
                yield new Workload(kind, null, scale,
                        DatasetSource.syntheticSpeech(scale, options.seed, options.shuffle));
            }
        };
    }

    Kind kind() {
        return kind;
    }

    /** The scale as reports name it: {@code mini} for ImageNet, {@code speech-mini} for speech. */
    String scaleLabel() {
        return kind == Kind.IMAGENET ? imageNetScale.scaleName() : "speech-" + speechScale.scaleName();
    }

    DatasetSource source() {
        return source;
    }

    /** Every query of the workload, at its scale. */
    List<? extends BenchmarkQuery> queries() {
        return kind == Kind.IMAGENET ? PaperQueries.forScale(imageNetScale.scaleName()) : SpeechQueries.ALL;
    }

    /**
     * The query with {@code id} at the workload's scale.
     *
     * @throws IllegalArgumentException naming the known queries if there is none
     */
    BenchmarkQuery query(String id) {
        return kind == Kind.IMAGENET ? PaperQueries.get(id, imageNetScale.scaleName()) : SpeechQueries.get(id);
    }

    /** The options {@code layout} is written with: the paper's settings for the scale, then the overrides. */
    Map<String, String> layoutOptions(StorageLayout layout, Map<String, Map<String, String>> overrides) {
        if (kind == Kind.IMAGENET) {
            return Layouts.options(layout, imageNetScale, overrides);
        }
        return LayoutSettings.withOverrides(layout.name(), LayoutSettings.paperDefaults(layout.name(), speechScale),
                overrides);
    }

    /** About how many bytes of samples one layout of the dataset holds. */
    long approximateBytes() {
        return kind == Kind.IMAGENET ? imageNetScale.sampleCount() * IMAGENET_SAMPLE_BYTES
                : speechScale.utteranceCount() * SPEECH_CLIP_BYTES;
    }

    /** Parses {@code imagenet} or {@code speech}, ignoring case. */
    static final class KindConverter implements ITypeConverter<Kind> {
        @Override
        public Kind convert(String value) {
            for (Kind kind : Kind.values()) {
                if (kind.label().equalsIgnoreCase(value.strip())) {
                    return kind;
                }
            }
            throw new TypeConversionException("Unknown dataset '" + value + "'; known datasets: imagenet, speech");
        }
    }
}
