package io.layoutbench.examples.cli;

import io.layoutbench.examples.bench.MemoryPeaks;
import io.layoutbench.examples.bench.MemorySampler;

/**
 * {@link LayoutBenchCli#main}, as {@code ./layoutbench} runs it, which prints when the process exits what it used at
 * most: one line on standard error, {@value #PREFIX}{@code heap=... direct=... mapped=... rss=...} (bytes; rss is the
 * process's {@code VmHWM} since it started, -1 where the system does not say). For {@link BoundedMemoryTest}.
 */
public final class PeakMemoryCli {

    /** How the line starts. */
    public static final String PREFIX = "peak-memory ";

    private PeakMemoryCli() {
    }

    public static void main(String[] args) {
        MemorySampler.Measurement memory = MemorySampler.start();
        // main ends in System.exit: the hook reports once the command is done.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            MemoryPeaks peaks = memory.peaks();
            System.err.println(PREFIX + "heap=" + peaks.heapBytes() + " direct=" + peaks.directBytes() + " mapped="
                    + peaks.mappedBytes() + " rss=" + MemorySampler.processPeakResidentBytes());
            System.err.flush();
        }));
        LayoutBenchCli.main(args);
    }
}
