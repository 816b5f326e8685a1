package io.layoutbench.layouts.webdataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.layouts.l2.InPlaceIndex;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shards written by GNU tar and by Commons Compress, indexed in place as an l2 dataset: every field of every sample
 * reads back identical to the file it came from, JSON members become columns a predicate filters on, a query of some
 * fields reads only their bytes, and bad input is named.
 */
class InPlaceIndexTest {

    @TempDir
    Path dir;

    private final MemoryBackend backend = new MemoryBackend();

    /** Forty WebDataset samples: a jpg, a json, and (three in four) a cls each; the files by path. */
    private Map<String, byte[]> writeSamples(Path root, int from, int to) throws IOException {
        Random random = new Random(from);
        Map<String, byte[]> files = new TreeMap<>();
        for (int i = from; i < to; i++) {
            String key = String.format("part/%04d", i);
            byte[] jpg = new byte[1000 + random.nextInt(20_000)];
            random.nextBytes(jpg);
            files.put(key + ".jpg", jpg);
            files.put(key + ".json", ("{\"label\": \"" + (i % 3 == 0 ? "cat" : "dog") + "\", \"width\": " + (100 + i)
                    + ", \"score\": " + (i / 4.0) + ", \"ok\": " + (i % 2 == 0) + "}")
                    .getBytes(StandardCharsets.UTF_8));
            if (i % 4 != 3) {
                files.put(key + ".cls", Integer.toString(i % 3).getBytes(StandardCharsets.UTF_8));
            }
        }
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path path = root.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.write(path, file.getValue());
        }
        return files;
    }

    @Test
    void shardsOfGnuTarAndCommonsCompressIndexInPlaceAndReadBackIdentical() throws Exception {
        assumeTrue(Files.isExecutable(TarShards.GNU_TAR), "GNU tar is not installed");
        Map<String, byte[]> files = new TreeMap<>(writeSamples(dir.resolve("a"), 0, 20));
        files.putAll(writeSamples(dir.resolve("b"), 20, 40));
        backend.put("wds/shard-000000.tar", TarShards.gnuTar(dir.resolve("a"), dir.resolve("a.tar"), "posix"));
        backend.put("wds/shard-000001.tar", TarShards.commonsTree(dir.resolve("b"),
                TarArchiveOutputStream.LONGFILE_POSIX));
        long shardBytes = backend.size("wds/shard-000000.tar") + backend.size("wds/shard-000001.tar");

        DatasetSummary summary = InPlaceIndex.index(backend, "idx", List.of("wds/shard-000000.tar",
                "wds/shard-000001.tar"), InPlaceIndex.Options.defaults().withJsonField("json"));
        assertThat(summary.sampleCount()).isEqualTo(40);
        assertThat(backend.size("wds/shard-000000.tar") + backend.size("wds/shard-000001.tar"))
                .as("the shards are not rewritten").isEqualTo(shardBytes);

        try (Dataset dataset = StorageLayouts.get("l2").open(backend, "idx")) {
            MetadataSchema schema = dataset.schema();
            assertThat(schema.payloadFields()).as("in the order first seen: tar sorts the members by name")
                    .containsExactly("cls", "jpg", "json");
            assertThat(schema.describeColumns()).isEqualTo("filename, label, width, score, ok");
            for (RetrievalMode mode : RetrievalMode.values()) {
                Map<String, String> got = read(dataset, "TRUE", QueryOptions.defaults().withMode(mode));
                assertThat(got).as("every field of every sample, %s", mode).isEqualTo(encode(files));
            }
            Map<String, String> cats = read(dataset, "label = 'cat' AND width >= 110", QueryOptions.defaults());
            Map<String, byte[]> expected = new TreeMap<>();
            files.forEach((path, bytes) -> {
                int i = Integer.parseInt(path.substring(5, 9));
                if (i % 3 == 0 && 100 + i >= 110) {
                    expected.put(path, bytes);
                }
            });
            assertThat(cats).isEqualTo(encode(expected));

            QueryOptions classes = QueryOptions.defaults().withMode(RetrievalMode.PAPER).withFields(List.of("cls"));
            try (SampleStream stream = dataset.query(Query.parse("TRUE"), classes)) {
                long clsBytes = 0;
                while (stream.hasNext()) {
                    Sample sample = stream.next();
                    assertThat(sample.fields().keySet()).isSubsetOf(List.of("cls"));
                    clsBytes += sample.size();
                }
                assertThat(stream.stats().transfer().bytesReceived()).as("only the cls members are read")
                        .isEqualTo(clsBytes);
            }
        }
    }

    @Test
    void aKeyInTwoShardsAndAShardUnderThePrefixAreRefused() {
        Map<String, byte[]> one = new LinkedHashMap<>();
        one.put("0001.jpg", new byte[10]);
        backend.put("wds/a.tar", TarShards.commons(one, TarArchiveOutputStream.LONGFILE_POSIX));
        backend.put("wds/b.tar", TarShards.commons(one, TarArchiveOutputStream.LONGFILE_POSIX));
        assertThatThrownBy(() -> InPlaceIndex.index(backend, "idx", List.of("wds/a.tar", "wds/b.tar"),
                InPlaceIndex.Options.defaults())).hasMessageContaining("'0001'")
                .hasMessageContaining("wds/a.tar").hasMessageContaining("wds/b.tar");
        assertThatThrownBy(() -> InPlaceIndex.index(backend, "wds", List.of("wds/a.tar"),
                InPlaceIndex.Options.defaults())).hasMessageContaining("lies under the dataset's prefix");
        assertThat(backend.size("wds/a.tar")).as("a refused index leaves the shard").isPositive();
    }

    /** Each field of each sample the query returns, by member path ({@code <key>.<field>}), as Base64. */
    private static Map<String, String> read(Dataset dataset, String where, QueryOptions options) {
        Map<String, String> got = new TreeMap<>();
        try (SampleStream stream = dataset.query(Query.parse(where), options)) {
            stream.forEachRemaining(sample -> sample.fields().forEach((field, blob) -> got.put(
                    sample.metadata().get(MetadataSchema.FILENAME) + "." + field,
                    Base64.getEncoder().encodeToString(blob.toByteArray()))));
        }
        return got;
    }

    private static Map<String, String> encode(Map<String, byte[]> files) {
        Map<String, String> encoded = new TreeMap<>();
        files.forEach((path, bytes) -> encoded.put(path, Base64.getEncoder().encodeToString(bytes)));
        return encoded;
    }

}
