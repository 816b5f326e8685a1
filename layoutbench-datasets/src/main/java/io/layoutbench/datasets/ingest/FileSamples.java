package io.layoutbench.datasets.ingest;

import io.layoutbench.api.dataset.SampleNameSet;
import io.layoutbench.api.dataset.SampleNames;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Streams of what a source makes of the files it lists, one at a time, with the sample-name checks every file source
 * shares. What a source makes of a file is its own: {@link ImageSamples} for images, {@link MediaFolderSource}'s for
 * any media.
 */
final class FileSamples {

    private FileSamples() {
    }

    /**
     * A sequential stream over the present results of {@code convert} applied to the entries of a new listing, one
     * at a time (an empty result leaves the entry out; {@code isSample} tells, without converting, which entries
     * {@code convert} keeps): a hand-written iterator because {@code flatMap} pipelines buffer whole inner streams
     * when iterated, which would hold a whole class of sample bytes.
     *
     * <p>Each present result's {@code filename} must be a valid sample name not given to an earlier result, as the
     * layouts store and find samples by name: a repeat fails with an {@link IngestException} naming both entries
     * (found by walking the listing again up to the repeat, so only an exact repeat fails) and ending in
     * {@code remedy}. Costs 8 bytes a sample ({@link SampleNameSet}).
     */
    static <T> Stream<T> stream(Supplier<FileListing> listings, Function<FileEntry, Optional<T>> convert,
                                Predicate<FileEntry> isSample, String remedy) {
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
                    Optional<FileEntry> earlier = earlier(listings, entry, listed - 1, isSample);
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
                                               Predicate<FileEntry> isSample) {
        try (FileListing again = listings.get()) {
            for (long i = 0; i < before && again.hasNext(); i++) {
                FileEntry candidate = again.next();
                if (candidate.filename().equals(entry.filename()) && isSample.test(candidate)) {
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

    /** The entry's file's length. */
    static long size(FileEntry entry) {
        try {
            return Files.size(entry.file());
        } catch (IOException e) {
            throw ioError(entry, e);
        }
    }

    /** An error naming the entry and its file, saying whether the file is missing or why it could not be read. */
    static IngestException ioError(FileEntry entry, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new IngestException(entry.origin() + ": file " + entry.file() + " does not exist", e);
        }
        return new IngestException(entry.origin() + ": cannot read " + entry.file() + ": " + e, e);
    }
}
