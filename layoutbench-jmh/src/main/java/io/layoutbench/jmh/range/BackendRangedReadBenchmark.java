package io.layoutbench.jmh.range;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.commons.io.file.PathUtils;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Ranged reads of {@code rangeBytes} at random offsets of one 64 MiB object through the two local backends,
 * opened as users open them ({@code ObjectBackends.open("mem:...")} and {@code "file:/tmp/..."}):
 * <ul>
 *   <li>{@code readRange}: one blocking {@link ObjectBackend#readRange} at a time.</li>
 *   <li>{@code readRangeAsync}: {@value #IN_FLIGHT} {@link ObjectBackend#readRangeAsync} calls started, then all
 *       joined; counted as {@value #IN_FLIGHT} operations.</li>
 * </ul>
 *
 * <p>The primary score is reads per second (ops/s). The secondary score {@code mebibytes} is MiB/s of range
 * bytes returned (reads x {@code rangeBytes}). Every returned buffer is checked for length and its first and
 * last bytes go to the Blackhole. Read the two backends differently: {@code mem:} returns a read-only slice of the
 * stored array without copying, so its MiB/s is a call rate times a size, not a copy speed; {@code file:} copies
 * from the page cache (the object is written once and read repeatedly, so it stays cached) on the backend's I/O
 * threads, so it measures a real copy plus a thread hand-off per read.
 *
 * <pre>
 * java -jar layoutbench-jmh/target/benchmarks.jar BackendRangedReadBenchmark
 * java -jar layoutbench-jmh/target/benchmarks.jar BackendRangedReadBenchmark -p backend=file -p rangeBytes=1048576
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class BackendRangedReadBenchmark {

    static final String KEY = "ranged/object.bin";
    static final int OBJECT_SIZE = 64 << 20;
    /** Reads started before the first is joined in {@link #readRangeAsync}. */
    static final int IN_FLIGHT = 16;
    /** Precomputed offsets, cycled through; a power of two. */
    static final int OFFSETS = 1024;

    @Param({"mem", "file"})
    public String backend;

    /** 4 KiB, 64 KiB, 1 MiB, 4 MiB. */
    @Param({"4096", "65536", "1048576", "4194304"})
    public int rangeBytes;

    private Path dir;
    private ObjectBackend store;
    private long[] offsets;
    private int next;

    /** Range bytes returned, reported by JMH per second of measurement. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Transferred {
        public double mebibytes;
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (backend.equals("mem")) {
            store = ObjectBackends.open("mem:backend-ranged-read-" + System.nanoTime());
        } else {
            dir = Files.createTempDirectory("layoutbench-range-bench");
            store = ObjectBackends.open(dir.toUri().toString());
        }
        byte[] data = new byte[OBJECT_SIZE];
        new Random(1).nextBytes(data);
        store.put(KEY, data);
        Random random = new Random(2);
        offsets = new long[OFFSETS];
        for (int i = 0; i < OFFSETS; i++) {
            offsets[i] = random.nextInt(OBJECT_SIZE - rangeBytes + 1);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        if (dir != null) {
            PathUtils.deleteDirectory(dir);
        }
    }

    private ByteRange nextRange() {
        next = (next + 1) & (OFFSETS - 1);
        return ByteRange.of(offsets[next], rangeBytes);
    }

    @Benchmark
    public void readRange(Transferred transferred, Blackhole blackhole) {
        consume(store.readRange(KEY, nextRange()), transferred, blackhole);
    }

    @Benchmark
    @OperationsPerInvocation(IN_FLIGHT)
    public void readRangeAsync(Transferred transferred, Blackhole blackhole) {
        @SuppressWarnings("unchecked")
        CompletableFuture<ByteBuffer>[] reads = new CompletableFuture[IN_FLIGHT];
        for (int i = 0; i < IN_FLIGHT; i++) {
            reads[i] = store.readRangeAsync(KEY, nextRange());
        }
        for (CompletableFuture<ByteBuffer> read : reads) {
            consume(ObjectBackend.await(read), transferred, blackhole);
        }
    }

    private void consume(ByteBuffer bytes, Transferred transferred, Blackhole blackhole) {
        if (bytes.remaining() != rangeBytes) {
            throw new IllegalStateException("Read " + bytes.remaining() + " bytes of a " + rangeBytes + "-byte range");
        }
        // Touch both ends so a lazily filled buffer could not pass unread.
        blackhole.consume(bytes.get(bytes.position()));
        blackhole.consume(bytes.get(bytes.limit() - 1));
        transferred.mebibytes += rangeBytes / (double) (1 << 20);
    }
}
