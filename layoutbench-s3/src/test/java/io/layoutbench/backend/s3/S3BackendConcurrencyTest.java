package io.layoutbench.backend.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.testing.TestBytes;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Hundreds of ranged reads at once on one backend (one client, one connection pool) return exactly their bytes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class S3BackendConcurrencyTest {

    private static final List<String> KEYS = List.of("c/a.bin", "c/b.bin", "c/c.bin", "c/d.bin");
    private static final int SIZE = 2 << 20;

    private S3Backend backend;

    @BeforeEach
    void putObjects() {
        backend = new S3Backend(SharedS3Server.freshUri("concurrency"), SharedS3Server.options(),
                RequestMetrics.NONE);
        for (String key : KEYS) {
            backend.put(key, TestBytes.of(key, SIZE));
        }
    }

    @AfterEach
    void close() {
        backend.close();
    }

    @Test
    void fiveHundredAsynchronousRangedReadsInFlightAtOnce() {
        QueryMetrics metrics = new QueryMetrics();
        ObjectBackend counted = backend.withMetrics(metrics);
        Random random = new Random(7);
        int reads = 500;
        List<String> keys = new ArrayList<>();
        List<ByteRange> ranges = new ArrayList<>();
        List<CompletableFuture<ByteBuffer>> futures = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < reads; i++) {
            String key = KEYS.get(random.nextInt(KEYS.size()));
            long offset = random.nextInt(SIZE);
            ByteRange range = ByteRange.of(offset, 1 + random.nextInt((int) Math.min(SIZE - offset, 200_000)));
            keys.add(key);
            ranges.add(range);
            bytes += range.length();
            futures.add(counted.readRangeAsync(key, range));   // all issued before any is awaited
        }

        for (int i = 0; i < reads; i++) {
            ByteBuffer got = futures.get(i).join();
            assertThat(got.remaining()).isEqualTo((int) ranges.get(i).length());
            TestBytes.verify(keys.get(i), ranges.get(i).offset(), got);
        }
        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.requests(RequestKind.RANGE_GET)).isEqualTo(reads);
        assertThat(snapshot.bytesReceived()).isEqualTo(bytes);
        assertThat(snapshot.totalRetries()).isZero();
    }

    @Test
    void manyThreadsBlockingOnReadsOfTheSameObject() throws Exception {
        int threads = 64;
        int readsEach = 20;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = t;
                results.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int r = 0; r < readsEach; r++) {
                        long offset = random.nextInt(SIZE - 100_000);
                        ByteBuffer got = backend.readRange("c/a.bin", ByteRange.of(offset, 100_000));
                        TestBytes.verify("c/a.bin", offset, got);
                    }
                    return readsEach;
                }));
            }
            int total = 0;
            for (Future<Integer> result : results) {
                total += result.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(threads * readsEach);
        } finally {
            pool.shutdownNow();
        }
    }
}
