package io.layoutbench.api.network;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link SimulationClock} on {@link System#nanoTime()}: tasks run on one daemon timer thread when their time
 * comes (a little late, by the scheduler's slack, never early), and {@link #callbackExecutor()} is a pool of daemon
 * threads so that callers' callbacks, which may block, never hold up the timer. Close it to stop both.
 *
 * <pre>{@code
 * try (RealTimeClock clock = new RealTimeClock()) {
 *     clock.schedule(clock.nanoTime() + 5_000_000, () -> latch.countDown());   // in about 5 ms
 * }
 * }</pre>
 */
public final class RealTimeClock implements SimulationClock, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RealTimeClock.class);
    private static final AtomicInteger CLOCKS = new AtomicInteger();

    private final ScheduledThreadPoolExecutor timer;
    private final ExecutorService callbacks;

    /** A clock with its own timer thread and callback pool. */
    public RealTimeClock() {
        int id = CLOCKS.incrementAndGet();
        this.timer = new ScheduledThreadPoolExecutor(1, daemonThreads("simulation-timer-" + id));
        this.callbacks = Executors.newCachedThreadPool(daemonThreads("simulation-callbacks-" + id));
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    /** @throws java.util.concurrent.RejectedExecutionException once the clock is closed */
    @Override
    public void schedule(long atNanos, Runnable task) {
        requireNonNull(task, "task is null");
        timer.schedule(() -> {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                // The executor would swallow it into a future nobody reads; say so instead.
                LOG.error("A task scheduled on the simulation clock failed", e);
            }
        }, atNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public ExecutorService callbackExecutor() {
        return callbacks;
    }

    /** Stops the timer (pending tasks are dropped) and the callback threads. */
    @Override
    public void close() {
        timer.shutdownNow();
        callbacks.shutdown();
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
