package io.layoutbench.api.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.internal.SlicedIo;
import io.layoutbench.api.metrics.RequestMetrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default {@link ObjectBackend#put(String, Path)}: what it hands the backend's stream-taking put. */
class ObjectBackendPutFileTest {

    @TempDir
    Path dir;

    @Test
    void aBackendReadingTheWholeFileAtOnceTakesNoDirectBufferOfItsSize() throws Exception {
        int size = 16 << 20;
        Path file = dir.resolve("big.bin");
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            out.setLength(size);
        }
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow();
        AtomicLong stored = new AtomicLong();
        AtomicLong taken = new AtomicLong();
        // A thread of its own: a temporary direct buffer stays cached in the thread that took it.
        Thread putter = new Thread(() -> {
            long before = direct.getMemoryUsed();
            new WholeReadingBackend(stored).put("big.bin", file);
            taken.set(direct.getMemoryUsed() - before);
        });
        putter.start();
        putter.join();

        assertThat(stored.get()).isEqualTo(size);
        assertThat(taken.get()).as("direct memory taken and kept by reading the file")
                .isLessThanOrEqualTo(SlicedIo.SLICE_BYTES);
    }

    /** Stores nothing; reads a put's stream with one call for all its bytes, as a backend buffering objects may. */
    private static final class WholeReadingBackend implements ObjectBackend {
        private final AtomicLong stored;

        WholeReadingBackend(AtomicLong stored) {
            this.stored = stored;
        }

        @Override
        public void put(String key, InputStream data, long length) {
            try {
                stored.set(data.readNBytes(new byte[(int) length], 0, (int) length));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public URI uri() {
            return URI.create("test:/");
        }

        @Override
        public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long size(String key) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Stream<ObjectInfo> list(String prefix) {
            return Stream.empty();
        }

        @Override
        public void delete(String key) {
        }

        @Override
        public ObjectBackend withMetrics(RequestMetrics metrics) {
            return this;
        }

        @Override
        public void close() {
        }
    }
}
