package io.layoutbench.layouts.webdataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.backend.memory.MemoryBackend;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;

class SampleGroupingTest {

    private static final String SHARD = "shard-000007.tar";

    @Test
    void membersWithOneKeyInARowAreOneSampleWithAFieldEach() {
        TarIndex index = index("a/b/0001.seg.png", "a/b/0001.jpg", "a/b/0002.JPG", "a/b/0002.json", "c.d/0003.txt");

        List<ShardSample> samples = SampleGrouping.WEBDATASET.samples(index);

        assertThat(samples).extracting(ShardSample::key).containsExactly("a/b/0001", "a/b/0002", "c.d/0003");
        assertThat(samples.get(0).fields()).containsOnlyKeys("seg.png", "jpg");
        assertThat(samples.get(0).fields().keySet()).containsExactly("seg.png", "jpg");
        assertThat(samples.get(1).fields().keySet()).containsExactly("jpg", "json");   // lower-cased, as WebDataset
        assertThat(samples.get(2).fields().keySet()).containsExactly("txt");
        TarMember jpg = index.members().get(2);
        assertThat(samples.get(1).field("jpg"))
                .isEqualTo(new FieldLocation(SHARD, "a/b/0002.JPG", jpg.dataOffset(), jpg.size()));
    }

    @Test
    void aKeyThatComesBackIsAnErrorNamingBothMembers() {
        TarIndex index = index("0001.jpg", "0002.jpg", "0001.json");
        TarMember again = index.members().get(2);

        assertThatThrownBy(() -> SampleGrouping.WEBDATASET.samples(index))
                .isInstanceOf(ShardFormatException.class)
                .hasMessage("Tar shard 'shard-000007.tar', member '0001.json', offset " + again.headerOffset()
                        + ": key '0001' comes back after other keys (first as member '0001.jpg' at offset 0): "
                        + "a WebDataset sample's members must be consecutive");
    }

    @Test
    void aFieldTwiceInOneSampleIsAnError() {
        TarIndex index = index("0001.jpg", "0001.txt", "0001.JPG");

        assertThatThrownBy(() -> SampleGrouping.WEBDATASET.samples(index))
                .isInstanceOf(ShardFormatException.class)
                .hasMessageContaining("member '0001.JPG', offset " + index.members().get(2).headerOffset())
                .hasMessageContaining("field 'jpg' appears twice in sample '0001' (first as member '0001.jpg' at "
                        + "offset 0)");
    }

    @Test
    void membersWithoutAKeyOrFieldAreErrors() {
        assertThatThrownBy(() -> SampleGrouping.WEBDATASET.samples(index("0001.jpg", "docs/README")))
                .isInstanceOf(ShardFormatException.class)
                .hasMessageContaining("member 'docs/README'")
                .hasMessageContaining("the base name has no '.', so no WebDataset field");
        assertThatThrownBy(() -> SampleGrouping.WEBDATASET.samples(index("a/.hidden")))
                .isInstanceOf(ShardFormatException.class)
                .hasMessageContaining("the base name starts with '.', so it has no WebDataset key");
        assertThatThrownBy(() -> SampleGrouping.WEBDATASET.samples(index("0001.seg png")))
                .isInstanceOf(ShardFormatException.class)
                .hasMessageContaining("member '0001.seg png', offset 0: Invalid payload field name 'seg png'");
    }

    @Test
    void plainTarMakesEveryMemberASampleKeyedByItsPath() {
        TarIndex index = index("x/y.tar.gz", "README", "x/0001.jpg");

        List<ShardSample> samples = SampleGrouping.PLAIN_TAR.samples(index);

        assertThat(samples).extracting(ShardSample::key).containsExactly("x/y.tar.gz", "README", "x/0001.jpg");
        assertThat(samples).allSatisfy(sample -> assertThat(sample.fields()).containsOnlyKeys("data"));
        assertThat(samples.get(1).field("data").offset()).isEqualTo(index.members().get(1).dataOffset());
    }

    @Test
    void plainTarRefusesAPathTwice() {
        TarIndex index = index("a.jpg", "b.jpg", "a.jpg");
        assertThatThrownBy(() -> SampleGrouping.PLAIN_TAR.samples(index))
                .isInstanceOf(ShardFormatException.class)
                .hasMessageContaining("member 'a.jpg', offset " + index.members().get(2).headerOffset()
                        + ": the path appears twice in the shard (first at offset 0)");
    }

    @Test
    void fieldLocationsReadTheMembersBytesFromARealShard() {
        Map<String, byte[]> members = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            members.put(String.format("train/%04d.jpg", i), ("jpeg " + i).repeat(100 * i + 1)
                    .getBytes(StandardCharsets.UTF_8));
            members.put(String.format("train/%04d.cls", i), String.valueOf(i).getBytes(StandardCharsets.UTF_8));
        }
        try (MemoryBackend backend = new MemoryBackend()) {
            backend.put(SHARD, TarShards.commons(members, TarArchiveOutputStream.LONGFILE_POSIX));

            List<ShardSample> samples = SampleGrouping.WEBDATASET.samples(new TarIndexer(backend).index(SHARD));

            assertThat(samples).hasSize(5);
            for (ShardSample sample : samples) {
                for (Map.Entry<String, FieldLocation> field : sample.fields().entrySet()) {
                    ByteBuffer bytes = backend.readRange(SHARD, field.getValue().range());
                    assertThat(StandardCharsets.UTF_8.decode(bytes).toString())
                            .isEqualTo(new String(members.get(sample.key() + "." + field.getKey()),
                                    StandardCharsets.UTF_8));
                }
            }
        }
    }

    /** An index of members named {@code names}, 100 bytes each, laid out as a tar shard would hold them. */
    private static TarIndex index(String... names) {
        List<TarMember> members = new ArrayList<>();
        long offset = 0;
        for (String name : names) {
            TarMember member = new TarMember(name, TarMember.Type.REGULAR, offset, offset + 512, 100);
            members.add(member);
            offset = member.end();
        }
        return new TarIndex(SHARD, offset + 1024, members, List.of(), List.of());
    }
}
