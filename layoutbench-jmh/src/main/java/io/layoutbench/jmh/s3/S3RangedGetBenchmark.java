package io.layoutbench.jmh.s3;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.backend.s3.S3Backend;
import io.layoutbench.backend.s3.S3Options;
import io.layoutbench.s3.embedded.EmbeddedS3Server;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

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

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;

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
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// The server runs in the benchmark's JVM and warms up with it: short warmups understate both loops.
@Warmup(iterations = 6, time = 4)
@Measurement(iterations = 4, time = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class S3RangedGetBenchmark {

    static final String BUCKET = "bench";
    static final String KEY = "ranged/object.bin";
    static final int OBJECT_SIZE = 32 << 20;
    static final int RANGE = 100_000;
    static final int OFFSETS = 4096;

    @Param({"1", "16", "64"})
    int concurrency;

    private Path dir;
    private EmbeddedS3Server server;
    private S3Backend backend;
    private S3AsyncClient client;
    private long[] offsets;
    private int next;
    private Semaphore slots;
    private final AtomicLong wrong = new AtomicLong();

    @Setup(Level.Trial)
    public void start() throws IOException {
        dir = Files.createTempDirectory("layoutbench-s3-bench");
        server = EmbeddedS3Server.start(dir);
        server.createBucket(BUCKET);
        backend = new S3Backend(URI.create("s3://" + BUCKET), S3Options.fromProperties(server.backendProperties()),
                RequestMetrics.NONE);
        byte[] data = new byte[OBJECT_SIZE];
        new Random(1).nextBytes(data);
        backend.put(KEY, data);
        client = S3AsyncClient.crtBuilder()
                .region(Region.of(server.region()))
                .endpointOverride(server.endpoint())
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .retryConfiguration(retry -> retry.numRetries(1))
                .build();
        Random random = new Random(2);
        offsets = new long[OFFSETS];
        for (int i = 0; i < OFFSETS; i++) {
            offsets[i] = random.nextInt(OBJECT_SIZE - RANGE);
        }
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
        client.close();
        backend.close();
        server.close();
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private long nextOffset() {
        next = (next + 1) & (OFFSETS - 1);
        return offsets[next];
    }

    @Benchmark
    public void backend() throws InterruptedException {
        slots.acquire();
        backend.readRangeAsync(KEY, ByteRange.of(nextOffset(), RANGE)).whenComplete((buffer, failure) -> {
            if (failure != null || buffer.remaining() != RANGE) {
                wrong.incrementAndGet();
            }
            slots.release();
        });
    }

    @Benchmark
    public void sdkDirect() throws InterruptedException {
        slots.acquire();
        long offset = nextOffset();
        GetObjectRequest request = GetObjectRequest.builder()
                .bucket(BUCKET)
                .key(KEY)
                .range("bytes=" + offset + "-" + (offset + RANGE - 1))
                .build();
        client.getObject(request, AsyncResponseTransformer.toBytes()).whenComplete((bytes, failure) -> {
            if (failure != null || bytes.asByteArrayUnsafe().length != RANGE) {
                wrong.incrementAndGet();
            }
            slots.release();
        });
    }
}
