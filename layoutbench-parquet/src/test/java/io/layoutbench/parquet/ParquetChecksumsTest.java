package io.layoutbench.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.backend.memory.MemoryBackend;

import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Region checksums recorded at write time and checked on read from the bytes read anyway, and the pages' own CRC32s:
 * any byte a reader trusts that changed is a {@link CorruptDataException} naming the object and the region.
 */
class ParquetChecksumsTest {

    private static final String KEY = "l3.parquet";

    @TempDir
    Path dir;

    private final MemoryBackend backend = new MemoryBackend();
    private Path file;
    private byte[] bytes;
    private ParquetChecksums checksums;
    private ParquetFooter footer;

    @BeforeEach
    void writeTable() {
        file = TestTables.writeL3(dir, 1500, ParquetWriteOptions.defaults().withRowGroupSize(512 << 10)
                .withPageSize(4 << 10));
        bytes = TestTables.read(file);
        checksums = ParquetChecksums.of(file);
        backend.put(KEY, bytes);
        footer = ParquetObject.open(backend, KEY).footer();
    }

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    private ParquetObject open(ObjectBackend through) {
        return ParquetObject.open(new BackendInputFile(through, KEY, bytes.length, FetchOptions.defaults()),
                checksums);
    }

    private void flip(long offset) {
        byte[] damaged = bytes.clone();
        damaged[(int) offset] ^= 0x20;
        backend.put(KEY, damaged);
    }

    @Test
    void theWriterChecksumsTheFileAsItWritesIt() {
        try (ParquetTableWriter writer = ParquetTableWriter.create(TestTables.l1Schema(), dir.resolve("t.parquet"),
                ParquetWriteOptions.defaults())) {
            for (int row = 0; row < 500; row++) {
                writer.write(TestTables.metadata(row));
            }
            writer.close();
            byte[] written = TestTables.read(dir.resolve("t.parquet"));
            CRC32C crc = new CRC32C();
            crc.update(written);
            assertThat(writer.crc32c()).isEqualTo((int) crc.getValue());
            assertThat(writer.bytesWritten()).isEqualTo(written.length);
        }
    }

    @Test
    void recordsTheRegionsAReaderFetches() {
        assertThat(footer.rowGroups()).hasSizeGreaterThan(2);
        assertThat(checksums.footer().range()).isEqualTo(ByteRange.between(footer.footerRange().offset(),
                bytes.length));
        assertThat(checksums.pageIndexes().orElseThrow().range()).isEqualTo(footer.pageIndexRange().orElseThrow());
        assertThat(checksums.metadataChunks()).hasSize(footer.rowGroups().size());
    }

    @Test
    void checkingCostsNoRequestAndReadsTheSameBytes() {
        QueryMetrics plain = new QueryMetrics();
        QueryMetrics checked = new QueryMetrics();
        readEverything(ParquetObject.open(new BackendInputFile(backend.withMetrics(plain), KEY, bytes.length,
                FetchOptions.defaults())));
        readEverything(open(backend.withMetrics(checked)));
        assertThat(checked.snapshot().totalRequests()).isEqualTo(plain.snapshot().totalRequests());
        assertThat(checked.snapshot().bytesReceived()).isEqualTo(plain.snapshot().bytesReceived());
    }

    private static void readEverything(ParquetObject table) {
        table.readMetadataColumns();
        for (int g = 0; g < table.footer().rowGroups().size(); g++) {
            table.readColumnsAsync(g, List.of("filename", "label", "filesize_bytes", "width", "height")).join();
            table.pageIndex(g, "image_bytes");
            new BlobReader(table, "image_bytes").read(g, new int[] {0, 5});
        }
    }

    @Test
    void aChangedStatisticInTheFooterIsNamed() {
        // A label statistic ("tiger shark" is a max) with a byte changed, as the "zebra" to "aebra".
        long at = indexOf("shark", footer.footerRange().offset());
        flip(at);
        assertThatThrownBy(() -> open(backend))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Checksum mismatch in the footer region of " + KEY);
    }

    @Test
    void aDamagedFooterLengthOrMagicIsAChecksumMismatchNotAParseError() {
        flip(bytes.length - 6);
        assertThatThrownBy(() -> open(backend))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("footer region of " + KEY);
        flip(bytes.length - 1);
        assertThatThrownBy(() -> open(backend))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("footer region of " + KEY);
    }

    @Test
    void aChangedPageIndexIsNamed() {
        ByteRange pageIndexes = footer.pageIndexRange().orElseThrow();
        flip(pageIndexes.offset() + pageIndexes.length() / 2);
        ParquetObject table = open(backend);
        assertThatThrownBy(() -> table.pageIndex(0, "image_bytes"))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Checksum mismatch in the page-index region of " + KEY)
                .hasMessageContaining(pageIndexes.toString());
    }

    @Test
    void aChangedDictionaryEntryIsNamedWithItsRowGroup() {
        // A byte of a label in the dictionary page of row group 1's label chunk: the "tench" flip.
        ColumnChunkInfo labels = footer.rowGroups().get(1).column("label");
        flip(indexOf("tench", labels.byteRange().offset()));
        ParquetObject table = open(backend);
        assertThatThrownBy(table::readMetadataColumns)
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Checksum mismatch in the metadata column chunks of row group 1 of " + KEY);
        assertThatThrownBy(() -> table.readColumnsAsync(1, List.of("height", "filename", "label", "width",
                "filesize_bytes")).join())
                .hasCauseInstanceOf(CorruptDataException.class)
                .hasMessageContaining("row group 1 of " + KEY);
        // Other row groups still read.
        table.readColumnsAsync(0, List.of("label")).join();
    }

    @Test
    void pagesCarryACrcThatTheDecodersCheckWithoutTheManifestsChecksums() {
        ColumnChunkInfo labels = footer.rowGroups().get(1).column("label");
        flip(indexOf("tench", labels.byteRange().offset()));
        ParquetObject unchecked = ParquetObject.open(backend, KEY);
        assertThatThrownBy(unchecked::readMetadataColumns)
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Checksum mismatch in the page at offset")
                .hasMessageContaining("column label of row group 1 of " + KEY);
    }

    @Test
    void aChangedBlobPageFailsItsCrcInBothReadModes() {
        PageInfo page = ParquetObject.open(backend, KEY).pageIndex(0, "image_bytes").pages().get(3);
        flip(page.offset() + page.compressedSize() - 10);
        BlobReader blobs = new BlobReader(open(backend), "image_bytes");
        int row = (int) page.firstRow();
        assertThatThrownBy(() -> blobs.read(0, new int[] {row}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Checksum mismatch in the page at offset " + page.offset());
        assertThatThrownBy(() -> blobs.readWholeRowGroup(0, new int[] {row}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Checksum mismatch in the page at offset " + page.offset());
        assertThat(blobs.read(0, new int[] {0})).hasSize(1);
    }

    @Test
    void checksumsOfAnotherFileAreRefused() {
        Path other = TestTables.writeL3(dir, 700, ParquetWriteOptions.defaults().withRowGroupSize(512 << 10));
        ParquetChecksums wrong = ParquetChecksums.of(other);
        assertThatThrownBy(() -> ParquetObject.open(new BackendInputFile(backend, KEY, bytes.length,
                FetchOptions.defaults()), wrong))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining(KEY);
    }

    private long indexOf(String text, long from) {
        byte[] needle = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        outer:
        for (int i = (int) from; i + needle.length <= bytes.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (bytes[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError(text + " not found after offset " + from);
    }
}
