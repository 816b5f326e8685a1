package io.layoutbench.datasets.image;

import static java.util.Objects.requireNonNull;

/**
 * What an image file's header says: its format and pixel dimensions.
 *
 * <pre>{@code
 * ImageHeader header = ImageHeaders.read(Path.of("n01440764_10026.JPEG"));
 * double aspect = (double) header.width() / header.height();
 * }</pre>
 *
 * @param format the file's format
 * @param width  width in pixels, at least 1
 * @param height height in pixels, at least 1
 */
public record ImageHeader(ImageFormat format, int width, int height) {

    public ImageHeader {
        requireNonNull(format, "format is null");
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("Image dimensions must be positive: " + width + "x" + height);
        }
    }
}
