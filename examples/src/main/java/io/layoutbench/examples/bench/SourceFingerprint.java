package io.layoutbench.examples.bench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a dataset was ingested from, kept in its ingest record so that a stored dataset is reused only for the same
 * source with the same contents. For a folder or a manifest: the files it lists, their count and total size, and
 * SHA-256 digests of their paths alone and of their paths with sizes, modification and status-change times and
 * file identities (device and inode where the file system has them; and of the manifest itself, which also gives
 * labels and dimensions); for the synthetic dataset: its scale, seed and order, which its description holds. No
 * file is read but the manifest: a file replaced by a copy that keeps its size and modification time is seen by its
 * status-change time and identity.
 *
 * <pre>{@code
 * SourceFingerprint now = SourceFingerprint.ofFiles("image folder /data/pets", null, folder.files());
 * now.changeSince(recorded).ifPresent(why -> System.out.println("re-ingesting: " + why));
 * }</pre>
 *
 * @param source   the source's description ({@code image folder /data/pets}, {@code synthetic ImageNet mini, seed 42})
 * @param files    files listed (the synthetic dataset: its samples)
 * @param bytes    their total size in bytes (the synthetic dataset: -1, not computed)
 * @param manifest SHA-256 of the manifest file, hex; empty for other sources
 * @param names    SHA-256 of the listed paths in order, hex; empty for the synthetic dataset
 * @param contents SHA-256 of the listed paths with their sizes, modification and status-change times and identities,
 *                 hex; empty for the synthetic dataset
 */
public record SourceFingerprint(String source, long files, long bytes, String manifest, String names,
        String contents) {

    public SourceFingerprint {
        requireNonNull(source, "source is null");
        requireNonNull(manifest, "manifest is null");
        requireNonNull(names, "names is null");
        requireNonNull(contents, "contents is null");
    }

    /** The synthetic dataset described by {@code description}, which names its scale, seed and order. */
    public static SourceFingerprint synthetic(String description, long samples) {
        return new SourceFingerprint(description, samples, -1, "", "", "");
    }

    /**
     * The files a folder or manifest lists; {@code manifest} is the manifest file, or null for a folder. Closes
     * {@code files}. A listed file that is missing counts with size and time -1 (the ingest then names it).
     *
     * @throws UncheckedIOException if the manifest cannot be read
     */
    public static SourceFingerprint ofFiles(String source, Path manifest, Stream<Path> files) {
        MessageDigest names = sha256();
        MessageDigest contents = sha256();
        long count = 0;
        long bytes = 0;
        try (files) {
            Iterator<Path> listed = files.iterator();
            while (listed.hasNext()) {
                Path file = listed.next();
                long size = -1;
                long modified = -1;
                long changed = -1;
                Object identity = null;
                try {
                    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                    size = attributes.size();
                    modified = attributes.lastModifiedTime().to(TimeUnit.MICROSECONDS);
                    changed = statusChangeMicros(file);
                    identity = attributes.fileKey();
                    bytes += size;
                } catch (NoSuchFileException missing) {
                    // counted as missing
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot read the attributes of " + file, e);
                }
                byte[] path = (file + "\n").getBytes(StandardCharsets.UTF_8);
                names.update(path);
                contents.update(path);
                contents.update((size + " " + modified + " " + changed + " " + identity + "\n")
                        .getBytes(StandardCharsets.UTF_8));
                count++;
            }
        }
        return new SourceFingerprint(source, count, bytes, manifest == null ? "" : digestOf(manifest),
                hex(names), hex(contents));
    }

    /**
     * The time of the file's last status change (Linux's ctime) in microseconds, or -1 where the file system does not
     * say. Unlike the modification time, no copy ({@code cp -p}, {@code rsync -t}, tar) can set it back.
     */
    private static long statusChangeMicros(Path file) throws IOException {
        try {
            return ((FileTime) Files.getAttribute(file, "unix:ctime")).to(TimeUnit.MICROSECONDS);
        } catch (UnsupportedOperationException | IllegalArgumentException notUnix) {
            return -1;
        }
    }

    /**
     * Why this source differs from {@code earlier}, the one a stored dataset was ingested from, in a phrase
     * ({@code 3 more files in image folder /data/pets than at the last ingest (120 then, 123 now)}); empty if it is
     * the same.
     */
    public Optional<String> changeSince(SourceFingerprint earlier) {
        requireNonNull(earlier, "earlier is null");
        if (!source.equals(earlier.source)) {
            return Optional.of("it was ingested from " + earlier.source + ", not " + source);
        }
        if (!manifest.equals(earlier.manifest)) {
            return Optional.of(source + " changed since the last ingest");
        }
        String where = (manifest.isEmpty() ? "in " : "listed by ") + source;
        if (files != earlier.files) {
            long difference = Math.abs(files - earlier.files);
            return Optional.of(String.format(Locale.ROOT, "%,d %s file%s %s than at the last ingest (%,d then, %,d "
                    + "now)", difference, files > earlier.files ? "more" : "fewer", difference == 1 ? "" : "s", where,
                    earlier.files, files));
        }
        if (!names.equals(earlier.names)) {
            return Optional.of(String.format(Locale.ROOT, "files %s were renamed, added or removed since the last "
                    + "ingest (%,d files then and now)", where, files));
        }
        if (!contents.equals(earlier.contents) || bytes != earlier.bytes) {
            return Optional.of(String.format(Locale.ROOT, "files %s changed since the last ingest (sizes or "
                    + "modification times; %,d bytes then, %,d now)", where, earlier.bytes, bytes));
        }
        return Optional.empty();
    }

    private static String digestOf(Path file) {
        MessageDigest digest = sha256();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        return hex(digest);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }

    private static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }
}
