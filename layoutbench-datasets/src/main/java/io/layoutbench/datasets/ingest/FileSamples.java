package io.layoutbench.datasets.ingest;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNameSet;
import io.layoutbench.api.dataset.SampleNames;
import io.layoutbench.api.internal.SlicedIo;
import io.layoutbench.datasets.image.ImageHeader;
import io.layoutbench.datasets.image.ImageHeaders;
import io.layoutbench.datasets.image.UnknownImageFormatException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/** Turns listed files into metadata rows and samples, reading only what is not declared. */
final class FileSamples {

    /** Java arrays stop a little below Integer.MAX_VALUE. */
    private static final long MAX_SAMPLE_BYTES = Integer.MAX_VALUE - 8;

    private FileSamples() {
    }

    /** The entry's metadata; empty when the file is skipped as an unknown format. */
    static Optional<MetadataRow> metadata(FileEntry entry, IngestOptions options) {
        long filesize = entry.filesize() != null ? entry.filesize() : size(entry);
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

    /**
     * A sequential stream over the present results of {@code convert} applied to the entries of a new listing, one
     * at a time: a hand-written iterator because {@code flatMap} pipelines buffer whole inner streams when iterated,
     * which would hold a whole class of sample bytes.
     *
     * <p>Each present result's {@code filename} must be a valid sample name not given to an earlier result, as the
     * layouts store and find samples by name: a repeat fails with an {@link IngestException} naming both entries
     * (found by walking the listing again up to the repeat, so only an exact repeat fails) and ending in
     * {@code remedy}. Costs 8 bytes a sample ({@link SampleNameSet}).
     */
    static <T> Stream<T> stream(Supplier<FileListing> listings, Function<FileEntry, Optional<T>> convert,
                                IngestOptions options, String remedy) {
        FileListing entries = listings.get();
        Iterator<T> results = new Iterator<>() {
            private final SampleNameSet names = new SampleNameSet();
            private long listed;
            private T next;

            @Override
            public boolean hasNext() {
                while (next == null && entries.hasNext()) {
                    FileEntry entry = entries.next();
                    listed++;
                    next = convert.apply(entry).orElse(null);
                    if (next != null) {
                        checkName(entry);
                    }
                }
                return next != null;
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                T result = next;
                next = null;
                return result;
            }

            private void checkName(FileEntry entry) {
                Optional<String> problem = SampleNames.problem(entry.filename());
                if (problem.isPresent()) {
                    throw new IngestException(entry.origin() + ": sample name '" + entry.filename() + "' "
                            + problem.get() + "; a sample name is a relative path");
                }
                if (!names.add(entry.filename())) {
                    Optional<FileEntry> earlier = earlier(listings, entry, listed - 1, options);
                    if (earlier.isPresent()) {
                        throw repeated(entry, earlier.get(), remedy);
                    }
                    // Only a 64-bit hash of another name matched: the name is new.
                }
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(results,
                Spliterator.ORDERED | Spliterator.NONNULL), false).onClose(entries::close);
    }

    /** The files a new listing names, in order, as the streams would read them. */
    static Stream<Path> files(Supplier<FileListing> listings) {
        FileListing entries = listings.get();
        Iterator<Path> files = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return entries.hasNext();
            }

            @Override
            public Path next() {
                return entries.next().file();
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(files,
                Spliterator.ORDERED | Spliterator.NONNULL), false).onClose(entries::close);
    }

    /** The first of the {@code before} first entries of a new listing that is a sample named as {@code entry} is. */
    private static Optional<FileEntry> earlier(Supplier<FileListing> listings, FileEntry entry, long before,
                                               IngestOptions options) {
        try (FileListing again = listings.get()) {
            for (long i = 0; i < before && again.hasNext(); i++) {
                FileEntry candidate = again.next();
                if (candidate.filename().equals(entry.filename()) && metadata(candidate, options).isPresent()) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private static IngestException repeated(FileEntry entry, FileEntry earlier, String remedy) {
        String what = entry.file().normalize().equals(earlier.file().normalize())
                ? "lists " + entry.file() + " again, as " + earlier.origin() + " does"
                : "sample name '" + entry.filename() + "'" + fileUnlessOrigin(entry) + " is already the name of "
                        + earlier.origin() + fileUnlessOrigin(earlier);
        return new IngestException(entry.origin() + ": " + what + "; the samples of a dataset need distinct names, "
                + "as the layouts store and find them by name: " + remedy);
    }

    /** " (the file)" when the entry's origin is a manifest line, not the file itself. */
    private static String fileUnlessOrigin(FileEntry entry) {
        return entry.origin().equals(entry.file().toString()) ? "" : " (" + entry.file() + ")";
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
        } catch (java.io.UncheckedIOException e) {
            throw ioError(entry, e.getCause());
        }
    }

    private static long dimension(Long declared, int fromHeader) {
        return declared != null ? declared : fromHeader;
    }

    private static MetadataRow row(FileEntry entry, long filesize, long width, long height) {
        return new MetadataRow(MetadataSchema.imageNet(), Arrays.asList(entry.filename(), entry.label(), filesize,
                width, height));
    }

    private static long size(FileEntry entry) {
        try {
            return Files.size(entry.file());
        } catch (IOException e) {
            throw ioError(entry, e);
        }
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
            throw ioError(entry, e);
        }
    }

    static IngestException ioError(FileEntry entry, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new IngestException(entry.origin() + ": file " + entry.file() + " does not exist", e);
        }
        return new IngestException(entry.origin() + ": cannot read " + entry.file() + ": " + e, e);
    }
}
