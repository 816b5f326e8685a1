package io.layoutbench.api.network;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Comparator;
import java.util.OptionalLong;
import java.util.PriorityQueue;

/**
 * A {@link SimulationClock} whose time moves only when told to: {@link #advanceTo}, {@link #advanceBy} or
 * {@link #advanceUntilIdle()} run the due tasks in time order, each while {@link #nanoTime()} reads exactly the time
 * it was scheduled for. Tests built on it assert exact completion times and never sleep.
 *
 * <p>A task scheduled for a time already past runs on the next advance (even {@code advanceBy(0)}), never inside
 * {@code schedule}, so a caller holding a lock is not re-entered. Thread-safe: any thread may schedule; the thread
 * that advances runs the tasks. Advancing from inside a task is not allowed.
 *
 * <pre>{@code
 * VirtualClock clock = new VirtualClock();
 * CompletableFuture<ByteBuffer> read = simulatedBackend.readRangeAsync("a.jpg", ByteRange.of(0, 1000));
 * clock.advanceBy(Duration.ofMillis(15));
 * assertThat(read).isDone();
 * }</pre>
 */
public final class VirtualClock implements SimulationClock {

    private record Task(long atNanos, long sequence, Runnable action) {
    }

    private final PriorityQueue<Task> tasks = new PriorityQueue<>(
            Comparator.comparingLong(Task::atNanos).thenComparingLong(Task::sequence));
    private long now;
    private long sequence;
    private Thread advancingThread;

    /** A clock at time zero. */
    public VirtualClock() {
        this(0);
    }

    /** A clock at {@code startNanos}. */
    public VirtualClock(long startNanos) {
        this.now = startNanos;
    }

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    @Override
    public synchronized void schedule(long atNanos, Runnable task) {
        requireNonNull(task, "task is null");
        tasks.add(new Task(atNanos, sequence++, task));
    }

    /**
     * Moves time forward to {@code targetNanos}, running every task due by then in time order; tasks they schedule
     * for a time up to the target run too. Ends with {@link #nanoTime()} at the target.
     *
     * @throws IllegalArgumentException if the target is before the current time
     * @throws IllegalStateException    if called from inside a task
     */
    public void advanceTo(long targetNanos) {
        synchronized (this) {
            if (targetNanos < now) {
                throw new IllegalArgumentException("Cannot move a virtual clock back from " + now + " ns to "
                        + targetNanos + " ns");
            }
            if (advancingThread != null) {
                throw new IllegalStateException("A virtual clock cannot be advanced from inside one of its tasks"
                        + " (already advancing on " + advancingThread.getName() + ")");
            }
            advancingThread = Thread.currentThread();
        }
        try {
            Task task;
            while ((task = pollDue(targetNanos)) != null) {
                // Outside the monitor: a task may take other locks, and those locks' holders may schedule.
                task.action().run();
            }
        } finally {
            synchronized (this) {
                now = Math.max(now, targetNanos);
                advancingThread = null;
            }
        }
    }

    /** {@link #advanceTo} {@code nanoTime() + nanos}. */
    public void advanceBy(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("Cannot advance a virtual clock by a negative " + nanos + " ns");
        }
        advanceTo(nanoTime() + nanos);
    }

    /** {@link #advanceTo} {@code nanoTime() + duration}. */
    public void advanceBy(Duration duration) {
        advanceBy(duration.toNanos());
    }

    /** Runs the tasks already due, without moving time. */
    public void runDueTasks() {
        advanceBy(0);
    }

    /**
     * Advances from task to task until none is left, and returns the time then. A task that keeps rescheduling
     * itself makes this loop forever; bound such tests with {@link #advanceTo}.
     */
    public long advanceUntilIdle() {
        OptionalLong next;
        while ((next = nextTaskNanos()).isPresent()) {
            advanceTo(Math.max(next.getAsLong(), nanoTime()));
        }
        return nanoTime();
    }

    /** When the earliest pending task is due, if any. */
    public synchronized OptionalLong nextTaskNanos() {
        Task next = tasks.peek();
        return next == null ? OptionalLong.empty() : OptionalLong.of(next.atNanos());
    }

    /** How many tasks wait to run. */
    public synchronized int pendingTasks() {
        return tasks.size();
    }

    private synchronized Task pollDue(long targetNanos) {
        Task next = tasks.peek();
        if (next == null || next.atNanos() > targetNanos) {
            return null;
        }
        tasks.poll();
        // Time never runs backwards: a task scheduled in the past runs at the current time.
        now = Math.max(now, next.atNanos());
        return next;
    }

    @Override
    public synchronized String toString() {
        return "VirtualClock[" + now + " ns, " + tasks.size() + " pending]";
    }
}
