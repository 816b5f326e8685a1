package io.layoutbench.layouts.retrieval;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * When a read's hedge delay is up, runs its hedge. {@link #SHARED} is one daemon thread for every retrieval of the
 * process (a hedge only checks a flag and launches a read, which does not block); tests pass a timer they fire by
 * hand, so nothing waits on the wall clock.
 *
 * <pre>{@code
 * Future<?> pending = HedgeTimer.SHARED.schedule(44_000_000L, read::hedge);
 * pending.cancel(false);   // the read completed first
 * }</pre>
 */
interface HedgeTimer {

    /** A timer on one shared daemon thread; cancelled hedges leave its queue at once. */
    HedgeTimer SHARED = new HedgeTimer() {
        private final ScheduledThreadPoolExecutor executor = executor();

        @Override
        public Future<?> schedule(long delayNanos, Runnable hedge) {
            return executor.schedule(hedge, delayNanos, TimeUnit.NANOSECONDS);
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

    /** Runs {@code hedge} once {@code delayNanos} have passed; cancelling the returned future drops it. */
    Future<?> schedule(long delayNanos, Runnable hedge);
}
