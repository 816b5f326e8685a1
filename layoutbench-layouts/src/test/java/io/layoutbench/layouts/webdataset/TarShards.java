package io.layoutbench.layouts.webdataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/** Tar shards for the tests: written by GNU tar or Commons Compress, and read back by a second, streaming reader. */
final class TarShards {

    static final Path GNU_TAR = Path.of("/usr/bin/tar");
    private static final FileTime MTIME = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));

    private TarShards() {
    }

    /** Members in memory, in order, written by Commons Compress with the given long-name mode. */
    static byte[] commons(Map<String, byte[]> members, int longFileMode) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = stream(out, longFileMode)) {
            for (Map.Entry<String, byte[]> member : members.entrySet()) {
                TarArchiveEntry entry = new TarArchiveEntry(member.getKey());
                entry.setSize(member.getValue().length);
                entry.setModTime(MTIME);   // whole seconds: with BIGNUMBER_POSIX, finer ones take a PAX header
                tar.putArchiveEntry(entry);
                tar.write(member.getValue());
                tar.closeArchiveEntry();
            }
            tar.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The tree under {@code root} (directories and regular files, by name), written by Commons Compress. */
    static byte[] commonsTree(Path root, int longFileMode) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = stream(out, longFileMode); Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.filter(p -> !p.equals(root)).sorted().toList()) {
                TarArchiveEntry entry = new TarArchiveEntry(path, root.relativize(path).toString(),
                        LinkOption.NOFOLLOW_LINKS);
                tar.putArchiveEntry(entry);
                if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                    Files.copy(path, tar);
                }
                tar.closeArchiveEntry();
            }
            tar.finish();
        }
        return out.toByteArray();
    }

    private static TarArchiveOutputStream stream(OutputStream out, int longFileMode) {
        TarArchiveOutputStream tar = new TarArchiveOutputStream(out, "UTF-8");
        tar.setLongFileMode(longFileMode);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        return tar;
    }

    /** The tree under {@code root} as GNU tar archives it in {@code format} (gnu, posix, ustar), names sorted. */
    static byte[] gnuTar(Path root, Path archive, String format) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(GNU_TAR.toString(), "--format=" + format, "--sort=name",
                "-cf", archive.toString(), "-C", root.toString()));
        try (Stream<Path> children = Files.list(root)) {
            children.map(p -> p.getFileName().toString()).sorted().forEach(command::add);
        }
        Process tar = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).as(output).isZero();
        return Files.readAllBytes(archive);
    }

    /** The regular files under {@code root}: path relative to it ('/'-separated) to bytes. */
    static Map<String, byte[]> regularFiles(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList()) {
                files.put(root.relativize(path).toString().replace('\\', '/'), Files.readAllBytes(path));
            }
        }
        return files;
    }

    /**
     * Data offset of every member (links and directories included), as Commons Compress's streaming reader finds it:
     * the bytes it consumed when it hands out the entry.
     */
    static Map<String, Long> streamedDataOffsets(byte[] shard) throws IOException {
        Map<String, Long> offsets = new LinkedHashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new ByteArrayInputStream(shard), "UTF-8")) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                offsets.put(entry.getName(), tar.getBytesRead());
            }
        }
        return offsets;
    }

    /** Sets the octal size field of the ustar header at {@code headerOffset} and fixes the header's checksum. */
    static void patchSizeField(byte[] shard, int headerOffset, long size) {
        byte[] field = String.format("%011o\0", size).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(field, 0, shard, headerOffset + 124, 12);
        fixChecksum(shard, headerOffset);
    }

    /** Recomputes the checksum of the header at {@code headerOffset}: the byte sum with the field as spaces. */
    static void fixChecksum(byte[] shard, int headerOffset) {
        for (int i = 148; i < 156; i++) {
            shard[headerOffset + i] = ' ';
        }
        long sum = 0;
        for (int i = 0; i < 512; i++) {
            sum += shard[headerOffset + i] & 0xFF;
        }
        byte[] field = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(field, 0, shard, headerOffset + 148, 8);
    }
}
