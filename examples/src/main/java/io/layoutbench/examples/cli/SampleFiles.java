package io.layoutbench.examples.cli;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNameSet;
import io.layoutbench.api.dataset.SampleNames;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Writes samples into a directory as {@code DIR/<name>} ({@code query --out}): never outside it, never through a
 * symbolic link inside it, never one sample over another.
 *
 * <p>A sample's name is written as it is when it is a valid {@link SampleNames sample name}, as every dataset
 * ingested since names are checked has; a name that is not (an absolute or {@code ../} name an older ingest
 * stored) is written under {@link SampleNames#fromPath}'s safe form, and counted. Directories the names need are
 * created one segment at a time, refusing any segment that is a link; the file is opened without following a
 * link, as a new file moved over the name (a hard link already there is replaced, not written through). Two
 * samples that would be written to one file (a dataset ingested before repeated names were refused, or two names a
 * case-folding file system does not tell apart) fail on the second, so the count of files written is always the
 * number of files there. Not thread-safe.
 */
final class SampleFiles {

    private final Path root;
    private final SampleNameSet names = new SampleNameSet();
    /** The files written, by file key (device and inode), where the file system has them. */
    private final Set<Object> files = new HashSet<>();
    private long written;
    private long renamed;

    /** Creates {@code dir} if needed; a link there is the user's own choice and is followed. */
    SampleFiles(Path dir) {
        try {
            Files.createDirectories(dir);
            this.root = dir.toRealPath();
        } catch (IOException e) {
            throw new LayoutBenchException("Cannot create the output directory " + dir + ": " + e, e);
        }
    }

    /** The output directory, links resolved. */
    Path root() {
        return root;
    }

    /** Samples written so far: the position of a sample without a filename. */
    private long samples;

    /** Files written. */
    long written() {
        return written;
    }

    /** Files written under a safe form of their sample's name rather than the name itself. */
    long renamed() {
        return renamed;
    }

    /**
     * Writes each payload field of {@code sample} to a file and returns the last: named as the sample (its
     * {@code filename}, else its position in the result) for the one field {@code data}, else {@code <name>.<field>}
     * as WebDataset names them. Fields are streamed, so a field larger than memory writes too.
     *
     * @throws LayoutBenchException if its name leaves no safe file name, a directory on the way is a link or a file,
     *                              the file is a link, an earlier sample was written to it, or the write fails
     */
    Path write(Sample sample) {
        boolean named = sample.metadata().schema().find(MetadataSchema.FILENAME)
                .filter(c -> c.type() == ColumnType.STRING).isPresent()
                && sample.metadata().get(MetadataSchema.FILENAME) != null;
        String base = named ? sample.filename() : String.format(Locale.ROOT, "%012d", samples);
        samples++;
        Path last = null;
        for (Map.Entry<String, Blob> field : sample.fields().entrySet()) {
            boolean single = sample.fields().size() == 1 && field.getKey().equals(Sample.DATA);
            last = write(single ? base : base + "." + field.getKey(), field.getValue());
        }
        return last;
    }

    private Path write(String name, Blob data) {
        String safe = safeName(name);
        String[] segments = safe.split("/");
        Path file = root;
        for (int i = 0; i < segments.length - 1; i++) {
            file = directory(file.resolve(segments[i]), name);
        }
        file = file.resolve(segments[segments.length - 1]);
        if (!names.add(safe) && Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new LayoutBenchException("Cannot write sample '" + name + "' to " + file + ": an earlier sample of "
                    + "this query was written there (the dataset holds two samples of one name, written before "
                    + "repeated names were refused); ingest the dataset again");
        }
        if (Files.isSymbolicLink(file)) {
            throw new LayoutBenchException("Cannot write sample '" + name + "' to " + file + ": it is a symbolic "
                    + "link, and --out writes through none");
        }
        refuseAnEarlierSamplesFile(file, name);
        // A new file, moved over the name: a file already there that is a hard link to one elsewhere is replaced
        // in this directory, not written through. The temporary name is short whatever the sample's (a file name
        // of 255 bytes is valid).
        Path temp = file.resolveSibling(".layoutbench-" + Long.toHexString(System.nanoTime()) + ".tmp");
        try {
            try (OutputStream stream = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                if (data.inMemory()) {
                    WritableByteChannel channel = Channels.newChannel(stream);
                    ByteBuffer bytes = data.readAll();
                    while (bytes.hasRemaining()) {
                        channel.write(bytes);
                    }
                } else {
                    try (InputStream in = data.openStream()) {
                        in.transferTo(stream);
                    }
                }
            }
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Object key = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            if (key != null) {
                files.add(key);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // the write's failure is what to report
            }
            throw new LayoutBenchException("Cannot write sample '" + name + "' to " + file + ": " + e, e);
        }
        written++;
        if (!safe.equals(name)) {
            renamed++;
        }
        return file;
    }

    /**
     * Fails if {@code file} is a file this query wrote under another name: on a file system that folds case or
     * normalizes Unicode, {@code A.png} and {@code a.png} are one file.
     */
    private void refuseAnEarlierSamplesFile(Path file, String name) {
        try {
            Object key = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            if (key != null && files.contains(key)) {
                throw new LayoutBenchException("Cannot write sample '" + name + "' to " + file + ": an earlier "
                        + "sample of this query was written to that file under another name (the file system "
                        + "does not tell the two names apart)");
            }
        } catch (NoSuchFileException e) {
            // nothing there yet
        } catch (IOException e) {
            throw new LayoutBenchException("Cannot write sample '" + name + "' to " + file + ": " + e, e);
        }
    }

    private static String safeName(String name) {
        if (SampleNames.isValid(name)) {
            return name;
        }
        try {
            return SampleNames.fromPath(name);
        } catch (IllegalArgumentException e) {
            throw new LayoutBenchException("Cannot write sample '" + name + "': " + e.getMessage(), e);
        }
    }

    /** {@code dir}, created if missing; refused if it is a link or not a directory. */
    private static Path directory(Path dir, String name) {
        if (Files.isSymbolicLink(dir)) {
            throw new LayoutBenchException("Cannot write sample '" + name + "': " + dir + " is a symbolic link, and "
                    + "--out writes through none");
        }
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return dir;
        }
        try {
            return Files.createDirectory(dir);
        } catch (FileAlreadyExistsException e) {
            throw new LayoutBenchException("Cannot write sample '" + name + "': " + dir + " is a file, not a "
                    + "directory", e);
        } catch (IOException e) {
            throw new LayoutBenchException("Cannot write sample '" + name + "': cannot create " + dir + ": " + e, e);
        }
    }
}
