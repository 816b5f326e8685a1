package io.layoutbench.layouts.retrieval;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Times hedge checks: a clock, and a way to run a check when its delay is up. {@link #SHARED} is one daemon thread for
 * every retrieval of the process (a check only looks at a few numbers and may launch a read, which does not block);
 * tests pass a timer they fire by hand, whose clock moves only when they fire it, so nothing waits on the wall clock.
 *
 * <pre>{@code
 * Future<?> pending = HedgeTimer.SHARED.schedule(44_000_000L, read::check);
 * pending.cancel(false);   // the read completed first
 * }</pre>
 */
interface HedgeTimer {

    /** A timer on one shared daemon thread; cancelled hedges leave its queue at once. */
    HedgeTimer SHARED = new HedgeTimer() {
        private final ScheduledThreadPoolExecutor executor = executor();

        @Override
        public Future<?> schedule(long delayNanos, Runnable check) {
            return executor.schedule(check, delayNanos, TimeUnit.NANOSECONDS);
        }

        private static ScheduledThreadPoolExecutor executor() {
            AtomicInteger ids = new AtomicInteger();
            ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
                Thread thread = new Thread(task, "layoutbench-hedge-timer-" + ids.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
            executor.setRemoveOnCancelPolicy(true);
            return executor;
        }
    };

    /** Runs {@code check} once {@code delayNanos} have passed; cancelling the returned future drops it. */
    Future<?> schedule(long delayNanos, Runnable check);

    /** The time, in nanoseconds; only differences are meaningful. */
    default long nanoTime() {
        return System.nanoTime();
    }
}
