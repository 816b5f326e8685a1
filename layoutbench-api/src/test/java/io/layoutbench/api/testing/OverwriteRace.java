package io.layoutbench.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * One writer overwriting a key while three readers read it, for tests of overwrite atomicity: readers must see one
 * version or another, whole. Every reader reads at least once, and reads until the last write has landed.
 *
 * <pre>{@code
 * backend.put("k", TestBytes.of("a", 4096));
 * OverwriteRace.run(40, i -> backend.put("k", TestBytes.of(i % 2 == 0 ? "a" : "b", 4096)), () -> {
 *     ByteBuffer got = backend.readAll("k");
 *     TestBytes.verify(got.get(0) == TestBytes.at("a", 0) ? "a" : "b", 0, got);
 * });
 * }</pre>
 */
public final class OverwriteRace {

    private static final int READERS = 3;

    private OverwriteRace() {
    }

    /**
     * Calls {@code write} with 1 to {@code writes} on one thread while {@code read} runs in a loop on three others;
     * rethrows the first failure of any.
     */
    public static void run(int writes, IntConsumer write, Runnable read) throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(READERS + 1);
        try {
            Future<?> writer = pool.submit(() -> {
                try {
                    for (int i = 1; i <= writes; i++) {
                        write.accept(i);
                    }
                } finally {
                    writing.set(false);
                }
            });
            List<Future<Integer>> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                readers.add(pool.submit(() -> {
                    int reads = 0;
                    while (writing.get() || reads == 0) {
                        read.run();
                        reads++;
                    }
                    return reads;
                }));
            }
            writer.get(100, TimeUnit.SECONDS);
            for (Future<Integer> reader : readers) {
                assertThat(reader.get(100, TimeUnit.SECONDS)).isPositive();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
