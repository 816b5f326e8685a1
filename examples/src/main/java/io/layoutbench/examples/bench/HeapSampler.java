package io.layoutbench.examples.bench;

import com.sun.management.GarbageCollectionNotificationInfo;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
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
 * Measures the peak used heap of the whole JVM while a piece of work runs: a daemon thread samples the used heap
 * every millisecond, and garbage-collection notifications contribute the heap used just before each collection
 * (the true high-water mark a sampler could miss between two samples).
 *
 * <p>The peak counts garbage not yet collected and everything else the JVM holds (caches of other datasets, the
 * benchmark's own rows), so compare runs with each other, not with the size of a result. Not thread-safe: one
 * measurement at a time.
 *
 * <pre>{@code
 * try (HeapSampler.Measurement heap = HeapSampler.start()) {
 *     runQuery();
 *     long peak = heap.peakBytes();
 * }
 * }</pre>
 */
public final class HeapSampler {

    private static final long SAMPLE_INTERVAL_MILLIS = 1;

    private HeapSampler() {
    }

    /** Starts measuring. */
    public static Measurement start() {
        return new Measurement();
    }

    /** A running measurement; {@link #close()} stops it. */
    public static final class Measurement implements AutoCloseable {
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        private final AtomicLong peak = new AtomicLong();
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
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc instanceof NotificationEmitter emitter) {
                    emitter.addNotificationListener(gcListener, null, null);
                    emitters.add(emitter);
                }
            }
            sample();
            sampler = new Thread(this::sampleUntilClosed, "layoutbench-heap-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        /** The peak used heap so far, in bytes. */
        public long peakBytes() {
            sample();
            return peak.get();
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
            peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
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
            peak.accumulateAndGet(before, Math::max);
        }
    }
}
