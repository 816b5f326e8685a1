package io.layoutbench.layouts.webdataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.backend.memory.MemoryBackend;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TarIndexerTest {

    private static final String SHARD = "train/shard-000000.tar";
    /** A member name of 124 bytes: more than ustar's 100-byte name field. */
    private static final String LONG_NAME = "n".repeat(120) + ".bin";
    /** A path of 347 bytes: more than ustar's 255 (prefix and name together). */
    private static final String DEEP_PATH = ("d".repeat(80) + "/").repeat(3) + "f".repeat(100) + ".dat";
    /** A path of 185 bytes that ustar stores in its prefix (120 bytes) and name (64 bytes) fields. */
    private static final String PREFIX = "p".repeat(60) + "/" + "p".repeat(59);
    private static final String PREFIXED_PATH = PREFIX + "/" + "q".repeat(60) + ".txt";

    @TempDir
    Path dir;

    private final MemoryBackend backend = new MemoryBackend();

    @AfterEach
    void close() {
        backend.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"gnu", "posix"})
    void gnuTarShardsIndexToTheirFilesAtExactOffsets(String format) throws Exception {
        assumeThat(Files.isExecutable(TarShards.GNU_TAR)).as("GNU tar at " + TarShards.GNU_TAR).isTrue();
        Path root = sourceTree(true);
        byte[] shard = TarShards.gnuTar(root, dir.resolve(format + ".tar"), format);

        TarIndex index = indexStored(shard);

        assertIndexesTree(index, shard, root);
        assertThat(index.skipped()).extracting(TarMember::type).containsOnly(TarMember.Type.DIRECTORY).isNotEmpty();
    }

    @Test
    void gnuTarUstarShardsKeepLongPathsInThePrefixField() throws Exception {
        assumeThat(Files.isExecutable(TarShards.GNU_TAR)).as("GNU tar at " + TarShards.GNU_TAR).isTrue();
        Path root = sourceTree(false);
        byte[] shard = TarShards.gnuTar(root, dir.resolve("ustar.tar"), "ustar");
        TarMember prefixed = indexStored(shard).members().stream()
                .filter(m -> m.name().equals(PREFIXED_PATH)).findFirst().orElseThrow();
        // No extension header: the member's one header block holds the path in its prefix and name fields.
        assertThat(prefixed.dataOffset() - prefixed.headerOffset()).isEqualTo(512);
        assertThat(new String(shard, (int) prefixed.headerOffset() + 345, 120, StandardCharsets.US_ASCII))
                .isEqualTo(PREFIX);

        assertIndexesTree(indexStored(shard), shard, root);
    }

    @ParameterizedTest
    @ValueSource(ints = {TarArchiveOutputStream.LONGFILE_GNU, TarArchiveOutputStream.LONGFILE_POSIX})
    void commonsCompressShardsIndexToTheirFilesAtExactOffsets(int longFileMode) throws Exception {
        Path root = sourceTree(true);
        byte[] shard = TarShards.commonsTree(root, longFileMode);

        TarIndex index = indexStored(shard);

        assertIndexesTree(index, shard, root);
        assertThat(index.skipped()).extracting(TarMember::type).containsOnly(TarMember.Type.DIRECTORY).isNotEmpty();
    }

    @Test
    void everyWriterGivesTheSameMembers() throws Exception {
        assumeThat(Files.isExecutable(TarShards.GNU_TAR)).as("GNU tar at " + TarShards.GNU_TAR).isTrue();
        Path root = sourceTree(true);
        List<byte[]> shards = List.of(TarShards.gnuTar(root, dir.resolve("gnu.tar"), "gnu"),
                TarShards.gnuTar(root, dir.resolve("posix.tar"), "posix"),
                TarShards.commonsTree(root, TarArchiveOutputStream.LONGFILE_GNU),
                TarShards.commonsTree(root, TarArchiveOutputStream.LONGFILE_POSIX));
        List<Map<String, Long>> sizes = shards.stream().map(shard -> {
            Map<String, Long> bySize = new LinkedHashMap<>();
            indexStored(shard).members().forEach(m -> bySize.put(m.name(), m.size()));
            return bySize;
        }).toList();
        assertThat(sizes).allSatisfy(members -> assertThat(members).containsExactlyEntriesOf(sizes.get(0)));
        assertThat(sizes.get(0)).containsKeys(LONG_NAME, DEEP_PATH, PREFIXED_PATH);
    }

    @Test
    void aPaxSizeOverridesTheUstarSizeField() throws IOException {
        byte[] data = new byte[1234];
        new Random(3).nextBytes(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out, "UTF-8")) {
            byte[] pax = paxRecord("size", "1234");
            TarArchiveEntry header = new TarArchiveEntry("./PaxHeaders/big.bin",
                    TarConstants.LF_PAX_EXTENDED_HEADER_LC);
            header.setSize(pax.length);
            tar.putArchiveEntry(header);
            tar.write(pax);
            tar.closeArchiveEntry();
            TarArchiveEntry entry = new TarArchiveEntry("big.bin");
            entry.setSize(data.length);
            tar.putArchiveEntry(entry);
            tar.write(data);
            tar.closeArchiveEntry();
            tar.finish();
        }
        byte[] shard = out.toByteArray();
        TarShards.patchSizeField(shard, 1024, 0);   // as a writer does past ustar's 8 GiB: the PAX size is the size

        TarMember member = indexStored(shard).members().get(0);

        assertThat(member).isEqualTo(new TarMember("big.bin", TarMember.Type.REGULAR, 0, 1536, 1234));
        assertThat(read(member)).isEqualTo(data);
    }

    @Test
    void symbolicLinksAreRefusedNamingTheMemberAndOffsetOrSkippedWhenAsked() {
        byte[] shard = shardWithLink();
        backend.put(SHARD, shard);

        assertThatThrownBy(() -> new TarIndexer(backend).index(SHARD))
                .isInstanceOf(ShardFormatException.class)
                .hasMessage("Tar shard 'train/shard-000000.tar', member '0002.jpg', offset 1024: is a symbolic link "
                        + "to '0001.jpg', not a regular file: only regular files can be samples "
                        + "(TarIndexOptions.SpecialMembers.SKIP skips such members)")
                .satisfies(e -> assertThat(((ShardFormatException) e).member()).contains("0002.jpg"));

        TarIndex index = new TarIndexer(backend, TarIndexOptions.defaults()
                .withSpecialMembers(TarIndexOptions.SpecialMembers.SKIP)).index(SHARD);
        assertThat(index.members()).extracting(TarMember::name).containsExactly("0001.jpg", "0003.jpg");
        assertThat(index.skipped()).containsExactly(
                new TarMember("0002.jpg", TarMember.Type.SYMLINK, 1024, 1536, 0));
    }

    @ParameterizedTest
    @ValueSource(bytes = {TarConstants.LF_LINK, TarConstants.LF_CHR, TarConstants.LF_BLK, TarConstants.LF_FIFO})
    void linksDevicesAndFifosAreRefusedOrSkipped(byte typeFlag) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out, "UTF-8")) {
            TarArchiveEntry file = new TarArchiveEntry("0001.jpg");
            file.setSize(3);
            tar.putArchiveEntry(file);
            tar.write(new byte[3]);
            tar.closeArchiveEntry();
            TarArchiveEntry special = new TarArchiveEntry("0002.jpg", typeFlag);
            special.setLinkName(typeFlag == TarConstants.LF_LINK ? "0001.jpg" : "");
            tar.putArchiveEntry(special);
            tar.closeArchiveEntry();
            tar.finish();
        }
        backend.put(SHARD, out.toByteArray());
        String described = switch (typeFlag) {
            case TarConstants.LF_LINK -> "hard link to '0001.jpg'";
            case TarConstants.LF_CHR -> "character device";
            case TarConstants.LF_BLK -> "block device";
            default -> "FIFO";
        };

        assertThatThrownBy(() -> new TarIndexer(backend).index(SHARD))
                .isInstanceOf(ShardFormatException.class)
                .hasMessageContaining("member '0002.jpg', offset 1024: is a " + described + ", not a regular file");
        TarIndex skipping = new TarIndexer(backend, TarIndexOptions.defaults()
                .withSpecialMembers(TarIndexOptions.SpecialMembers.SKIP)).index(SHARD);
        assertThat(skipping.members()).extracting(TarMember::name).containsExactly("0001.jpg");
        assertThat(skipping.skipped()).extracting(TarMember::name, TarMember::headerOffset)
                .containsExactly(tuple("0002.jpg", 1024L));
    }

    @Test
    void gnuTarSymlinksAreRefused() throws Exception {
        assumeThat(Files.isExecutable(TarShards.GNU_TAR)).as("GNU tar at " + TarShards.GNU_TAR).isTrue();
        Path root = Files.createDirectory(dir.resolve("linked"));
        Files.write(root.resolve("a.jpg"), new byte[700]);
        Files.createSymbolicLink(root.resolve("b.jpg"), Path.of("a.jpg"));
        backend.put(SHARD, TarShards.gnuTar(root, dir.resolve("linked.tar"), "gnu"));

        assertThatThrownBy(() -> new TarIndexer(backend).index(SHARD))
                .isInstanceOf(ShardFormatException.class)
                .hasMessageContaining("member 'b.jpg', offset 1536: is a symbolic link to 'a.jpg'");
    }

    @Test
    void aTruncatedShardFailsNamingTheShardAndWhereItEnds() {
        Map<String, byte[]> members = new LinkedHashMap<>();
        members.put("0001.jpg", new byte[1000]);
        members.put("0002.jpg", new byte[3000]);
        members.put(LONG_NAME, new byte[10]);
        byte[] shard = TarShards.commons(members, TarArchiveOutputStream.LONGFILE_POSIX);
        // 0001.jpg: header 0, data [512, 1512); 0002.jpg: header 1536, data [2048, 5048);
        // LONG_NAME: PAX header 5120, PAX data 5632, header 6144, data [6656, 6666); end of archive at 7168.

        assertTruncated(shard, 3000, 3000, "the member whose header is at offset 1536 runs past the end");
        assertTruncated(shard, 1800, 1800, "truncated");
        assertTruncated(shard, 5700, 5700, "truncated");
        assertTruncated(shard, 7168, 7168, "ends after the data of its last member, with no end-of-archive "
                + "blocks at offset 7168");
        assertTruncated(shard, 7300, 7300, "ends 132 bytes into the header block at offset 7168");

        // One zero block of the two is a complete archive, as GNU tar takes it.
        backend.put(SHARD, Arrays.copyOf(shard, 7168 + 512));
        assertThat(new TarIndexer(backend).index(SHARD).members()).hasSize(3);
    }

    @Test
    void aCorruptHeaderFailsNamingTheMemberAndOffset() {
        Map<String, byte[]> members = new LinkedHashMap<>();
        members.put("0001.jpg", new byte[100]);
        members.put("0002.jpg", new byte[10]);
        byte[] shard = TarShards.commons(members, TarArchiveOutputStream.LONGFILE_POSIX);
        shard[1024 + 136] ^= 1;   // the second header's mtime, with its checksum left as it was
        backend.put(SHARD, shard);

        assertThatThrownBy(() -> new TarIndexer(backend).index(SHARD))
                .isInstanceOf(ShardFormatException.class)
                .hasMessage("Tar shard 'train/shard-000000.tar', member '0002.jpg', offset 1024: the header's "
                        + "checksum does not match its bytes: the header is corrupt");
    }

    @Test
    void aMissingShardFailsAsTheBackendSays() {
        assertThatThrownBy(() -> new TarIndexer(backend).index("missing.tar"))
                .isInstanceOf(ObjectNotFoundException.class);
    }

    @Test
    void largeMembersAreSeekedPastAndCostAFewKilobytesEach() throws IOException {
        int count = 100;
        int memberSize = 1_000_000;
        Path file = dir.resolve("large.tar");
        try (OutputStream out = Files.newOutputStream(file);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(out, "UTF-8")) {
            byte[] data = new byte[memberSize];
            for (int i = 0; i < count; i++) {
                Arrays.fill(data, (byte) (i + 1));
                TarArchiveEntry entry = new TarArchiveEntry(String.format("%04d.bin", i));
                entry.setSize(memberSize);
                tar.putArchiveEntry(entry);
                tar.write(data);
                tar.closeArchiveEntry();
            }
            tar.finish();
        }
        backend.put(SHARD, file);
        long shardSize = Files.size(file);
        QueryMetrics metrics = new QueryMetrics();

        TarIndex index = new TarIndexer(backend.withMetrics(metrics)).index(SHARD, shardSize);

        assertThat(index.members()).hasSize(count);
        long stride = 512 + 1_000_448;   // a header, then the data padded to whole blocks
        for (int i = 0; i < count; i++) {
            assertThat(index.members().get(i)).isEqualTo(new TarMember(String.format("%04d.bin", i),
                    TarMember.Type.REGULAR, i * stride, i * stride + 512, memberSize));
        }
        assertThat(backend.readRange(SHARD, index.members().get(57).data()).get(999_999)).isEqualTo((byte) 58);
        double fraction = (double) index.bytesRead() / shardSize;
        System.out.printf("100 x 1 MB members: %d requests, %d of %d bytes read (%.3f%%)%n", index.reads().size(),
                index.bytesRead(), shardSize, 100 * fraction);
        assertThat(fraction).isLessThan(0.005);
        assertThat(index.reads()).hasSize(count + 1).extracting(PlannedRequest::kind)
                .containsOnly(RequestKind.RANGE_GET);
        MetricsSnapshot counted = metrics.snapshot();
        assertThat(counted.totalRequests()).isEqualTo(index.reads().size());
        assertThat(counted.bytesReceived()).isEqualTo(index.bytesRead());
    }

    @Test
    void smallMembersAreReadThroughInFewRequests() {
        Map<String, byte[]> members = new LinkedHashMap<>();
        for (int i = 0; i < 1000; i++) {
            members.put(String.format("%04d.jpg", i), new byte[10_000]);
        }
        byte[] shard = TarShards.commons(members, TarArchiveOutputStream.LONGFILE_POSIX);
        backend.put(SHARD, shard);

        TarIndex index = new TarIndexer(backend).index(SHARD);

        assertThat(index.members()).hasSize(1000);
        System.out.printf("1000 x 10 KB members: %d requests (a HEAD included), %d of %d bytes read%n",
                index.reads().size(), index.bytesRead(), shard.length);
        assertThat(index.reads().get(0).kind()).isEqualTo(RequestKind.HEAD);
        // Reads double from 4 KiB to 1 MiB (9 reads), then 1 MiB each: about 10.5 MB in 18.
        assertThat(index.reads()).hasSizeLessThanOrEqualTo(20);
        assertThat(index.reads().stream().mapToLong(PlannedRequest::bytes).max().orElseThrow())
                .isEqualTo(TarIndexOptions.DEFAULT_MAX_READ_BYTES);
    }

    @Test
    void theWindowOptionBoundsEveryRead() {
        Map<String, byte[]> members = new LinkedHashMap<>();
        for (int i = 0; i < 200; i++) {
            members.put(String.format("%04d.txt", i), new byte[1000 + i]);
        }
        backend.put(SHARD, TarShards.commons(members, TarArchiveOutputStream.LONGFILE_POSIX));
        TarIndexOptions options = TarIndexOptions.defaults().withHeaderReadBytes(1024).withMaxReadBytes(16 << 10);

        TarIndex index = new TarIndexer(backend, options).index(SHARD, backend.size(SHARD));

        assertThat(index.members()).hasSize(200);
        assertThat(index.reads()).allSatisfy(read -> assertThat(read.bytes()).isLessThanOrEqualTo(16 << 10));
        // Read through: about every byte once (not the end of a member that a window ends in).
        assertThat(index.bytesRead()).isLessThanOrEqualTo(backend.size(SHARD))
                .isGreaterThan(backend.size(SHARD) * 9 / 10);
    }

    @Test
    void anEmptyArchiveHasNoMembers() {
        backend.put(SHARD, TarShards.commons(Map.of(), TarArchiveOutputStream.LONGFILE_POSIX));
        TarIndex index = new TarIndexer(backend).index(SHARD);
        assertThat(index.members()).isEmpty();
        assertThat(index.skipped()).isEmpty();
    }

    private void assertTruncated(byte[] shard, int length, long offset, String problem) {
        backend.put(SHARD, Arrays.copyOf(shard, length));
        assertThatThrownBy(() -> new TarIndexer(backend).index(SHARD))
                .as("shard cut at %d", length)
                .isInstanceOf(ShardFormatException.class)
                .hasMessageStartingWith("Tar shard 'train/shard-000000.tar', offset " + offset + ": truncated")
                .hasMessageContaining(problem)
                .satisfies(e -> assertThat(((ShardFormatException) e).offset()).isEqualTo(offset));
    }

    private void assertIndexesTree(TarIndex index, byte[] shard, Path root) throws IOException {
        Map<String, byte[]> files = TarShards.regularFiles(root);
        Map<String, Long> streamed = TarShards.streamedDataOffsets(shard);
        assertThat(index.members()).extracting(TarMember::name).containsExactlyInAnyOrderElementsOf(files.keySet());
        for (TarMember member : index.members()) {
            assertThat(member.dataOffset()).as(member.name()).isEqualTo(streamed.get(member.name()));
            assertThat(read(member)).as(member.name()).isEqualTo(files.get(member.name()));
        }
        assertThat(index.shardSize()).isEqualTo(shard.length);
        assertThat(index.bytesRead()).isLessThanOrEqualTo(shard.length);
    }

    private TarIndex indexStored(byte[] shard) {
        backend.put(SHARD, shard);
        return new TarIndexer(backend).index(SHARD);
    }

    private byte[] read(TarMember member) {
        ByteBuffer bytes = backend.readRange(SHARD, member.data());
        byte[] array = new byte[bytes.remaining()];
        bytes.get(array);
        return array;
    }

    /** Files of sizes around the block size, an empty one, a long name, a deep path and a prefixable path. */
    private Path sourceTree(boolean longNames) throws IOException {
        Path root = Files.createDirectory(dir.resolve(longNames ? "tree" : "short-tree"));
        Random random = new Random(42);
        int[] sizes = {0, 1, 511, 512, 513, 70_000};
        for (int i = 0; i < sizes.length; i++) {
            write(root.resolve(String.format("%04d.jpg", i)), sizes[i], random);
        }
        Files.createDirectories(root.resolve("sub/dir"));
        write(root.resolve("sub/dir/0001.seg.png"), 2000, random);
        write(root.resolve(PREFIXED_PATH), 300, random);
        if (longNames) {
            write(root.resolve(LONG_NAME), 900, random);
            write(root.resolve(DEEP_PATH), 1500, random);
        }
        return root;
    }

    private static void write(Path file, int size, Random random) throws IOException {
        Files.createDirectories(file.getParent());
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        Files.write(file, bytes);
    }

    private static byte[] shardWithLink() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out, "UTF-8")) {
            for (String name : List.of("0001.jpg", "0002.jpg", "0003.jpg")) {
                TarArchiveEntry entry = name.equals("0002.jpg")
                        ? new TarArchiveEntry(name, TarConstants.LF_SYMLINK) : new TarArchiveEntry(name);
                if (name.equals("0002.jpg")) {
                    entry.setLinkName("0001.jpg");
                } else {
                    entry.setSize(100);
                }
                tar.putArchiveEntry(entry);
                if (!name.equals("0002.jpg")) {
                    tar.write(new byte[100]);
                }
                tar.closeArchiveEntry();
            }
            tar.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** One PAX record, {@code "<length> <key>=<value>\n"}, whose length counts its own digits. */
    private static byte[] paxRecord(String key, String value) {
        String body = " " + key + "=" + value + "\n";
        int length = body.length() + 1;
        while (length != body.length() + String.valueOf(length).length()) {
            length = body.length() + String.valueOf(length).length();
        }
        return (length + body).getBytes(StandardCharsets.UTF_8);
    }
}
