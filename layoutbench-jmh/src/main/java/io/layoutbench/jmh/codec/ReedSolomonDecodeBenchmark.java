package io.layoutbench.jmh.codec;

import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.codec.ErasureCoder;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;

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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reed-Solomon decoding, one thread: one stripe of {@code blockSize}-byte blocks that lost its first
 * {@code erasures} data blocks is rebuilt per operation (a degraded read), for Backblaze JavaReedSolomon and fast-rs
 * on each kernel. Read the {@code dataBytes} line: stripe data bytes (k blocks) per microsecond, that is MB/s
 * (10^6 B/s), comparable with {@link ReedSolomonEncodeBenchmark}'s. The primary ops/us line is stripes per
 * microsecond.
 *
 * <pre>
 * java -jar layoutbench-jmh/target/benchmarks.jar ReedSolomonDecodeBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s \
 *     -p code=rs-9-6 -p blockSize=1048576
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--add-modules=jdk.incubator.vector")
public class ReedSolomonDecodeBenchmark {

    /** The code, RS(9,6) or RS(14,10), written without a comma: JMH splits -p values at commas. */
    @Param({"rs-9-6", "rs-14-10"})
    public String code;

    /** Bytes per block: 64 KiB to 4 MiB. */
    @Param({"65536", "262144", "1048576", "4194304"})
    public int blockSize;

    /** Data blocks lost, the first ones of the stripe. */
    @Param({"1", "3"})
    public int erasures;

    @Param({"backblaze", "fast-vector", "fast-scalar"})
    public String codec;

    private ErasureCoder coder;
    private byte[][] shards;
    private boolean[] present;
    private long dataBytes;

    @Setup(Level.Trial)
    public void setUp() {
        CodeParameters parameters = CodeParameters.parse(code);
        if (erasures > parameters.parityBlocks()) {
            throw new IllegalArgumentException(parameters + " cannot lose " + erasures + " blocks");
        }
        coder = BenchmarkedCodec.of(codec).codec().coder(parameters);
        shards = new byte[parameters.totalBlocks()][blockSize];
        Random random = new Random(1);
        for (int b = 0; b < parameters.dataBlocks(); b++) {
            random.nextBytes(shards[b]);
        }
        coder.encode(shards, 0, blockSize);
        present = new boolean[parameters.totalBlocks()];
        Arrays.fill(present, erasures, present.length, true);
        // Every operation overwrites the lost blocks with what they were: no reset is needed between operations.
        dataBytes = (long) parameters.dataBlocks() * blockSize;
    }

    @Benchmark
    public byte[][] decode(StripeBytes bytes) {
        coder.decode(shards, present, 0, blockSize);
        bytes.dataBytes += dataBytes;
        return shards;
    }
}
