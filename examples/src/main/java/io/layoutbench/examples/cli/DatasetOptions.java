package io.layoutbench.examples.cli;

import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.speech.SpeechScale;
import io.layoutbench.examples.bench.DatasetSource;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * Which synthetic dataset: {@code --scale}, {@code --seed}, {@code --shuffle}. The scale is read as the name of a
 * scale of either synthetic dataset and resolved against the one it is for ({@link #scale()} for the ImageNet,
 * {@link #speechScale()} for the speech corpus of {@code bench --dataset speech}), since their scales differ.
 */
final class DatasetOptions {

    /** The seed the benchmark uses unless told otherwise. */
    static final long DEFAULT_SEED = 42;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--scale", paramLabel = "SCALE", defaultValue = "mini", converter = ScaleNameConverter.class,
            description = "Synthetic ImageNet scale: tiny (1,030 samples), mini (12,756, about 1.4 GB), medium "
                    + "(128,066, about 14 GB) or full (1,281,167, about 140 GB). With bench --dataset speech: tiny "
                    + "(20 clips, 7 MB), mini (1,149 clips, 470 MB), small (5,834, 2.4 GB) or medium (28,539, "
                    + "11.6 GB). Default: ${DEFAULT-VALUE}.")
    String scaleName;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "" + DEFAULT_SEED,
            description = "Seed of the synthetic dataset (which file gets which size and bytes). "
                    + "Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--shuffle",
            description = "Store samples in a seeded random order instead of class (speech: speaker) order.")
    boolean shuffle;

    /**
     * The synthetic ImageNet's scale that {@code --scale} names.
     *
     * @throws ParameterException listing the known scales if it names none
     */
    ImageNetScale scale() {
        try {
            return ImageNetScale.fromName(scaleName);
        } catch (IllegalArgumentException e) {
            throw invalidScale(e);
        }
    }

    /**
     * The speech corpus's scale that {@code --scale} names.
     *
     * @throws ParameterException listing the known scales if it names none
     */
    SpeechScale speechScale() {
        try {
            return SpeechScale.fromName(scaleName);
        } catch (IllegalArgumentException e) {
            throw invalidScale(e);
        }
    }

    /** The synthetic ImageNet at these options. */
    DatasetSource source() {
        return DatasetSource.synthetic(scale(), seed, shuffle);
    }

    private ParameterException invalidScale(IllegalArgumentException e) {
        return new ParameterException(mixee.commandLine(), "Invalid value for option '--scale': " + e.getMessage(),
                e);
    }

    /** Accepts the name of a scale of either synthetic dataset, ignoring case; lists both datasets' otherwise. */
    static final class ScaleNameConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String name = value.strip().toLowerCase(Locale.ROOT);
            boolean known = Stream.concat(Arrays.stream(ImageNetScale.values()).map(ImageNetScale::scaleName),
                    Arrays.stream(SpeechScale.values()).map(SpeechScale::scaleName)).anyMatch(name::equals);
            if (!known) {
                throw new TypeConversionException("Unknown scale '" + value + "'; known scales: "
                        + names(Arrays.stream(ImageNetScale.values()).map(ImageNetScale::scaleName))
                        + " (ImageNet), " + names(Arrays.stream(SpeechScale.values()).map(SpeechScale::scaleName))
                        + " (bench --dataset speech)");
            }
            return name;
        }

        private static String names(Stream<String> names) {
            return names.collect(Collectors.joining(", "));
        }
    }
}
