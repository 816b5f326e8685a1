package io.layoutbench.examples.bench;

/**
 * What a piece of work used at most, from {@link MemorySampler}, in bytes.
 *
 * @param heapBytes     peak used heap of the whole JVM
 * @param directBytes   peak direct buffer memory ({@code BufferPoolMXBean} "direct")
 * @param mappedBytes   peak mapped buffer memory ({@code BufferPoolMXBean} "mapped")
 * @param residentBytes peak resident size of the process ({@code VmHWM}), or {@link #UNKNOWN} where the system does
 *                      not say
 */
public record MemoryPeaks(long heapBytes, long directBytes, long mappedBytes, long residentBytes) {

    /** A value the system does not report (the resident size off Linux). */
    public static final long UNKNOWN = -1;

    public MemoryPeaks {
        if (heapBytes < 0 || directBytes < 0 || mappedBytes < 0 || residentBytes < UNKNOWN) {
            throw new IllegalArgumentException("Memory peaks cannot be negative: heap " + heapBytes + ", direct "
                    + directBytes + ", mapped " + mappedBytes + ", resident " + residentBytes);
        }
    }
}
