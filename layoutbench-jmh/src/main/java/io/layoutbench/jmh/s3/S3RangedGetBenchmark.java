package io.layoutbench.jmh.s3;

import io.layoutbench.backend.s3.S3Backend;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Ranged 100 KB GETs per second against an embedded S3 server (s3proxy) on loopback, with {@code concurrency}
 * requests in flight: through {@link S3Backend#readRangeAsync} ({@code backend}), and the same loop written
 * directly on an {@link S3AsyncClient} CRT client configured alike ({@code sdkDirect}, with the SDK's usual
 * {@link AsyncResponseTransformer#toBytes()}). The difference is the backend's overhead: key checks, retry and
 * timeout bookkeeping, metrics, the receive-into-one-buffer transformer.
 *
 * <p>A closed loop: each invocation waits for a free slot, starts one GET and returns; completions free slots. So
 * ops/s is GETs/s with exactly {@code concurrency} in flight. Every response is checked for length; a wrong one
 * fails the trial. On a small machine the server shares the cores with the client and is the bottleneck at high
 * concurrency.
 *
 * <pre>
 * java -jar layoutbench-jmh/target/benchmarks.jar S3RangedGetBenchmark
 * </pre>
 *
 * <p>JMH runs the two loops one after the other, so drift on a shared machine lands in their ratio;
 * {@link S3OverheadPairs} alternates them in short windows instead and reports the ratio per pair.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// The server runs in the benchmark's JVM and warms up with it: short warmups understate both loops.
@Warmup(iterations = 6, time = 4)
@Measurement(iterations = 4, time = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class S3RangedGetBenchmark {

    @Param({"1", "16", "64"})
    int concurrency;

    private S3RangedGets gets;
    private Semaphore slots;
    private final AtomicLong wrong = new AtomicLong();

    @Setup(Level.Trial)
    public void start() throws IOException {
        gets = S3RangedGets.start();
    }

    @Setup(Level.Iteration)
    public void openSlots() {
        slots = new Semaphore(concurrency);
    }

    /** Waits for the GETs in flight, so no iteration's work spills into the next. */
    @TearDown(Level.Iteration)
    public void drain() throws InterruptedException {
        slots.acquire(concurrency);
        if (wrong.get() > 0) {
            throw new IllegalStateException(wrong.get() + " GETs failed or returned the wrong length");
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
        gets.close();
    }

    @Benchmark
    public void backend() throws InterruptedException {
        slots.acquire();
        gets.backendGet().whenComplete((ok, failure) -> {
            if (failure != null || !ok) {
                wrong.incrementAndGet();
            }
            slots.release();
        });
    }

    @Benchmark
    public void sdkDirect() throws InterruptedException {
        slots.acquire();
        gets.sdkGet().whenComplete((ok, failure) -> {
            if (failure != null || !ok) {
                wrong.incrementAndGet();
            }
            slots.release();
        });
    }
}
