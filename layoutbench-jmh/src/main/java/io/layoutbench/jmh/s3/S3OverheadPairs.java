package io.layoutbench.jmh.s3;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The S3 backend's overhead over the bare SDK as a ratio that survives a noisy machine: the two GET loops of
 * {@link S3RangedGetBenchmark} run in alternating windows (backend then SDK, then SDK then backend, ...), each pair
 * gives one ratio of GETs/s, and the median ratio over the pairs is reported with its range. Drift in the machine's
 * load shifts both halves of a pair alike, where JMH's one-loop-after-the-other runs put it into the ratio.
 *
 * <pre>
 * java -cp layoutbench-jmh/target/benchmarks.jar io.layoutbench.jmh.s3.S3OverheadPairs [pairs] [window-ms] [concurrency,...]
 * java -cp layoutbench-jmh/target/benchmarks.jar io.layoutbench.jmh.s3.S3OverheadPairs 12 2000 1,16,64
 * </pre>
 */
public final class S3OverheadPairs {

    private static final long DRAIN_TIMEOUT_SECONDS = 60;

    private S3OverheadPairs() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        long windowMillis = args.length > 1 ? Long.parseLong(args[1]) : 2000;
        int[] concurrencies = Arrays.stream((args.length > 2 ? args[2] : "1,16,64").split(","))
                .mapToInt(Integer::parseInt).toArray();
        if (pairs < 1 || windowMillis < 100 || concurrencies.length == 0) {
            throw new IllegalArgumentException("Usage: S3OverheadPairs [pairs >= 1] [window-ms >= 100] [c1,c2,...]");
        }
        System.out.printf(Locale.ROOT, "%d pairs of %d ms windows per concurrency, 100 KB ranged GETs, embedded "
                + "s3proxy on loopback, %d cores, Java %s%n", pairs, windowMillis,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        System.out.println("| concurrency | backend GETs/s | sdkDirect GETs/s | backend ÷ sdkDirect, median | "
                + "min-max over pairs |");
        System.out.println("|--:|--:|--:|--:|--:|");
        try (S3RangedGets gets = S3RangedGets.start()) {
            for (int concurrency : concurrencies) {
                long window = windowMillis * 1_000_000L;
                for (int i = 0; i < 4; i++) {     // warm up both paths, the server and the JIT
                    rate(gets::backendGet, concurrency, window);
                    rate(gets::sdkGet, concurrency, window);
                }
                double[] backend = new double[pairs];
                double[] sdk = new double[pairs];
                double[] ratio = new double[pairs];
                for (int p = 0; p < pairs; p++) {
                    if (p % 2 == 0) {
                        backend[p] = rate(gets::backendGet, concurrency, window);
                        sdk[p] = rate(gets::sdkGet, concurrency, window);
                    } else {
                        sdk[p] = rate(gets::sdkGet, concurrency, window);
                        backend[p] = rate(gets::backendGet, concurrency, window);
                    }
                    ratio[p] = backend[p] / sdk[p];
                }
                double[] sorted = ratio.clone();
                Arrays.sort(sorted);
                System.out.printf(Locale.ROOT, "| %d | %,.0f | %,.0f | %.3f | %.3f-%.3f |%n", concurrency,
                        median(backend), median(sdk), median(ratio), sorted[0], sorted[pairs - 1]);
            }
        }
    }

    /** GETs per second of a closed loop keeping {@code concurrency} in flight for {@code windowNanos}. */
    private static double rate(Supplier<CompletableFuture<Boolean>> get, int concurrency, long windowNanos)
            throws InterruptedException {
        Semaphore slots = new Semaphore(concurrency);
        AtomicLong done = new AtomicLong();
        List<Throwable> failures = new ArrayList<>();
        long start = System.nanoTime();
        long end = start + windowNanos;
        while (System.nanoTime() < end) {
            slots.acquire();
            CompletableFuture<Boolean> started;
            try {
                started = get.get();
            } catch (RuntimeException e) {
                slots.release();
                throw e;
            }
            started.whenComplete((ok, failure) -> {
                if (failure != null || !ok) {
                    synchronized (failures) {
                        failures.add(failure != null ? failure : new IllegalStateException("wrong length"));
                    }
                }
                done.incrementAndGet();
                slots.release();
            });
        }
        // The window ends when its last GET does; a GET that never ends fails the run rather than hanging it.
        if (!slots.tryAcquire(concurrency, DRAIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("GETs still in flight " + DRAIN_TIMEOUT_SECONDS
                    + " s after the window closed");
        }
        long elapsed = System.nanoTime() - start;
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " GETs failed or returned the wrong length",
                    failures.get(0));
        }
        return done.get() / (elapsed / 1e9);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
