package io.layoutbench.layouts.l3;

import static io.layoutbench.layouts.l3.L3Fixture.DATA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.parquet.ParquetColumn;
import io.layoutbench.parquet.ParquetFooter;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.RowGroupInfo;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** What the L3 writer stores: part files within the size limit, the paper's columns, page indexes, a manifest. */
class L3WriterTest {

    @Test
    void isFoundByName() {
        assertThat(StorageLayouts.get("l3")).isInstanceOf(L3Layout.class);
        assertThat(StorageLayouts.get("l3").description()).contains("Parquet");
    }

    @Test
    void rollsPartsAtTheFileSizeAndListsThemInTheManifest() {
        MemoryBackend backend = L3Fixture.backend();
        DatasetManifest manifest = DatasetManifest.read(backend, L3Fixture.PREFIX);
        List<ManifestObject> objects = manifest.objects();
        int parts = Integer.parseInt(manifest.properties().get(L3Writer.PARTS));
        assertThat(parts).isEqualTo(objects.size()).isGreaterThanOrEqualTo(10);
        long rows = 0;
        for (int i = 0; i < parts; i++) {
            String key = manifest.properties().get(L3Writer.partProperty(i));
            assertThat(key).isEqualTo(objects.get(i).key())
                    .endsWith(String.format("/%s/part-%05d.parquet", manifest.generation(), i));
            assertThat(objects.get(i).size()).as("size of %s", key).isLessThanOrEqualTo(8L << 20);
            if (i < parts - 1) {
                assertThat(objects.get(i).size()).as("a part is filled before the next starts")
                        .isGreaterThan(6L << 20);
            }
            ParquetFooter footer = ParquetObject.open(backend, key).footer();
            rows += footer.rowCount();
            assertThat(footer.rowGroups()).hasSizeGreaterThanOrEqualTo(2);
            for (RowGroupInfo group : footer.rowGroups()) {
                assertThat(group.column(L3Layout.IMAGE_BYTES).offsetIndexRange()).isPresent();
                assertThat(group.column("label").stats()).isPresent();
            }
        }
        assertThat(rows).isEqualTo(DATA.size()).isEqualTo(manifest.sampleCount());
        assertThat(manifest.properties()).containsEntry(L3Layout.FILE_SIZE, Long.toString(8L << 20))
                .containsEntry(L3Layout.ROW_GROUP_SIZE, Long.toString(2L << 20))
                .containsEntry(L3Layout.PAGE_SIZE, Long.toString(256L << 10));
    }

    @Test
    void writesThePapersColumnsAndSmallBlobPages() {
        MemoryBackend backend = L3Fixture.backend();
        String first = DatasetManifest.read(backend, L3Fixture.PREFIX).objects().get(0).key();
        ParquetObject part = ParquetObject.open(backend, first);
        assertThat(part.footer().columns()).extracting(ParquetColumn::name).containsExactly("filename", "label",
                "filesize_bytes", "width", "height", "crc32c", "image_bytes");
        assertThat(part.footer().column("crc32c").type()).isEqualTo(Optional.of(ColumnType.BIGINT));
        assertThat(part.footer().column("image_bytes").isBlob()).isTrue();
        var pages = part.pageIndex(0, L3Layout.IMAGE_BYTES).pages();
        assertThat(pages).hasSizeGreaterThan(3);
        // A page is closed about when it passes the page size, so it holds about 256 KiB, or one larger blob.
        assertThat(pages).allSatisfy(p -> assertThat(p.compressedSize()).isLessThan((256 << 10) + (8 << 20)));
        assertThat(pages.stream().mapToLong(p -> p.compressedSize()).average().orElseThrow())
                .isBetween(128.0 * 1024, 1024.0 * 1024);
    }

    @Test
    void defaultsAreThePapers() {
        MemoryBackend backend = new MemoryBackend();
        L3Fixture.write(backend, "defaults", Map.of(), DATA.samples().limit(20));
        DatasetManifest manifest = DatasetManifest.read(backend, "defaults");
        assertThat(manifest.properties()).containsEntry(L3Layout.FILE_SIZE, Long.toString(64L << 20))
                .containsEntry(L3Layout.ROW_GROUP_SIZE, Long.toString(128L << 20))
                .containsEntry(L3Layout.PAGE_SIZE, Long.toString(4L << 10))
                .containsEntry(L3Writer.PARTS, "1");
    }

