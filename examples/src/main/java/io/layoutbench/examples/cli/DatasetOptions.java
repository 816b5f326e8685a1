package io.layoutbench.examples.cli;

import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.examples.bench.DatasetSource;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** Which synthetic dataset: {@code --scale}, {@code --seed}, {@code --shuffle}. */
final class DatasetOptions {

    /** The seed the benchmark uses unless told otherwise. */
    static final long DEFAULT_SEED = 42;

    @Option(names = "--scale", paramLabel = "SCALE", defaultValue = "mini", converter = ScaleConverter.class,
            description = "Synthetic ImageNet scale: tiny (1,030 samples), mini (12,756, about 1.4 GB), medium "
                    + "(128,066, about 14 GB) or full (1,281,167, about 140 GB). Default: ${DEFAULT-VALUE}.")
    ImageNetScale scale;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "" + DEFAULT_SEED,
            description = "Seed of the synthetic dataset (which file gets which size and bytes). "
                    + "Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--shuffle",
            description = "Store samples in a seeded random order instead of class order.")
    boolean shuffle;

    DatasetSource source() {
        return DatasetSource.synthetic(scale, seed, shuffle);
    }

    /** Converts a scale name, with the known names in the error. */
    static final class ScaleConverter implements ITypeConverter<ImageNetScale> {
        @Override
        public ImageNetScale convert(String value) {
            try {
                return ImageNetScale.fromName(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
