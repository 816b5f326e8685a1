package io.layoutbench.api.network;

import java.util.concurrent.Executor;

/**
 * Time for simulations: a nanosecond clock and a way to run a task when it reaches a given instant. Simulated
 * backends take one so the same code runs in real time ({@link RealTimeClock}) in benchmarks and in virtual time
 * ({@link VirtualClock}) in tests, where time moves only when the test says so and every completion time is exact.
 *
 * <p>Tasks must be short and must not block: they run on the clock's single timer thread (real time) or inside
 * {@link VirtualClock#advanceTo} (virtual time). Work that may block, such as completing a future whose callbacks
 * the caller wrote, goes to {@link #callbackExecutor()}.
 *
 * <pre>{@code
 * VirtualClock clock = new VirtualClock();
 * clock.schedule(clock.nanoTime() + 1_000_000, () -> System.out.println("1 ms later"));
 * clock.advanceBy(Duration.ofMillis(1));   // prints
 * }</pre>
 */
public interface SimulationClock {

    /** The current time in nanoseconds; only differences are meaningful. Never goes backwards. */
    long nanoTime();

    /**
     * Runs {@code task} once {@link #nanoTime()} reaches {@code atNanos}; a time already past means "as soon as
     * possible". Tasks due at the same instant run in the order they were scheduled.
     */
    void schedule(long atNanos, Runnable task);

    /**
     * Where to run callbacks that may block or take long. The default runs them at once, on the thread that
     * asks, which is what deterministic virtual-time tests want.
     */
    default Executor callbackExecutor() {
        return Runnable::run;
    }
}
