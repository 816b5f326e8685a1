package io.layoutbench.parquet;

import static io.layoutbench.parquet.TestTables.metadata;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.backend.memory.MemoryBackend;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.IntFunction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetObjectTest {

    @TempDir
    Path dir;

    private final MemoryBackend backend = new MemoryBackend();
    private final QueryMetrics metrics = new QueryMetrics();
    private final ObjectBackend counted = backend.withMetrics(metrics);

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    private long requests() {
        return metrics.snapshot().totalRequests();
    }

    @Test
    void readsTheWholeMetadataTableBack() {
        int rows = 20_000;
        // Small dictionaries make the filename column fall back to plain encoding after a few pages.
        Path file = TestTables.writeL1(dir, rows, ParquetWriteOptions.defaults().withRowGroupSize(256 << 10)
                .withPageSize(16 << 10).withDictionaryPageSize(8 << 10));
        backend.put("meta/metadata.parquet", file);

        ParquetObject table = ParquetObject.open(counted, "meta/metadata.parquet");
        long openRequests = requests();
        MetadataColumns columns = table.readMetadataColumns();

        int rowGroups = table.footer().rowGroups().size();
        assertThat(rowGroups).isGreaterThan(2);
        assertThat(requests() - openRequests).as("one request per row group for all its metadata chunks")
                .isEqualTo(rowGroups);
        assertThat(columns.rowCount()).isEqualTo(rows);
        assertThat(columns.names())
                .containsExactly("filename", "human_label", "filesize_bytes", "width", "height");

        ColumnVector.Strings labels = (ColumnVector.Strings) columns.column("HUMAN_LABEL");
        assertThat(labels.dictionary().size()).isEqualTo(TestTables.LABELS.length);
        ColumnVector.Strings filenames = (ColumnVector.Strings) columns.column("filename");
        assertThat(filenames.dictionary().size()).isEqualTo(rows);
        ColumnVector.Longs heights = (ColumnVector.Longs) columns.column("height");
        IntFunction<MetadataRow> materialize = columns.rows(TestTables.l1Schema());
        for (int row = 0; row < rows; row++) {
            assertThat(materialize.apply(row)).isEqualTo(metadata(row));
            assertThat(labels.ids()[row]).isEqualTo(labels.dictionary().idOf(TestTables.label(row)));
            assertThat(heights.isNull(row)).isEqualTo(row % 50 == 49);
        }
    }

    @Test
    void readsChosenColumnsOnly() {
        backend.put("l3.parquet", TestTables.writeL3(dir, 500, ParquetWriteOptions.defaults()));
        ParquetObject table = ParquetObject.open(backend, "l3.parquet");
        MetadataColumns columns = table.readColumns(java.util.List.of("width", "label"));
        assertThat(columns.names()).containsExactly("width", "label");
        assertThat(((ColumnVector.Longs) columns.column("width")).values()[123]).isEqualTo(TestTables.width(123));
        assertThatThrownBy(() -> table.readColumns(java.util.List.of("image_bytes")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BlobReader");
        assertThatThrownBy(() -> table.readColumns(java.util.List.of("nope")))
                .hasMessageContaining("no column 'nope'").hasMessageContaining("filename, label");
    }

    @Test
    void exposesRowGroupAndPageStatisticsForPruning() {
        Path file = TestTables.writeL1(dir, 5000, ParquetWriteOptions.defaults().withRowGroupSize(32 << 10)
                .withPageSize(2 << 10));
        backend.put("meta.parquet", file);
        ParquetObject table = ParquetObject.open(backend, "meta.parquet");
        ParquetFooter footer = table.footer();
        assertThat(footer.rowGroups()).hasSizeGreaterThan(1);
        for (RowGroupInfo group : footer.rowGroups()) {
            ColumnStats widths = group.column("width").stats().orElseThrow();
            long[] expected = new long[(int) group.rowCount()];
            for (int i = 0; i < expected.length; i++) {
                expected[i] = TestTables.width((int) group.firstRow() + i);
            }
            assertThat(widths.type()).isEqualTo(ColumnType.BIGINT);
            assertThat(widths.min()).isEqualTo(Arrays.stream(expected).min().orElseThrow());
            assertThat(widths.max()).isEqualTo(Arrays.stream(expected).max().orElseThrow());

            ColumnPageIndex pages = table.pageIndex(group.index(), "human_label");
            assertThat(pages.pages().get(0).firstRow()).isZero();
            assertThat(pages.pages().stream().mapToLong(PageInfo::rowCount).sum()).isEqualTo(group.rowCount());
            for (PageInfo page : pages.pages()) {
                ColumnStats stats = page.stats().orElseThrow();
                for (long r = page.firstRow(); r < page.firstRow() + page.rowCount(); r++) {
                    String label = TestTables.label((int) (group.firstRow() + r));
                    assertThat(label).isBetween((String) stats.min(), (String) stats.max());
                    assertThat(pages.pageOf(r)).isEqualTo(page.index());
                }
                assertThat(group.column("human_label").byteRange().contains(page.byteRange())).isTrue();
            }
        }
        RowGroupInfo last = footer.rowGroups().get(footer.rowGroups().size() - 1);
        assertThat(footer.rowGroupOfRow(4999)).isEqualTo(last);
        assertThat(footer.rowGroupOfRow(0).index()).isZero();
        assertThatThrownBy(() -> footer.rowGroupOfRow(5000)).hasMessageContaining("no row 5000");
    }

    @Test
    void readsFooterAndPageIndexesInAtMostThreeRequests() {
        Path file = TestTables.writeL3(dir, 3000, ParquetWriteOptions.defaults().withRowGroupSize(256 << 10)
                .withPageSize(8 << 10));
        backend.put("l3.parquet", file);
        long length = backend.size("l3.parquet");

        // Small file, default 64 KiB tail: size, then the tail holding footer and page indexes.
        ParquetObject table = ParquetObject.open(counted, "l3.parquet");
        loadAllPageIndexes(table);
        assertThat(requests()).isEqualTo(2);
        int footerLength = (int) table.footer().footerRange().length();
        long indexLength = table.footer().pageIndexRange().orElseThrow().length();
        assertThat(indexLength).as("page indexes bigger than the tail below").isGreaterThan(100);

        // The tail holds the footer but not all page indexes: size, tail, page-index region.
        QueryMetrics second = new QueryMetrics();
        ParquetObject again = ParquetObject.open(new BackendInputFile(backend.withMetrics(second), "l3.parquet",
                FetchOptions.defaults().withTailSize(footerLength + 8 + 16)));
        loadAllPageIndexes(again);
        assertThat(second.snapshot().totalRequests()).isEqualTo(3);

        // The footer is longer than the tail, the length is known: tail, rest of footer, page-index region.
        QueryMetrics third = new QueryMetrics();
        ParquetObject known = ParquetObject.open(new BackendInputFile(backend.withMetrics(third), "l3.parquet",
                length, FetchOptions.defaults().withTailSize(100)));
        loadAllPageIndexes(known);
        assertThat(third.snapshot().totalRequests()).isEqualTo(3);
        assertThat(known.footer().rowGroups()).isEqualTo(table.footer().rowGroups());
    }

    private static void loadAllPageIndexes(ParquetObject table) {
        for (RowGroupInfo group : table.footer().rowGroups()) {
            for (ColumnChunkInfo chunk : group.columns()) {
                assertThat(table.pageIndex(group.index(), chunk.column()).pages()).isNotEmpty();
            }
        }
    }

    @Test
    void reportsObjectsThatAreNotParquet() {
        backend.put("tiny.bin", new byte[] {1, 2, 3});
        assertThatThrownBy(() -> ParquetObject.open(backend, "tiny.bin"))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("tiny.bin")
                .hasMessageContaining("3 bytes");

        backend.put("text.txt", "hello world, this is not Parquet".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ParquetObject.open(backend, "text.txt"))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("text.txt")
                .hasMessageContaining("bad magic at offset 28").hasMessageContaining("'quet'");

        byte[] good = TestTables.read(TestTables.writeL1(dir, 100, ParquetWriteOptions.defaults()));
        backend.put("truncated.parquet", Arrays.copyOf(good, good.length - 10));
        assertThatThrownBy(() -> ParquetObject.open(backend, "truncated.parquet"))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("truncated.parquet")
                .hasMessageContaining("bad magic");

        byte[] longFooter = good.clone();
        ByteBuffer.wrap(longFooter).order(ByteOrder.LITTLE_ENDIAN).putInt(good.length - 8, good.length);
        backend.put("long-footer.parquet", longFooter);
        assertThatThrownBy(() -> ParquetObject.open(backend, "long-footer.parquet"))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("long-footer.parquet")
                .hasMessageContaining("footer length " + good.length)
                .hasMessageContaining("offset " + (good.length - 8));

        byte[] shortFooter = good.clone();
        int footerLength = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN).getInt(good.length - 8);
        ByteBuffer.wrap(shortFooter).order(ByteOrder.LITTLE_ENDIAN).putInt(good.length - 8, footerLength / 2);
        backend.put("cut-footer.parquet", shortFooter);
        assertThatThrownBy(() -> ParquetObject.open(backend, "cut-footer.parquet"))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("cut-footer.parquet")
                .hasMessageContaining("footer");
    }

    @Test
    void reportsAChunkThatDoesNotDecode() {
        byte[] good = TestTables.read(TestTables.writeL1(dir, 100, ParquetWriteOptions.defaults()));
        backend.put("good.parquet", good);
        ColumnChunkInfo widths = ParquetObject.open(backend, "good.parquet").footer().rowGroups().get(0)
                .column("width");
        byte[] bad = good.clone();
        Arrays.fill(bad, (int) widths.byteRange().offset(), (int) widths.byteRange().offset() + 6, (byte) 0xff);
        backend.put("bad.parquet", bad);
        assertThatThrownBy(() -> ParquetObject.open(backend, "bad.parquet").readMetadataColumns())
                .isInstanceOf(ParquetFormatException.class)
                .hasMessageContaining("column width of row group 0 of bad.parquet")
                .hasMessageContaining("offset " + widths.byteRange().offset());
    }
}
