package io.layoutbench.jmh.stripe;

import io.layoutbench.evaluation.fac.ZipfChunkSizes;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.stripe.StripeAssignment;
import io.layoutbench.fusion.stripe.StripeConstructor;
import io.layoutbench.fusion.stripe.StripeConstructors;

import java.util.SplittableRandom;
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
 * FAC stripe construction, the planning step before any parity is computed: packing {@code chunks} column-chunk
 * sizes into stripes of k = 6 data blocks for RS(9,6), never splitting a chunk. {@code fac} is the Fusion paper's
 * Algorithm 1; {@code fac-refined} is Algorithm 1 followed by this library's pairwise refinement (the default of
 * the {@code fac} layout); {@code fac-refined-thorough} is the larger search ({@link StripeConstructors#named}).
 *
 * <p>Sizes are the Fusion paper's synthetic ones ({@link ZipfChunkSizes}, 1-100 MiB, Zipf exponent
 * {@code zipfExponent}), drawn once per trial from a fixed seed, so every constructor packs the same chunks. Setup
 * prints the extra storage overhead each constructor reaches, so time can be weighed against the parity saved.
 *
 * <pre>
 * java -jar layoutbench-jmh/target/benchmarks.jar StripeConstructionBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class StripeConstructionBenchmark {

    static final CodeParameters CODE = CodeParameters.rs(9, 6);

    @Param({"100", "1000", "10000"})
    public int chunks;

    @Param({"fac", "fac-refined", "fac-refined-thorough"})
    public String constructor;

    /** 0.99: the paper's most skewed setting, where most chunks are small and packing matters most. */
    @Param({"0.99"})
    public double zipfExponent;

    private StripeConstructor stripes;
    private long[] sizes;

    @Setup(Level.Trial)
    public void setUp() {
        stripes = StripeConstructors.named(constructor);
        sizes = new ZipfChunkSizes(zipfExponent).draw(chunks, new SplittableRandom(42));
        StripeAssignment assignment = stripes.construct(sizes, CODE.dataBlocks());
        System.out.printf("%n%s, %d chunks, %s: %d stripes, extra overhead %.4f (parity %d of %d data bytes)%n",
                constructor, chunks, CODE, assignment.stripeCount(), assignment.extraOverhead(),
                assignment.parityBytes(CODE), assignment.dataBytes());
    }

    @Benchmark
    public StripeAssignment construct() {
        return stripes.construct(sizes, CODE.dataBlocks());
    }
}
