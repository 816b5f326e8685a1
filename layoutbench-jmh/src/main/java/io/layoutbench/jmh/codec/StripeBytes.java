package io.layoutbench.jmh.codec;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Counts the data bytes (k blocks per stripe) the codec benchmarks code. With the benchmarks' output unit of
 * microseconds JMH reports it as {@code dataBytes ops/us}: bytes per microsecond, which is MB/s (10^6 bytes per
 * second) of data.
 *
 * <pre>{@code
 * @Benchmark public void encode(StripeBytes bytes) {
 *     coder.encode(shards, 0, blockSize);
 *     bytes.dataBytes += dataBytes;
 * }
 * }</pre>
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class StripeBytes {

    /** Data bytes coded in this iteration; JMH turns it into a rate. */
    public long dataBytes;

    @Setup(Level.Iteration)
    public void reset() {
        dataBytes = 0;
    }
}
