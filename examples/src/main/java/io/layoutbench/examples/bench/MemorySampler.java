package io.layoutbench.examples.bench;

import com.sun.management.GarbageCollectionNotificationInfo;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Measures what the whole JVM used while a piece of work runs: the peak used heap, the peak direct and mapped
 * buffer memory outside it, and the peak resident size of the process, which also holds the JVM's own memory
 * (metaspace, code, thread stacks, garbage collector structures) and anything native libraries allocate.
 *
 * <ul>
 *   <li><b>Heap</b>: a daemon thread samples the used heap every millisecond, and garbage-collection
 *       notifications contribute the heap used just before each collection (the true high-water mark a sampler
 *       could miss between two samples). It counts garbage not yet collected.
 *   <li><b>Direct and mapped</b>: the {@link BufferPoolMXBean} pools {@code direct} ({@code allocateDirect}, and
 *       the JDK's temporary buffers for channel I/O on heap buffers, cached per thread) and {@code mapped}
 *       ({@code FileChannel.map}), sampled with the heap.
 *   <li><b>Resident</b>: Linux's {@code VmHWM} from {@code /proc/self/status}, the kernel's own high-water mark,
 *       which misses nothing. A measurement resets it when it starts (writing {@code 5} to
 *       {@code /proc/self/clear_refs}), so it is this work's peak; where the kernel refuses the reset it is the
 *       process's peak since it started, and without {@code /proc} it is {@link MemoryPeaks#UNKNOWN -1}.
 * </ul>
 *
 * <p>Compare runs with each other, not with the size of a result: the peaks include what the JVM holds for
 * everything else (caches of other datasets, the benchmark's own rows). Not thread-safe: one measurement at a
 * time.
 *
 * <pre>{@code
 * try (MemorySampler.Measurement memory = MemorySampler.start()) {
 *     runQuery();
 *     MemoryPeaks peaks = memory.peaks();
 * }
 * }</pre>
 */
public final class MemorySampler {

    private static final long SAMPLE_INTERVAL_MILLIS = 1;
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");
    /** The largest VmHWM seen before a reset, so that the process's own peak survives the resets. */
    private static final AtomicLong PEAK_BEFORE_RESETS = new AtomicLong(MemoryPeaks.UNKNOWN);

    private MemorySampler() {
    }

    /** Starts measuring. */
    public static Measurement start() {
        return new Measurement();
    }

    /**
     * The peak resident size of this process since it started, resets by measurements included, in bytes; -1
     * where the system does not say ({@code VmHWM} of {@code /proc/self/status} is Linux's).
     */
    public static long processPeakResidentBytes() {
        long now = peakResidentBytes();
        return now < 0 ? now : Math.max(now, PEAK_BEFORE_RESETS.get());
    }

    /** {@code VmHWM} of {@code /proc/self/status} in bytes, or -1 where there is none. */
    static long peakResidentBytes() {
        return procStatusBytes("VmHWM:");
    }

    /** The value of {@code field} (a line {@code "VmHWM:   123 kB"}) of {@code /proc/self/status}, or -1. */
    private static long procStatusBytes(String field) {
        try {
            for (String line : Files.readAllLines(STATUS, StandardCharsets.US_ASCII)) {
                if (line.startsWith(field)) {
                    String[] parts = line.substring(field.length()).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * (parts.length > 1 && parts[1].equals("kB") ? 1024 : 1);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or no /proc: the resident size is unknown.
        }
        return MemoryPeaks.UNKNOWN;
    }

    /** Resets {@code VmHWM} to the current resident size; false where the kernel does not allow it. */
    private static boolean resetPeakResident() {
        long before = peakResidentBytes();
        if (before < 0) {
            return false;
        }
        PEAK_BEFORE_RESETS.accumulateAndGet(before, Math::max);
        try {
            Files.writeString(CLEAR_REFS, "5", StandardCharsets.US_ASCII);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;   // an older kernel, or /proc mounted read-only: VmHWM stays the process's peak
        }
    }

    /** A running measurement; {@link #close()} stops it. */
    public static final class Measurement implements AutoCloseable {
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        private final List<BufferPoolMXBean> directPools = new ArrayList<>();
        private final List<BufferPoolMXBean> mappedPools = new ArrayList<>();
        private final AtomicLong peakHeap = new AtomicLong();
        private final AtomicLong peakDirect = new AtomicLong();
        private final AtomicLong peakMapped = new AtomicLong();
        private final Set<String> heapPools;
        private final List<NotificationEmitter> emitters = new ArrayList<>();
        private final NotificationListener gcListener = this::onGc;
        private final Thread sampler;
        private volatile boolean running = true;

        private Measurement() {
            heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(pool -> pool.getType() == MemoryType.HEAP)
                    .map(MemoryPoolMXBean::getName)
                    .collect(Collectors.toUnmodifiableSet());
            for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
                if (pool.getName().equals("direct")) {
                    directPools.add(pool);
                } else if (pool.getName().startsWith("mapped")) {   // and "mapped - 'non-volatile memory'"
                    mappedPools.add(pool);
                }
            }
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc instanceof NotificationEmitter emitter) {
                    emitter.addNotificationListener(gcListener, null, null);
                    emitters.add(emitter);
                }
            }
            resetPeakResident();
            sample();
            sampler = new Thread(this::sampleUntilClosed, "layoutbench-memory-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        /** The peaks so far. */
        public MemoryPeaks peaks() {
            sample();
            return new MemoryPeaks(peakHeap.get(), peakDirect.get(), peakMapped.get(), peakResidentBytes());
        }

        @Override
        public void close() {
            running = false;
            sampler.interrupt();
            try {
                sampler.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (NotificationEmitter emitter : emitters) {
                try {
                    emitter.removeNotificationListener(gcListener);
                } catch (ListenerNotFoundException ignored) {
                    // Already gone: nothing to remove.
                }
            }
        }

        private void sampleUntilClosed() {
            while (running) {
                sample();
                try {
                    Thread.sleep(SAMPLE_INTERVAL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void sample() {
            peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
            peakDirect.accumulateAndGet(used(directPools), Math::max);
            peakMapped.accumulateAndGet(used(mappedPools), Math::max);
        }

        private static long used(List<BufferPoolMXBean> pools) {
            long used = 0;
            for (BufferPoolMXBean pool : pools) {
                used += Math.max(0, pool.getMemoryUsed());
            }
            return used;
        }

        private void onGc(Notification notification, Object handback) {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                return;
            }
            GarbageCollectionNotificationInfo info =
                    GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
            long before = 0;
            for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageBeforeGc().entrySet()) {
                if (heapPools.contains(pool.getKey())) {
                    before += pool.getValue().getUsed();
                }
            }
            peakHeap.accumulateAndGet(before, Math::max);
        }
    }
}
