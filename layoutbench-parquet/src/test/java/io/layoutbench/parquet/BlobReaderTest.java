package io.layoutbench.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.RangeCoalescer;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.backend.memory.MemoryBackend;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.zip.CRC32;

import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlobReaderTest {

    private static final int ROWS = 3000;

    @TempDir
    Path dir;

    private final MemoryBackend backend = new MemoryBackend();
    private byte[] fileBytes;

    @BeforeEach
    void writeTable() {
        // About 5 MB of blobs: 8 row groups of ~190 pages of ~3.5 rows each.
        Path file = TestTables.writeL3(dir, ROWS, ParquetWriteOptions.defaults().withRowGroupSize(640 << 10)
                .withPageSize(4 << 10));
        fileBytes = TestTables.read(file);
        backend.put("l3.parquet", fileBytes);
    }

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    private static void assertBlobs(RowGroupInfo group, int[] rows, List<ByteBuffer> blobs) {
        assertThat(blobs).hasSize(rows.length);
        for (int i = 0; i < rows.length; i++) {
            int fileRow = (int) group.firstRow() + rows[i];
            assertThat(blobs.get(i).isReadOnly()).isTrue();
            assertThat(TestTables.bytes(blobs.get(i))).as("blob of row %d (row %d of row group %d)", fileRow,
                    rows[i], group.index()).isEqualTo(TestTables.blob(fileRow));
        }
    }

    @Test
    void returnsEachSparseRowsOwnBlob() {
        ParquetObject table = ParquetObject.open(backend, "l3.parquet");
        BlobReader reader = new BlobReader(table, "IMAGE_BYTES");
        assertThat(table.footer().rowGroups()).hasSizeGreaterThan(3);
        for (RowGroupInfo group : table.footer().rowGroups()) {
            int rowCount = (int) group.rowCount();
            if (rowCount > 300) {
                assertThat(table.pageIndex(group.index(), "image_bytes").pages()).hasSizeGreaterThan(20);
            }
            for (long seed = 0; seed < 5; seed++) {
                int[] rows = TestTables.sparseRows(seed * 31 + group.index(), rowCount, 13);
                assertBlobs(group, rows, reader.read(group.index(), rows));
            }
            int[] edges = {0, 1, 2, rowCount / 2, rowCount / 2 + 1, rowCount - 2, rowCount - 1};
            assertBlobs(group, edges, reader.read(group.index(), edges));
            int[] all = IntStream.range(0, rowCount).toArray();
            assertBlobs(group, all, reader.read(group.index(), all));
            assertThat(reader.read(group.index(), new int[0])).isEmpty();
        }
    }

    @Test
    void wholeRowGroupModeReturnsTheSameBlobs() {
        ParquetObject table = ParquetObject.open(backend, "l3.parquet");
        BlobReader reader = new BlobReader(table, "image_bytes");
        for (RowGroupInfo group : table.footer().rowGroups()) {
            int[] rows = TestTables.sparseRows(group.index(), (int) group.rowCount(), 17);
            assertBlobs(group, rows, reader.readWholeRowGroup(group.index(), rows));
            int[] last = {(int) group.rowCount() - 1};
            assertBlobs(group, last, reader.readWholeRowGroup(group.index(), last));
        }
    }

    @Test
    void wholeRowGroupModeDecodesChunksStreamedInPiecesOfAnySize() {
        for (int pieceSize : new int[] {1, 7, 1000, 4096, 1 << 20}) {
            PiecesBackend pieces = new PiecesBackend(backend, pieceSize);
            ParquetObject table = ParquetObject.open(pieces, "l3.parquet");
            BlobReader reader = new BlobReader(table, "image_bytes");
            pieces.streamed.clear();
            pieces.ranged.clear();   // the footer's
            for (RowGroupInfo group : table.footer().rowGroups().subList(0, 3)) {
                int[] sparse = TestTables.sparseRows(group.index(), (int) group.rowCount(), 17);
                int[] all = IntStream.range(0, (int) group.rowCount()).toArray();

                assertBlobs(group, sparse, reader.readWholeRowGroup(group.index(), sparse));
                assertBlobs(group, all, reader.readWholeRowGroup(group.index(), all));
            }
            // Every chunk was streamed (no ranged read of a whole chunk), each in pieces of the size asked for.
            assertThat(pieces.ranged).as("pieces of %d bytes", pieceSize).isEmpty();
            assertThat(pieces.streamed).hasSize(3 * 2 * table.footer().rowGroups().get(0).columns().size());
        }
    }

    @Test
    void wholeRowGroupModeReportsAStreamedPageHeaderThatIsGarbage() {
        ParquetObject good = ParquetObject.open(backend, "l3.parquet");
        PageInfo page = good.pageIndex(0, "image_bytes").pages().get(2);
        byte[] corrupt = fileBytes.clone();
        Arrays.fill(corrupt, (int) page.offset(), (int) page.offset() + 8, (byte) 0x15);
        backend.put("bad-header.parquet", corrupt);

        for (int pieceSize : new int[] {3, 1 << 20}) {
            BlobReader reader = new BlobReader(ParquetObject.open(new PiecesBackend(backend, pieceSize),
                    "bad-header.parquet"), "image_bytes");
            assertThatThrownBy(() -> reader.readWholeRowGroup(0, new int[] {(int) page.firstRow() + 1}))
                    .as("pieces of %d bytes", pieceSize)
                    .isInstanceOf(ParquetFormatException.class)
                    .hasMessageContaining("offset " + page.offset())
                    .hasMessageContaining("column image_bytes of row group 0 of bad-header.parquet");
        }
    }

    @Test
    void wholeRowGroupModeDecodesAColumnAskedForTwiceFromOneRead() {
        PiecesBackend pieces = new PiecesBackend(backend, 4096);
        ParquetObject table = ParquetObject.open(pieces, "l3.parquet");
        RowGroupInfo group = table.footer().rowGroups().get(1);
        int[] rows = TestTables.sparseRows(1, (int) group.rowCount(), 17);
        pieces.streamed.clear();

        List<List<ByteBuffer>> twice = BlobReader.readWholeRowGroupAsync(table, 1, rows,
                List.of("image_bytes", "IMAGE_BYTES")).join();

        assertBlobs(group, rows, twice.get(0));
        assertBlobs(group, rows, twice.get(1));
        assertThat(pieces.streamed).hasSize(group.columns().size());
    }

    @Test
    void wholeRowGroupModeReportsAStreamedChunkCutShort() {
        ParquetObject table = ParquetObject.open(new PiecesBackend(backend, 1000, 10), "l3.parquet");
        BlobReader reader = new BlobReader(table, "image_bytes");
        RowGroupInfo group = table.footer().rowGroups().get(2);
        ByteRange chunk = group.columns().get(table.footer().column("image_bytes").index()).byteRange();
        int[] last = {(int) group.rowCount() - 1};

        assertThatThrownBy(() -> reader.readWholeRowGroup(2, last))
                .isInstanceOf(ParquetFormatException.class)
                .hasMessageContaining("column image_bytes of row group 2 of l3.parquet")
                .hasMessageContaining("end within a page at offset " + (chunk.end() - 10))
                .hasMessageContaining("cut short");
    }

    /**
     * Streams every range in pieces of {@code pieceSize} bytes through one buffer that it overwrites with garbage once
     * each piece has been handed over, so a reader that kept a piece instead of copying it reads garbage; counts the
     * ranges streamed and read.
     */
    private static final class PiecesBackend extends ForwardingObjectBackend {
        final List<ByteRange> streamed = new CopyOnWriteArrayList<>();
        final List<ByteRange> ranged = new CopyOnWriteArrayList<>();
        private final ObjectBackend delegate;
        private final int pieceSize;
        private final int dropLast;

        PiecesBackend(ObjectBackend delegate, int pieceSize) {
            this(delegate, pieceSize, 0);
        }

        /** A backend that breaks the contract: each stream ends {@code dropLast} bytes early, with no error. */
        PiecesBackend(ObjectBackend delegate, int pieceSize, int dropLast) {
            this.delegate = delegate;
            this.pieceSize = pieceSize;
            this.dropLast = dropLast;
        }

        @Override
        protected ObjectBackend delegate() {
            return delegate;
        }

        @Override
        public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
            ranged.add(range);
            return delegate.readRangeAsync(key, range);
        }

        @Override
        public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range,
                Consumer<ByteBuffer> pieces) {
            streamed.add(range);
            return delegate.readRangeAsync(key, range).thenAccept(bytes -> {
                bytes.limit(Math.max(bytes.position(), bytes.limit() - dropLast));
                byte[] reused = new byte[pieceSize];
                while (bytes.hasRemaining()) {
                    int n = Math.min(pieceSize, bytes.remaining());
                    bytes.get(reused, 0, n);
                    pieces.accept(ByteBuffer.wrap(reused, 0, n).asReadOnlyBuffer());
                    Arrays.fill(reused, (byte) 0x5A);
                }
            });
        }

        @Override
        public ObjectBackend withMetrics(RequestMetrics metrics) {
            return new PiecesBackend(delegate.withMetrics(metrics), pieceSize, dropLast);
        }
    }

    @Test
    void fetchesOnlyThePagesHoldingTheRows() {
        QueryMetrics metrics = new QueryMetrics();
        ObjectBackend counted = backend.withMetrics(metrics);
        ParquetObject table = ParquetObject.open(new BackendInputFile(counted, "l3.parquet",
                FetchOptions.defaults().withMergeGap(0)));
        BlobReader reader = new BlobReader(table, "image_bytes");
        table.loadPageIndexes();
        long opened = metrics.snapshot().totalRequests();
        assertThat(opened).isLessThanOrEqualTo(3);

        RowGroupInfo group = table.footer().rowGroups().get(2);
        int[] rows = TestTables.sparseRows(99, (int) group.rowCount(), 9);
        List<PageInfo> pages = reader.pagesFor(group.index(), rows);
        long before = metrics.snapshot().bytesReceived();
        assertBlobs(group, rows, reader.read(group.index(), rows));

        long expectedRequests = RangeCoalescer.coalesce(pages.stream().map(PageInfo::byteRange).toList(), 0,
                FetchOptions.DEFAULT_MAX_MERGED_SIZE).size();
        assertThat(metrics.snapshot().totalRequests() - opened).isEqualTo(expectedRequests);
        assertThat(metrics.snapshot().bytesReceived() - before)
                .isEqualTo(pages.stream().mapToLong(PageInfo::compressedSize).sum());
        assertThat(pages.stream().mapToLong(PageInfo::compressedSize).sum())
                .isLessThan(group.column("image_bytes").byteRange().length() / 5);
    }

    @Test
    void mergesPagesWithinTheGapIntoOneRequest() {
        QueryMetrics metrics = new QueryMetrics();
        ParquetObject table = ParquetObject.open(new BackendInputFile(backend.withMetrics(metrics), "l3.parquet",
                FetchOptions.defaults().withMergeGap(1 << 20)));
        BlobReader reader = new BlobReader(table, "image_bytes");
        table.loadPageIndexes();
        long opened = metrics.snapshot().totalRequests();
        RowGroupInfo group = table.footer().rowGroups().get(1);
        int[] rows = TestTables.sparseRows(7, (int) group.rowCount(), 20);
        assertBlobs(group, rows, reader.read(group.index(), rows));
        assertThat(metrics.snapshot().totalRequests() - opened).isEqualTo(1);
    }

    @Test
    void wholeRowGroupModeSendsOneRequestPerColumnChunk() {
        QueryMetrics metrics = new QueryMetrics();
        ParquetObject table = ParquetObject.open(new BackendInputFile(backend.withMetrics(metrics), "l3.parquet",
                FetchOptions.defaults().withMergeGap(1 << 30)));
        BlobReader reader = new BlobReader(table, "image_bytes");
        long opened = metrics.snapshot().totalRequests();
        RowGroupInfo group = table.footer().rowGroups().get(0);
        long before = metrics.snapshot().bytesReceived();
        reader.readWholeRowGroup(0, new int[] {5});
        assertThat(metrics.snapshot().totalRequests() - opened).isEqualTo(group.columns().size());
        assertThat(metrics.snapshot().bytesReceived() - before).isEqualTo(group.byteRange().length());
    }

    @Test
    void rejectsBadRowsAndNonBlobColumns() {
        ParquetObject table = ParquetObject.open(backend, "l3.parquet");
        BlobReader reader = new BlobReader(table, "image_bytes");
        assertThatThrownBy(() -> reader.read(0, new int[] {5, 3}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("strictly ascending");
        assertThatThrownBy(() -> reader.read(0, new int[] {100_000}))
                .hasMessageContaining("Row 100000 is not in row group 0 of l3.parquet");
        assertThatThrownBy(() -> reader.read(99, new int[] {1})).hasMessageContaining("no row group 99");
        assertThatThrownBy(() -> new BlobReader(table, "filename"))
                .hasMessageContaining("OPTIONAL BINARY").hasMessageContaining("REQUIRED BINARY");
        assertThatThrownBy(() -> new BlobReader(table, "width")).hasMessageContaining("INT64");
    }

    @Test
    void reportsAValueThatOverrunsItsPage() {
        ParquetObject good = ParquetObject.open(backend, "l3.parquet");
        PageInfo page = good.pageIndex(1, "image_bytes").pages().get(4);
        ByteBuffer pageBytes = ByteBuffer.wrap(fileBytes, (int) page.offset(), page.compressedSize()).slice();
        PageHeaders.Parsed parsed = PageHeaders.read(pageBytes, 0, pageBytes.limit(), page.offset(), "test");
        byte[] corrupt = fileBytes.clone();
        ByteBuffer.wrap(corrupt).order(ByteOrder.LITTLE_ENDIAN)
                .putInt((int) page.offset() + parsed.dataStart(), 1 << 30);
        backend.put("corrupt.parquet", corrupt);
        int[] rows = {(int) page.firstRow()};
        assertThatThrownBy(() -> new BlobReader(ParquetObject.open(backend, "corrupt.parquet"), "image_bytes")
                .read(1, rows))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Checksum mismatch in the page at offset " + page.offset());
        // A page whose CRC was computed over the bad value (a writer's bug): the decoder still stops at it.
        fixPageCrc(corrupt, page);
        backend.put("corrupt.parquet", corrupt);

        ParquetObject table = ParquetObject.open(backend, "corrupt.parquet");
        BlobReader reader = new BlobReader(table, "image_bytes");
        long valueOffset = page.offset() + parsed.dataStart();
        assertThatThrownBy(() -> reader.read(1, rows))
                .isInstanceOf(ParquetFormatException.class)
                .hasMessageContaining("column image_bytes of row group 1 of corrupt.parquet")
                .hasMessageContaining("claims " + (1 << 30) + " bytes at offset " + valueOffset)
                .hasMessageContaining("overrunning");
        assertThatThrownBy(() -> reader.readWholeRowGroup(1, rows))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("offset " + valueOffset);
        // Rows of other pages are still read.
        int[] other = {(int) page.firstRow() + (int) page.rowCount()};
        assertBlobs(table.footer().rowGroups().get(1), other, reader.read(1, other));
    }

    /** Rewrites the CRC32 in the header of {@code page} of {@code file} to match its data as it now is. */
    private static void fixPageCrc(byte[] file, PageInfo page) {
        ByteBuffer pageBytes = ByteBuffer.wrap(file, (int) page.offset(), page.compressedSize()).slice();
        PageHeaders.Parsed parsed = PageHeaders.read(pageBytes, 0, pageBytes.limit(), page.offset(), "test");
        CRC32 crc = new CRC32();
        crc.update(file, (int) page.offset() + parsed.dataStart(), parsed.dataEnd() - parsed.dataStart());
        PageHeader header = parsed.header().deepCopy();
        header.setCrc((int) crc.getValue());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            Util.writePageHeader(header, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(out.size()).as("the rewritten header's length").isEqualTo(parsed.dataStart());
        System.arraycopy(out.toByteArray(), 0, file, (int) page.offset(), out.size());
    }

    @Test
    void reportsAPageHeaderThatOverrunsItsPage() {
        ParquetObject good = ParquetObject.open(backend, "l3.parquet");
        PageInfo page = good.pageIndex(0, "image_bytes").pages().get(2);
        byte[] corrupt = fileBytes.clone();
        // Garbage where the header should be: Thrift fails, or claims more bytes than the page has.
        Arrays.fill(corrupt, (int) page.offset(), (int) page.offset() + 8, (byte) 0x15);
        backend.put("bad-header.parquet", corrupt);
        BlobReader reader = new BlobReader(ParquetObject.open(backend, "bad-header.parquet"), "image_bytes");
        assertThatThrownBy(() -> reader.read(0, new int[] {(int) page.firstRow()}))
                .isInstanceOf(ParquetFormatException.class)
                .hasMessageContaining("offset " + page.offset())
                .hasMessageContaining("column image_bytes of row group 0 of bad-header.parquet");
        assertThat(ByteRange.of(page.offset(), page.compressedSize()).length()).isPositive();
    }
}
