package io.layoutbench.datasets.media;

import io.layoutbench.datasets.image.ImageHeader;
import io.layoutbench.datasets.image.ImageHeaderException;
import io.layoutbench.datasets.image.ImageHeaders;

import java.io.BufferedInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Image dimensions from {@link ImageHeaders}, which reads no further than the frame header. */
final class ImageFacts {

    private ImageFacts() {
    }

    static MediaInfo read(Path file, long size, MediaFormat format) throws Exception {
        ImageHeader header;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 8192)) {
            header = ImageHeaders.read(in, file.toString());
        } catch (ImageHeaderException e) {
            throw new BadHeader(e.offset() > 0 ? "at offset " + e.offset() + ": " + e.reason() : e.reason());
        }
        return MediaInfo.image(format.formatName(), header.width(), header.height());
    }
}
