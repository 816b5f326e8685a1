package io.layoutbench.layouts.l2;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.Blob;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TarShardWriterTest {

    @TempDir
    Path dir;

    @Test
    void recordedOffsetsPointAtEachMembersBytes() throws IOException {
        Path shard = dir.resolve("shard-000000.tar");
        Map<String, byte[]> members = members();
        Map<String, Long> offsets = new LinkedHashMap<>();
        try (TarShardWriter writer = new TarShardWriter(shard)) {
            members.forEach((name, bytes) -> offsets.put(name, writer.add(name, Blob.of(bytes))));
            writer.finish();
        }

        try (FileChannel channel = FileChannel.open(shard)) {
            for (var member : members.entrySet()) {
                ByteBuffer read = ByteBuffer.allocate(member.getValue().length);
                channel.read(read, offsets.get(member.getKey()));
                assertThat(read.array()).as(member.getKey()).isEqualTo(member.getValue());
            }
        }
        try (TarFile tar = new TarFile(shard)) {
            List<String> names = new ArrayList<>();
            for (TarArchiveEntry entry : tar.getEntries()) {
                names.add(entry.getName());
                assertThat(entry.getDataOffset()).as(entry.getName()).isEqualTo(offsets.get(entry.getName()));
            }
            assertThat(names).containsExactlyElementsOf(members.keySet());
        }
        assertThat(Files.size(shard) % TarPacking.RECORD).isZero();
    }

    @Test
    void gnuTarListsAndExtractsTheShard() throws Exception {
        Path shard = dir.resolve("shard.tar");
        Map<String, byte[]> members = members();
        try (TarShardWriter writer = new TarShardWriter(shard)) {
            members.forEach((name, bytes) -> writer.add(name, Blob.of(bytes)));
            writer.finish();
        }
        Path out = Files.createDirectory(dir.resolve("out"));
        Process tar = new ProcessBuilder("tar", "-xf", shard.toString(), "-C", out.toString())
                .redirectErrorStream(true).start();
        assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(tar.exitValue()).as(output).isZero();
        for (var member : members.entrySet()) {
            assertThat(Files.readAllBytes(out.resolve(member.getKey()))).isEqualTo(member.getValue());
        }
    }

    @Test
    void thePackingPlacesEveryMemberWhereTheTarStreamPutsIt() throws IOException {
        // Names of 1 to 300 bytes, ASCII and not (PAX headers from 100 bytes on), sizes around the record size,
        // into small shards so that many shard boundaries are crossed.
        Random random = new Random(11);
        long shardSize = 16 << 10;
        TarPacking packing = new TarPacking(shardSize);
        List<Path> shards = new ArrayList<>();
        List<Long> written = new ArrayList<>();
        TarShardWriter writer = null;
        for (int i = 0; i < 400; i++) {
            int length = 1 + random.nextInt(300);
            StringBuilder name = new StringBuilder();
            while (name.toString().getBytes(StandardCharsets.UTF_8).length < length) {
                name.append(random.nextInt(10) == 0 ? "\u00e9" : "n");
            }
            int size = new int[] {0, 1, 511, 512, 513, 1000, 7000, random.nextInt(20_000)}[random.nextInt(8)];
            long before = packing.written();
            long placed = packing.place(name.toString(), size);
            if (packing.shard() == shards.size()) {
                if (writer != null) {
                    writer.finish();
                    written.add(before);
                }
                shards.add(dir.resolve("packed-" + shards.size() + ".tar"));
                writer = new TarShardWriter(shards.get(shards.size() - 1));
            }
            assertThat(writer.add(name.toString(), Blob.of(new byte[size]))).as("member %d", i)
                    .isEqualTo(placed);
        }
        writer.finish();
        assertThat(shards.size()).isGreaterThan(20);
        for (int s = 0; s + 1 < shards.size(); s++) {
            assertThat(Files.size(shards.get(s))).as("shard %d", s).isEqualTo(TarPacking.shardBytes(written.get(s)));
        }
        assertThat(Files.size(shards.get(shards.size() - 1))).isEqualTo(TarPacking.shardBytes(packing.written()));
    }

    private static Map<String, byte[]> members() {
        Random random = new Random(7);
        Map<String, byte[]> members = new LinkedHashMap<>();
        int[] sizes = {0, 1, 511, 512, 513, 100_000, 3};
        for (int i = 0; i < sizes.length; i++) {
            byte[] bytes = new byte[sizes[i]];
            random.nextBytes(bytes);
            members.put("n0144076" + i + "_1002" + i + ".jpeg", bytes);
        }
        String longName = "x".repeat(150) + ".jpeg";
        members.put(longName, "long name member".getBytes(StandardCharsets.UTF_8));
        return members;
    }
}
