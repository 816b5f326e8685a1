package io.layoutbench.parquet;

import static io.layoutbench.parquet.TestTables.blob;
import static io.layoutbench.parquet.TestTables.metadata;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.backend.memory.MemoryBackend;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetTableWriterTest {

    @TempDir
    Path dir;

    private final MemoryBackend backend = new MemoryBackend();

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    @Test
    void splitsRowGroupsAndBlobPagesAtTheConfiguredSizes() {
        int pageSize = 16 << 10;
        Path file = TestTables.writeL3(dir, 2000,
                ParquetWriteOptions.defaults().withRowGroupSize(512 << 10).withPageSize(pageSize));
        backend.put("l3.parquet", file);
        ParquetObject table = ParquetObject.open(backend, "l3.parquet");
        ParquetFooter footer = table.footer();

        assertThat(footer.rowCount()).isEqualTo(2000);
        assertThat(footer.rowGroups()).hasSizeBetween(5, 9);
        assertThat(footer.rowGroups().stream().mapToLong(RowGroupInfo::rowCount).sum()).isEqualTo(2000);
        assertThat(footer.columns()).extracting(ParquetColumn::name)
                .containsExactly("filename", "label", "filesize_bytes", "width", "height", "image_bytes");
        for (RowGroupInfo group : footer.rowGroups()) {
            ColumnPageIndex pages = table.pageIndex(group.index(), "image_bytes");
            assertThat(pages.pages()).hasSizeGreaterThan(10);
            // A page closes once it reaches the page size: at most one blob (< 3.2 KB) and a header more.
            assertThat(pages.pages()).allSatisfy(page -> assertThat(page.compressedSize())
                    .isLessThanOrEqualTo(pageSize + 3300));
            assertThat(pages.pages()).allSatisfy(page -> assertThat(page.stats()).isEmpty());
            ColumnChunkInfo blobs = group.column("image_bytes");
            assertThat(blobs.offsetIndexRange()).isPresent();
            assertThat(blobs.columnIndexRange()).isEmpty();
            assertThat(blobs.stats()).isEmpty();
            assertThat(blobs.hasDictionaryPage()).isFalse();
            // Blob column last, so the metadata chunks of a row group lie together before it.
            assertThat(blobs.byteRange().offset()).isEqualTo(group.column("height").byteRange().end());
            assertThat(group.column("label").columnIndexRange()).isPresent();
            assertThat(group.column("label").hasDictionaryPage()).isTrue();
        }
    }

    @Test
    void writesMetadataColumnsWithStatisticsAndPhysicalNames() {
        ParquetTableSchema schema = ParquetTableSchema.builder(MetadataSchema.imageNet())
                .rename("human_label", "human_label")   // by alias: the paper's L1/L2 name
                .extraColumn("shard", ColumnType.STRING)
                .extraColumn("data_offset", ColumnType.BIGINT)
                .extraColumn("data_size", ColumnType.BIGINT)
                .build();
        Path file = dir.resolve("l2.parquet");
        try (ParquetTableWriter writer = ParquetTableWriter.create(schema, file,
                ParquetWriteOptions.defaults().withKeyValueMetadata(Map.of("layoutbench.layout", "L2")))) {
            for (int row = 0; row < 300; row++) {
                writer.write(metadata(row), List.of("shard-" + row / 100 + ".tar", row * 1024, (long) row), null);
            }
            assertThat(writer.rowCount()).isEqualTo(300);
        }
        backend.put("l2.parquet", file);
        ParquetFooter footer = ParquetObject.open(backend, "l2.parquet").footer();

        assertThat(footer.columns()).extracting(ParquetColumn::name).containsExactly("filename", "human_label",
                "filesize_bytes", "width", "height", "shard", "data_offset", "data_size");
        assertThat(footer.column("SHARD").type()).contains(ColumnType.STRING);
        assertThat(footer.column("data_offset").type()).contains(ColumnType.BIGINT);
        assertThat(footer.keyValueMetadata()).containsEntry("layoutbench.layout", "L2");
        ColumnStats offsets = footer.rowGroups().get(0).column("data_offset").stats().orElseThrow();
        assertThat(offsets.min()).isEqualTo(0L);
        assertThat(offsets.max()).isEqualTo(299 * 1024L);
        assertThat(offsets.nullCount()).isZero();
        ColumnStats shards = footer.rowGroups().get(0).column("shard").stats().orElseThrow();
        assertThat(shards.min()).isEqualTo("shard-0.tar");
        assertThat(shards.max()).isEqualTo("shard-2.tar");
        assertThat(footer.rowGroups().get(0).column("height").stats().orElseThrow().nullCount()).isEqualTo(6);
    }

    @Test
    void writesTheSameBytesToAStreamAsToAFile() {
        ParquetWriteOptions options = ParquetWriteOptions.defaults().withRowGroupSize(64 << 10);
        Path file = TestTables.writeL3(dir, 300, options);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ParquetTableWriter writer = ParquetTableWriter.create(TestTables.l3Schema(), out, options)) {
            for (int row = 0; row < 300; row++) {
                writer.write(metadata(row), List.of(), ByteBuffer.wrap(blob(row)));
            }
        }
        assertThat(out.toByteArray()).isEqualTo(TestTables.read(file));
    }

    @Test
    void doesNotConsumeTheBlobBuffer() {
        ByteBuffer blob = ByteBuffer.wrap(blob(7));
        try (ParquetTableWriter writer = ParquetTableWriter.create(TestTables.l3Schema(), dir.resolve("one.parquet"),
                ParquetWriteOptions.defaults())) {
            writer.write(metadata(7), List.of(), blob);
        }
        assertThat(blob.position()).isZero();
        assertThat(blob.remaining()).isEqualTo(TestTables.blobSize(7));
    }

    @Test
    void rejectsRowsThatDoNotFitTheTable() {
        ParquetTableSchema schema = ParquetTableSchema.builder(MetadataSchema.imageNet())
                .extraColumn("data_offset", ColumnType.BIGINT).build();
        try (ParquetTableWriter writer = ParquetTableWriter.create(schema, dir.resolve("bad.parquet"),
                ParquetWriteOptions.defaults())) {
            assertThatThrownBy(() -> writer.write(metadata(0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0 extra values").hasMessageContaining("data_offset");
            assertThatThrownBy(() -> writer.write(metadata(0), List.of("twelve"), null))
                    .hasMessageContaining("'data_offset' is BIGINT").hasMessageContaining("String");
            assertThatThrownBy(() -> writer.write(metadata(0), List.of(12L), ByteBuffer.allocate(3)))
                    .hasMessageContaining("has no blob column");
            MetadataSchema other = MetadataSchema.imageNet().with(new Column("split", ColumnType.STRING));
            assertThatThrownBy(() -> writer.write(io.layoutbench.api.dataset.MetadataRow.of(other, Map.of()),
                    List.of(1L), null)).hasMessageContaining("split");
        }
        try (ParquetTableWriter writer = ParquetTableWriter.create(TestTables.l3Schema(),
                dir.resolve("blobless.parquet"), ParquetWriteOptions.defaults())) {
            assertThatThrownBy(() -> writer.write(metadata(0)))
                    .hasMessageContaining("has no blob but the table has the blob column image_bytes");
        }
    }

    @Test
    void testsRunWithoutHadoopAsUsersDo() {
        // The pom keeps hadoop-client-api off the test class path: everything above ran without it.
        assertThatThrownBy(() -> Class.forName("org.apache.hadoop.conf.Configuration"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void rejectsClashingPhysicalNames() {
        assertThatThrownBy(() -> ParquetTableSchema.builder(MetadataSchema.imageNet())
                .rename("label", "filename").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'filename'");
        assertThatThrownBy(() -> ParquetTableSchema.builder(MetadataSchema.imageNet())
                .extraColumn("WIDTH", ColumnType.BIGINT).build())
                .hasMessageContaining("ignoring case");
    }
}
