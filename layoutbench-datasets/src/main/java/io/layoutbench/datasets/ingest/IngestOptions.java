package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

/**
 * How real files are turned into samples.
 *
 * <pre>{@code
 * IngestOptions options = IngestOptions.defaults()
 *         .withUnknownFormats(IngestOptions.UnknownFormatPolicy.SKIP)
 *         .withFilenames(IngestOptions.FilenameStyle.FILE_NAME);
 * }</pre>
 *
 * @param unknownFormats what to do with a file that is not a JPEG, PNG, GIF, BMP or WebP image and whose dimensions
 *                       are therefore unknown
 * @param filenames      what the {@code filename} column holds when the source does not say
 */
public record IngestOptions(UnknownFormatPolicy unknownFormats, FilenameStyle filenames) {

    /** What to do with files whose format is not recognised. */
    public enum UnknownFormatPolicy {
        /** Stop with an {@link io.layoutbench.datasets.image.UnknownImageFormatException} naming the file. */
        FAIL,
        /** Leave the file out of the dataset. */
        SKIP
    }

    /** How a sample's {@code filename} is derived from its path. */
    public enum FilenameStyle {
        /**
         * The path relative to the dataset root (image folder) or as written in the manifest, with {@code /}
         * separators: {@code n01440764/n01440764_10026.JPEG}. Unique within a dataset.
         */
        RELATIVE_PATH,
        /**
         * The file name alone: {@code n01440764_10026.JPEG}. Shorter, as ImageNet's own metadata has it, but unique
         * only when the source's file names are.
         */
        FILE_NAME
    }

    public IngestOptions {
        requireNonNull(unknownFormats, "unknownFormats is null");
        requireNonNull(filenames, "filenames is null");
    }

    /** Fail on unknown formats; relative paths as file names. */
    public static IngestOptions defaults() {
        return new IngestOptions(UnknownFormatPolicy.FAIL, FilenameStyle.RELATIVE_PATH);
    }

    public IngestOptions withUnknownFormats(UnknownFormatPolicy policy) {
        return new IngestOptions(policy, filenames);
    }

    public IngestOptions withFilenames(FilenameStyle style) {
        return new IngestOptions(unknownFormats, style);
    }
}
