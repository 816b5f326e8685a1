package io.layoutbench.jmh.range;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RangeCoalescer;

import java.util.ArrayList;
import java.util.List;
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
 * The range-coalescing planner, {@link RangeCoalescer#coalesce}: turning {@code ranges} sample ranges into
 * requests, merging neighbours at most {@code maxGap} bytes apart into reads of at most 16 MiB (the planner's
 * default cap). This runs on the client for every L2 query (per shard) and every blob-page fetch, before the first
 * byte is requested.
 *
 * <p>The ranges look like an L2 query's: tar members of log-normal size (median about 93 KB, mean about 110 KB,
 * as ImageNet JPEGs) behind 512-byte headers, padded to 512 bytes, of which a random quarter are selected, handed
 * over in ascending offset order as L2 hands them. {@code maxGap} 0 merges only touching ranges (what a network
 * with no latency derives), 16 KiB is DuckDB's gap, 1 MiB is about the gap derived for t3.medium (setup prints
 * the derived default). Setup prints how many requests each setting produces.
 *
 * <pre>
 * java -jar layoutbench-jmh/target/benchmarks.jar RangeCoalescerBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class RangeCoalescerBenchmark {

    static final int TAR_RECORD = 512;

    @Param({"1000", "10000", "100000"})
    public int ranges;

    @Param({"0", "16384", "1048576"})
    public long maxGap;

    private List<ByteRange> selected;

    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(7);
        selected = new ArrayList<>(ranges);
        long offset = 0;
        while (selected.size() < ranges) {
            long size = Math.max(2_000L, (long) Math.exp(11.44 + 0.58 * random.nextGaussian()));
            long dataOffset = offset + TAR_RECORD;
            if (random.nextInt(4) == 0) {
                selected.add(ByteRange.of(dataOffset, size));
            }
            offset = dataOffset + (size + TAR_RECORD - 1) / TAR_RECORD * TAR_RECORD;
        }
        int requests = coalesce().size();
        System.out.printf("%n%d ranges over %d MB, gap %d: %d requests (gap derived for QueryOptions.defaults(): %d)%n",
                ranges, offset >> 20, maxGap, requests, RangeCoalescer.gapFor(QueryOptions.defaults()));
    }

    @Benchmark
    public List<RangeCoalescer.Merged> coalesce() {
        return RangeCoalescer.coalesce(selected, maxGap, RangeCoalescer.DEFAULT_MAX_MERGED_BYTES);
    }
}
