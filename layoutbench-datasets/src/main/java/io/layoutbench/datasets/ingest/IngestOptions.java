package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

/**
 * How real files are turned into samples.
 *
 * <pre>{@code
 * IngestOptions options = IngestOptions.defaults()
 *         .withUnknownFormats(IngestOptions.UnknownFormatPolicy.SKIP)
 *         .withFilenames(IngestOptions.FilenameStyle.FILE_NAME)
 *         .withUnreadableMedia(IngestOptions.UnreadableMediaPolicy.FAIL);
 * }</pre>
 *
 * @param unknownFormats  what an image source ({@link ImageFolderSource}, {@link CsvManifestSource}) does with a
 *                        file that is not a JPEG, PNG, GIF, BMP or WebP image and whose dimensions are therefore
 *                        unknown; {@link MediaFolderSource} takes every file, so it does not ask
 * @param filenames       what the {@code filename} column holds when the source does not say
 * @param unreadableMedia what {@link MediaFolderSource} does with a media file whose header cannot be read (empty,
 *                        cut short, damaged, or only named like its format); image sources always fail on a
 *                        malformed image header, as their rows need its dimensions
 */
public record IngestOptions(UnknownFormatPolicy unknownFormats, FilenameStyle filenames,
                            UnreadableMediaPolicy unreadableMedia) {

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

    /** What to do with a media file of a known format whose header cannot be read. */
    public enum UnreadableMediaPolicy {
        /**
         * Store the file whole as opaque bytes, its kind and format as recognised and its header facts null, and log
         * one WARN line naming the file and why: one damaged clip does not stop an ingest of millions.
         */
        STORE_OPAQUE,
        /** Stop with an {@link IngestException} naming the file and why. */
        FAIL
    }

    public IngestOptions {
        requireNonNull(unknownFormats, "unknownFormats is null");
        requireNonNull(filenames, "filenames is null");
        requireNonNull(unreadableMedia, "unreadableMedia is null");
    }

    /** Options with {@link UnreadableMediaPolicy#STORE_OPAQUE}. */
    public IngestOptions(UnknownFormatPolicy unknownFormats, FilenameStyle filenames) {
        this(unknownFormats, filenames, UnreadableMediaPolicy.STORE_OPAQUE);
    }

    /** Fail on unknown image formats; relative paths as file names; unreadable media stored as opaque bytes. */
    public static IngestOptions defaults() {
        return new IngestOptions(UnknownFormatPolicy.FAIL, FilenameStyle.RELATIVE_PATH,
                UnreadableMediaPolicy.STORE_OPAQUE);
    }

    public IngestOptions withUnknownFormats(UnknownFormatPolicy policy) {
        return new IngestOptions(policy, filenames, unreadableMedia);
    }

    public IngestOptions withFilenames(FilenameStyle style) {
        return new IngestOptions(unknownFormats, style, unreadableMedia);
    }

    public IngestOptions withUnreadableMedia(UnreadableMediaPolicy policy) {
        return new IngestOptions(unknownFormats, filenames, policy);
    }
}
