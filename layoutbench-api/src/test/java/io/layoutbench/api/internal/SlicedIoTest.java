package io.layoutbench.api.internal;

import static io.layoutbench.api.internal.SlicedIo.SLICE_BYTES;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlicedIoTest {

    private static final int SIZE = 3 * SLICE_BYTES + 12_345;

    @TempDir
    Path dir;

    @Test
    void readsAndWritesAHeapBufferAtMostOneSliceAtATimeAndKeepItsLimit() throws IOException {
        byte[] bytes = randomBytes(SIZE);
        Path file = dir.resolve("f");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            ByteBuffer source = ByteBuffer.wrap(bytes);
            List<Integer> written = new ArrayList<>();
            while (source.hasRemaining()) {
                written.add(SlicedIo.write(channel, source));
                assertThat(source.limit()).isEqualTo(SIZE);
            }
            assertThat(written).hasSize(4).allMatch(n -> n <= SLICE_BYTES);

            ByteBuffer target = ByteBuffer.allocate(SIZE);
            List<Integer> read = new ArrayList<>();
            while (target.hasRemaining()) {
                read.add(SlicedIo.read(channel, target, target.position()));
                assertThat(target.limit()).isEqualTo(SIZE);
            }
            assertThat(read).allMatch(n -> n > 0 && n <= SLICE_BYTES);
            assertThat(target.array()).isEqualTo(bytes);
            assertThat(SlicedIo.read(channel, ByteBuffer.allocate(10), SIZE)).isEqualTo(-1);

            ByteBuffer again = ByteBuffer.wrap(bytes, 100, 2 * SLICE_BYTES);
            assertThat(SlicedIo.write(channel, again, SIZE)).isEqualTo(SLICE_BYTES);
            assertThat(again.position()).isEqualTo(100 + SLICE_BYTES);
            assertThat(again.limit()).isEqualTo(100 + 2 * SLICE_BYTES);
        }
    }

    @Test
    void aDirectBufferMovesWhole() throws IOException {
        Path file = dir.resolve("d");
        Files.write(file, randomBytes(SIZE));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer direct = ByteBuffer.allocateDirect(SIZE);
            // A local file reads whole in one call: the slicing does not apply to a buffer that needs no copy.
            assertThat(SlicedIo.read(channel, direct, 0)).isEqualTo(SIZE);
        }
    }

    @Test
    void streamsAskForAndPassOnAtMostOneSlicePerCall() throws IOException {
        byte[] bytes = randomBytes(SIZE);
        List<Integer> asked = new ArrayList<>();
        InputStream recording = new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                asked.add(len);
                return super.read(b, off, len);
            }
        };
        try (InputStream in = SlicedIo.slicedReads(recording)) {
            assertThat(in.readNBytes(SIZE)).isEqualTo(bytes);
        }
        assertThat(asked).isNotEmpty().allMatch(len -> len <= SLICE_BYTES);

        List<Integer> passed = new ArrayList<>();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        OutputStream recordingOut = new OutputStream() {
            @Override
            public void write(int b) {
                sink.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                passed.add(len);
                sink.write(b, off, len);
            }
        };
        try (OutputStream out = SlicedIo.slicedWrites(recordingOut)) {
            out.write(bytes, 7, SIZE - 7);
            out.write(bytes, 0, 7);
        }
        assertThat(passed).containsExactly(SLICE_BYTES, SLICE_BYTES, SLICE_BYTES, 12_345 - 7, 7);
        byte[] expected = new byte[SIZE];
        System.arraycopy(bytes, 7, expected, 0, SIZE - 7);
        System.arraycopy(bytes, 0, expected, SIZE - 7, 7);
        assertThat(sink.toByteArray()).isEqualTo(expected);
    }

    @Test
    void readAllBytesReadsTheWholeFile() throws IOException {
        byte[] bytes = randomBytes(SIZE);
        Path file = dir.resolve("all");
        Files.write(file, bytes);
        Path empty = Files.createFile(dir.resolve("empty"));

        assertThat(SlicedIo.readAllBytes(file)).isEqualTo(bytes);
        assertThat(SlicedIo.readAllBytes(empty)).isEmpty();
    }

    private static byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }
}
