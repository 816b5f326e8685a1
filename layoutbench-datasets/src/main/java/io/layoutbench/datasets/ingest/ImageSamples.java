package io.layoutbench.datasets.ingest;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.internal.SlicedIo;
import io.layoutbench.datasets.image.ImageHeader;
import io.layoutbench.datasets.image.ImageHeaders;
import io.layoutbench.datasets.image.UnknownImageFormatException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * Turns listed image files into rows and samples of the {@link MetadataSchema#imageNet()} schema, reading only what
 * is not declared: dimensions from the image header, the size from the file.
 */
final class ImageSamples {

    /** Java arrays stop a little below Integer.MAX_VALUE. */
    private static final long MAX_SAMPLE_BYTES = Integer.MAX_VALUE - 8;

    private ImageSamples() {
    }

    /** The entry's metadata; empty when the file is skipped as an unknown format. */
    static Optional<MetadataRow> metadata(FileEntry entry, IngestOptions options) {
        long filesize = entry.filesize() != null ? entry.filesize() : FileSamples.size(entry);
        if (entry.width() != null && entry.height() != null) {
            return Optional.of(row(entry, filesize, entry.width(), entry.height()));
        }
        Optional<ImageHeader> header = header(entry, options, () -> ImageHeaders.read(entry.file()));
        return header.map(h -> row(entry, filesize, dimension(entry.width(), h.width()),
                dimension(entry.height(), h.height())));
    }

    /** The entry's sample, bytes and metadata; empty when the file is skipped as an unknown format. */
    static Optional<Sample> sample(FileEntry entry, IngestOptions options) {
        byte[] bytes = readAll(entry);
        if (entry.filesize() != null && entry.filesize() != bytes.length) {
            throw new IngestException(entry.origin() + ": declares filesize_bytes " + entry.filesize() + " but "
                    + entry.file() + " has " + bytes.length + " bytes");
        }
        if (entry.width() != null && entry.height() != null) {
            return Optional.of(new Sample(row(entry, bytes.length, entry.width(), entry.height()),
                    ByteBuffer.wrap(bytes)));
        }
        Optional<ImageHeader> header = header(entry, options,
                () -> ImageHeaders.read(bytes, entry.file().toString()));
        return header.map(h -> new Sample(row(entry, bytes.length, dimension(entry.width(), h.width()),
                dimension(entry.height(), h.height())), ByteBuffer.wrap(bytes)));
    }

    private interface HeaderRead {
        ImageHeader read();
    }

    private static Optional<ImageHeader> header(FileEntry entry, IngestOptions options, HeaderRead read) {
        try {
            return Optional.of(read.read());
        } catch (UnknownImageFormatException e) {
            if (options.unknownFormats() == IngestOptions.UnknownFormatPolicy.SKIP) {
                return Optional.empty();
            }
            throw e;
        } catch (UncheckedIOException e) {
            throw FileSamples.ioError(entry, e.getCause());
        }
    }

    private static long dimension(Long declared, int fromHeader) {
        return declared != null ? declared : fromHeader;
    }

    private static MetadataRow row(FileEntry entry, long filesize, long width, long height) {
        return new MetadataRow(MetadataSchema.imageNet(), Arrays.asList(entry.filename(), entry.label(), filesize,
                width, height));
    }

    private static byte[] readAll(FileEntry entry) {
        Path file = entry.file();
        try {
            long size = Files.size(file);
            if (size > MAX_SAMPLE_BYTES) {
                throw new IngestException(entry.origin() + ": " + file + " has " + size + " bytes, more than a sample "
                        + "can hold (" + MAX_SAMPLE_BYTES + ")");
            }
            return SlicedIo.readAllBytes(file);   // not Files.readAllBytes: see SlicedIo
        } catch (IOException e) {
            throw FileSamples.ioError(entry, e);
        }
    }
}