    @Test
    void anEmptyDatasetHasNoPartsAndAnswersNothing() {
        MemoryBackend backend = new MemoryBackend();
        DatasetSummary summary;
        try (DatasetWriter writer = new L3Layout().create(backend, "empty", MetadataSchema.imageNet(), Map.of())) {
            summary = writer.commit();
        }
        assertThat(summary.sampleCount()).isZero();
        try (var dataset = new L3Layout().open(backend, "empty");
             var samples = dataset.query("label = 'cello'")) {
            assertThat(samples.hasNext()).isFalse();
        }
    }

    @Test
    void rejectsUnknownAndInvalidOptions() {
        MemoryBackend backend = new MemoryBackend();
        L3Layout l3 = new L3Layout();
        assertThatThrownBy(() -> l3.create(backend, "x", MetadataSchema.imageNet(), Map.of("shard-size", "8MB")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unknown l3 option 'shard-size'")
                .hasMessageContaining("file-size, metadata-file, page-size, row-group-size");
        assertThatThrownBy(() -> l3.create(backend, "x", MetadataSchema.imageNet(), Map.of("file-size", "4KB")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("file-size").hasMessageContaining("256 KiB");
        assertThatThrownBy(() -> l3.create(backend, "x", MetadataSchema.imageNet(), Map.of("page-size", "lots")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("page-size");
    }

    @Test
    void aSampleLargerThanTheFileSizeGetsAPartOfItsOwn() {
        MemoryBackend backend = new MemoryBackend();
        // The largest tiny samples are a few MB; a 256 KiB limit puts nearly every sample in its own part.
        L3Fixture.write(backend, "one-each", Map.of(L3Layout.FILE_SIZE, "256KB"), DATA.samples().limit(12));
        DatasetManifest manifest = DatasetManifest.read(backend, "one-each");
        assertThat(Integer.parseInt(manifest.properties().get(L3Writer.PARTS))).isBetween(6, 12);
        try (var dataset = new L3Layout().open(backend, "one-each");
             var samples = dataset.query("filesize_bytes >= 0")) {
            List<String> read = new java.util.ArrayList<>();
            samples.forEachRemaining(s -> read.add(L3Fixture.fingerprint(s)));
            assertThat(read).hasSize(12);
        }
    }

    @Test
    void partsAfterAFieldWentOutOfLineReadEvenWithoutABlobFileOfTheirOwn() {
        // The first ten samples' largest goes out of line; from then on parts carry the offset columns, and the parts
        // holding no field that large have no blob file. Those parts were refused ("names no blob file").
        long threshold = 0;
        for (int i = 0; i < 10; i++) {
            threshold = Math.max(threshold, DATA.sampleBytes(i).remaining());
        }
        MemoryBackend backend = new MemoryBackend();
        L3Fixture.write(backend, "out-of-line", Map.of(L3Layout.FILE_SIZE, "1MB", L3Layout.ROW_GROUP_SIZE, "256KB",
                L3Layout.BLOB_THRESHOLD, Long.toString(threshold)), DATA.samples().limit(200));
        DatasetManifest manifest = DatasetManifest.read(backend, "out-of-line");
        int parts = Integer.parseInt(manifest.property(L3Writer.PARTS, null));
        long blobFiles = manifest.properties().keySet().stream().filter(k -> k.endsWith(".blobs.key")).count();
        assertThat(blobFiles).as("some parts have a blob file, not all").isPositive().isLessThan(parts - 1);

        List<String> found = new java.util.ArrayList<>();
        try (var dataset = new L3Layout().open(backend, "out-of-line"); var samples = dataset.query("filesize_bytes >= 0")) {
            samples.forEachRemaining(sample -> found.add(L3Fixture.fingerprint(sample)));
        }
        List<String> expected = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            expected.add(L3Fixture.fingerprint(DATA.metadata(i).getString("filename"), DATA.sampleBytes(i)));
        }
        assertThat(found).containsExactlyElementsOf(expected);
    }
}
