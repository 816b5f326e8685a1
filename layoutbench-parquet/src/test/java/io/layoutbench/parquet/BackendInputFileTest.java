package io.layoutbench.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.backend.memory.MemoryBackend;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.util.List;

import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BackendInputFileTest {

    private static final int SIZE = 1 << 20;

    private final MemoryBackend backend = new MemoryBackend();
    private final QueryMetrics metrics = new QueryMetrics();
    private final ObjectBackend counted;

    BackendInputFileTest() {
        byte[] content = new byte[SIZE];
        for (int i = 0; i < SIZE; i++) {
            content[i] = (byte) (i * 31 + (i >> 8));
        }
        backend.put("obj.bin", content);
        counted = backend.withMetrics(metrics);
    }

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    private static byte at(long offset) {
        return (byte) (offset * 31 + (offset >> 8));
    }

    private static void assertContent(ByteBuffer buffer, long offset) {
        for (int i = 0; i < buffer.remaining(); i++) {
            assertThat(buffer.get(buffer.position() + i)).as("byte at %d", offset + i).isEqualTo(at(offset + i));
        }
    }

    private long requests() {
        return metrics.snapshot().totalRequests();
    }

    @Test
    void asksTheLengthOnceOrNotAtAll() {
        BackendInputFile file = new BackendInputFile(counted, "obj.bin");
        assertThat(file.getLength()).isEqualTo(SIZE);
        assertThat(file.getLength()).isEqualTo(SIZE);
        assertThat(metrics.snapshot().requests(RequestKind.HEAD)).isEqualTo(1);

        BackendInputFile known = new BackendInputFile(counted, "obj.bin", SIZE, FetchOptions.defaults());
        assertThat(known.getLength()).isEqualTo(SIZE);
        assertThat(metrics.snapshot().requests(RequestKind.HEAD)).isEqualTo(1);
    }

    @Test
    void keepsTheTailAndRetainedRegions() {
        BackendInputFile file = new BackendInputFile(counted, "obj.bin", SIZE, FetchOptions.defaults());
        ByteBuffer tail = file.tail();
        assertThat(tail.remaining()).isEqualTo(FetchOptions.DEFAULT_TAIL_SIZE);
        assertContent(tail, SIZE - FetchOptions.DEFAULT_TAIL_SIZE);
        file.retain(ByteRange.of(1000, 5000));
        assertThat(requests()).isEqualTo(2);

        assertContent(file.read(ByteRange.of(SIZE - 100, 100)), SIZE - 100);
        assertContent(file.read(ByteRange.of(1500, 2000)), 1500);
        assertThat(file.tail().remaining()).isEqualTo(FetchOptions.DEFAULT_TAIL_SIZE);
        assertThat(requests()).isEqualTo(2);
    }

    @Test
    void mergesNearbyRangesIntoOneRequestEach() {
        BackendInputFile file = new BackendInputFile(counted, "obj.bin", SIZE,
                FetchOptions.defaults().withMergeGap(1000));
        List<ByteRange> ranges = List.of(ByteRange.of(50_000, 100), ByteRange.of(10, 100),
                ByteRange.of(500, 100), ByteRange.of(1_000, 10), ByteRange.of(600_000, 7), ByteRange.of(520, 5));
        List<ByteBuffer> parts = file.readAll(ranges);

        // [10, 1010) serves four ranges; 50000 and 600000 are alone.
        assertThat(requests()).isEqualTo(3);
        assertThat(metrics.snapshot().bytesReceived()).isEqualTo(1000 + 100 + 7);
        for (int i = 0; i < ranges.size(); i++) {
            assertThat(parts.get(i).remaining()).isEqualTo((int) ranges.get(i).length());
            assertThat(parts.get(i).isReadOnly()).isTrue();
            assertContent(parts.get(i), ranges.get(i).offset());
        }
    }

    @Test
    void streamBuffersSmallReads() throws Exception {
        BackendInputFile file = new BackendInputFile(counted, "obj.bin", SIZE,
                FetchOptions.defaults().withBufferSize(4096));
        try (SeekableInputStream in = file.newStream()) {
            in.seek(100_000);
            for (int i = 0; i < 10_000; i++) {
                assertThat((byte) in.read()).isEqualTo(at(100_000 + i));
            }
            assertThat(in.getPos()).isEqualTo(110_000);
            assertThat(requests()).isEqualTo(3);   // 10,000 bytes in 4 KiB buffers

            byte[] big = new byte[100_000];
            in.readFully(big);
            assertContent(ByteBuffer.wrap(big), 110_000);
            assertThat(requests()).isEqualTo(4);   // the rest of the buffer, then one request for the remainder

            in.seek(SIZE - 10);
            ByteBuffer last = ByteBuffer.allocate(20);
            assertThatThrownBy(() -> in.readFully(last)).isInstanceOf(EOFException.class)
                    .hasMessageContaining("obj.bin").hasMessageContaining("offset " + SIZE);
            assertThatThrownBy(() -> in.seek(SIZE + 1)).isInstanceOf(EOFException.class)
                    .hasMessageContaining("offset " + (SIZE + 1));
        }
    }

    @Test
    void streamReadsInsideTheTailCostNothing() throws Exception {
        BackendInputFile file = new BackendInputFile(counted, "obj.bin", SIZE, FetchOptions.defaults());
        file.tail();
        try (SeekableInputStream in = file.newStream()) {
            in.seek(SIZE - 5000);
            byte[] bytes = new byte[5000];
            in.readFully(bytes);
            assertContent(ByteBuffer.wrap(bytes), SIZE - 5000);
        }
        assertThat(requests()).isEqualTo(1);
    }

    @Test
    void streamReadsNearTheEndFetchTheWholeTailOnce() throws Exception {
        // As parquet-java reads a footer: its length and magic, then the footer, then the page indexes before it.
        BackendInputFile file = new BackendInputFile(counted, "obj.bin", SIZE, FetchOptions.defaults());
        try (SeekableInputStream in = file.newStream()) {
            byte[] lengthAndMagic = new byte[8];
            in.seek(SIZE - 8);
            in.readFully(lengthAndMagic);
            assertContent(ByteBuffer.wrap(lengthAndMagic), SIZE - 8);
            byte[] footer = new byte[30_000];
            in.seek(SIZE - 8 - footer.length);
            in.readFully(footer);
            assertContent(ByteBuffer.wrap(footer), SIZE - 8 - footer.length);
        }
        assertThat(requests()).isEqualTo(1);
    }

    @Test
    void readVectoredSendsOneRequestPerMergedRange() throws Exception {
        BackendInputFile file = new BackendInputFile(counted, "obj.bin", SIZE,
                FetchOptions.defaults().withMergeGap(64));
        List<ParquetFileRange> ranges = List.of(new ParquetFileRange(0, 100), new ParquetFileRange(150, 100),
                new ParquetFileRange(200_000, 4096));
        try (SeekableInputStream in = file.newStream()) {
            assertThat(in.readVectoredAvailable(new HeapByteBufferAllocator())).isTrue();
            in.readVectored(ranges, new HeapByteBufferAllocator());
        }
        for (ParquetFileRange range : ranges) {
            ByteBuffer bytes = range.getDataReadFuture().get();
            assertThat(bytes.remaining()).isEqualTo(range.getLength());
            assertContent(bytes, range.getOffset());
        }
        assertThat(requests()).isEqualTo(2);
    }

    @Test
    void failsNamingTheKeyAndRange() {
        BackendInputFile file = new BackendInputFile(backend, "obj.bin");
        assertThatThrownBy(() -> file.read(ByteRange.of(SIZE - 10, 20)))
                .hasMessageContaining("obj.bin").hasMessageContaining(String.valueOf(SIZE - 10));
    }
}
