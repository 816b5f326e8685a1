package io.layoutbench.datasets.image;

/**
 * Image formats whose dimensions {@link ImageHeaders} reads, recognised by their leading bytes (never by file name).
 *
 * <pre>{@code
 * ImageHeader header = ImageHeaders.read(Path.of("cat.webp"));
 * boolean lossless = header.format() == ImageFormat.WEBP;
 * }</pre>
 */
public enum ImageFormat {
    /** JPEG / JFIF / Exif: {@code FF D8}, dimensions from the first SOFn frame header. */
    JPEG,
    /** PNG: the 8-byte signature, dimensions from the IHDR chunk. */
    PNG,
    /** GIF87a or GIF89a: dimensions of the logical screen. */
    GIF,
    /** Windows or OS/2 bitmap: {@code BM}, dimensions from the DIB header. */
    BMP,
    /** WebP: a RIFF {@code WEBP} container with a VP8, VP8L or VP8X chunk (VP8X gives the canvas size). */
    WEBP
}
