package io.layoutbench.datasets.image;

/**
 * The leading bytes of a file match none of the {@link ImageFormat}s. Ingestion can skip such files instead of
 * failing (see {@code IngestOptions.UnknownFormatPolicy}); malformed files of a known format always fail.
 *
 * <pre>{@code
 * try {
 *     ImageHeaders.read(path);
 * } catch (UnknownImageFormatException e) {
 *     // not an image: README.txt, .DS_Store ...
 * }
 * }</pre>
 */
public class UnknownImageFormatException extends ImageHeaderException {
    private static final long serialVersionUID = 1L;

    public UnknownImageFormatException(String source, String reason) {
        super(source, 0, reason);
    }
}
