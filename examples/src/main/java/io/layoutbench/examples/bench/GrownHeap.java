package io.layoutbench.examples.bench;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;

import java.lang.management.ManagementFactory;

/**
 * Keeps the heap at the size it has grown to while a benchmark runs, so that a full collection between runs does
 * not give it back to the operating system.
 *
 * <p>Why: the benchmark collects garbage before every run ({@code System.gc()}), so that a run's peak heap is its
 * own and not the garbage of the run before. After a full collection HotSpot shrinks the heap to what its
 * {@code MaxHeapFreeRatio} (70% by default) allows around the live set, and the next run grows it again, touching
 * every page of it afresh: the kernel's page faults and zeroing, about 0.35 GB/s on the 2-vCPU build machine
 * against 7 GB/s for the same copy into memory already touched. A run that reads 200 MB paid about 0.1 s for it
 * (L3's Q8 at mini with no network: 0.21-0.24 s a query with the shrink, 0.11-0.12 s without), which no training
 * job's loader pays, since nothing shrinks its heap between batches. The benchmark's predictions were measured
 * against that cost and missed it on every large query.
 *
 * <p>How: {@code MaxHeapFreeRatio} is a manageable HotSpot option, so it is set to 100 (never shrink) through
 * {@link HotSpotDiagnosticMXBean} while at least one hold is open, and put back when the last one closes. On a JVM
 * without the option, or where it is not writeable, a hold does nothing ({@link #supported()} says so); collectors
 * that do not size the heap by it (ZGC) do not need it. The used heap, which the benchmark reports as a run's peak,
 * is what it was; the process's resident size keeps the heap earlier runs grew, as a long-running loader's does.
 *
 * <pre>{@code
 * try (GrownHeap held = GrownHeap.hold()) {
 *     System.gc();   // the heap stays at its size
 *     runQuery();    // and this run does not grow it again
 * }
 * }</pre>
 */
public final class GrownHeap implements AutoCloseable {

    static final String OPTION = "MaxHeapFreeRatio";
    private static final String NEVER_SHRINK = "100";

    /** Open holds, and the option's value before the first of them; guarded by the class. */
    private static int holds;
    private static String before;

    private boolean open = true;

    private GrownHeap() {
    }

    /** Whether this JVM lets a hold keep the heap grown (HotSpot's manageable {@code MaxHeapFreeRatio}). */
    public static boolean supported() {
        VMOption option = option();
        return option != null && option.isWriteable();
    }

    /**
     * Keeps the heap grown until the returned hold (and every other one open) is closed; does nothing where
     * {@link #supported()} is false.
     */
    public static GrownHeap hold() {
        synchronized (GrownHeap.class) {
            if (holds == 0) {
                before = keepGrown();
            }
            holds++;
        }
        return new GrownHeap();
    }

    /** Ends this hold; the last one to close puts the option back as it was. */
    @Override
    public void close() {
        synchronized (GrownHeap.class) {
            if (!open) {
                return;
            }
            open = false;
            if (--holds == 0 && before != null) {
                String value = before;
                before = null;
                try {
                    set(value);
                } catch (IllegalArgumentException | SecurityException e) {
                    // Refused (MinHeapFreeRatio raised above it meanwhile): the heap keeps its size, which is harmless.
                }
            }
        }
    }

    /** Sets the option to never shrink; its value before, or null where the JVM has no such option or refused. */
    private static String keepGrown() {
        VMOption option = option();
        if (option == null || !option.isWriteable()) {
            return null;
        }
        try {
            set(NEVER_SHRINK);
            return option.getValue();
        } catch (IllegalArgumentException | SecurityException e) {
            return null;   // refused (a security manager): runs pay the regrowth
        }
    }

    private static VMOption option() {
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotSpot == null) {
            return null;
        }
        try {
            return hotSpot.getVMOption(OPTION);
        } catch (IllegalArgumentException e) {
            return null;   // not this JVM's option
        }
    }

    private static void set(String value) {
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).setVMOption(OPTION, value);
    }
}
