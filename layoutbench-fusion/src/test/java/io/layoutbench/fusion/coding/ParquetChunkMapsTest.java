package io.layoutbench.fusion.coding;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.fusion.FusionTestFiles;
import io.layoutbench.parquet.ColumnChunkInfo;
import io.layoutbench.parquet.ParquetFooter;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.RowGroupInfo;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class ParquetChunkMapsTest {

    @Test
    void chunksAreTheFootersColumnChunksDictionaryPagesIncluded() {
        byte[] table = FusionTestFiles.l3Table(30, 512 << 10, 64 << 10);

        ChunkMap map = ParquetChunkMaps.read(ObjectSource.of(table));

        ParquetFooter footer;
        try (MemoryBackend backend = new MemoryBackend()) {
            backend.put("t.parquet", table);
            footer = ParquetObject.open(backend, "t.parquet").footer();
        }
        List<ByteRange> expected = footer.rowGroups().stream().map(RowGroupInfo::columns).flatMap(List::stream)
                .map(ColumnChunkInfo::byteRange).sorted().toList();
        assertThat(map.chunks().stream().map(ObjectRegion::range).toList()).isEqualTo(expected);
        assertThat(footer.rowGroups().size()).isGreaterThan(3);
        assertThat(map.opaqueCause()).isEmpty();
        assertThat(map.regions().get(0).kind()).isEqualTo(RegionKind.MAGIC);
        ObjectRegion last = map.regions().get(map.regions().size() - 1);
        assertThat(last.kind()).isEqualTo(RegionKind.FOOTER);
        assertThat(last.range().offset()).isEqualTo(footer.footerRange().offset());
        assertThat(map.regions()).anyMatch(r -> r.kind() == RegionKind.PAGE_INDEX);
        assertThat(map.chunks()).allMatch(c -> c.label().startsWith("row group "));
    }

    @Test
    void anythingElseIsOneOpaqueRegion() {
        byte[] text = "not a parquet file at all, just some text".getBytes(StandardCharsets.UTF_8);

        ChunkMap map = ParquetChunkMaps.read(ObjectSource.of(text));

        assertThat(map.hasChunks()).isFalse();
        assertThat(map.regions()).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo(RegionKind.OPAQUE);
            assertThat(r.range()).isEqualTo(ByteRange.of(0, text.length));
        });
        assertThat(map.opaqueCause()).hasValueSatisfying(cause -> assertThat(cause).contains("PAR1"));
        assertThat(ParquetChunkMaps.read(ObjectSource.of(new byte[0])).regions()).isEmpty();
    }

    @Test
    void aDamagedFooterMakesAnOpaqueMapNotAnError() {
        byte[] table = FusionTestFiles.l3Table(5, 1 << 20, 64 << 10);
        int footerLength = java.nio.ByteBuffer.wrap(table, table.length - 8, 4)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        for (int i = table.length - 8 - footerLength; i < table.length - 8; i++) {
            table[i] = (byte) 0xff;
        }

        ChunkMap map = ParquetChunkMaps.read(ObjectSource.of(table));

        assertThat(map.hasChunks()).isFalse();
        assertThat(map.opaqueCause()).hasValueSatisfying(cause -> assertThat(cause).contains("footer"));
    }
}
