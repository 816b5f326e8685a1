package io.layoutbench.layouts.retrieval;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalStats;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.metrics.QueryMetrics;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a list of {@link ReadTask}s with bounded concurrency and hands out their samples as a {@link SampleStream}.
 *
 * <p>At most a {@link ReadWindow} of tasks are in flight: in optimized mode it starts at
 * {@link QueryOptions#readsInFlight} (as many as the network's connection pool and the byte budget take for tasks of
 * their typical size, within the query's cap) and adapts while the query runs, growing while throughput grows and
 * backing off when the store throttles or latency rises; in the paper's mode it stays there. The planned bytes of
 * tasks launched but not yet consumed stay within {@link QueryOptions#maxBufferedBytes()} (one task is always allowed,
 * however large, so progress is guaranteed). So reads run ahead of a slow read at the head of the line, as far as
 * the byte budget allows, and a slow consumer stops new reads: backpressure, not unbounded buffering. In
 * {@link ResultOrder#DATASET} order samples come out in task order; in {@link ResultOrder#COMPLETION} order as reads
 * finish. Launching happens on the consumer's thread and on the threads that complete reads, serialized by a drain
 * loop (no recursion when a read completes at once).
 *
 * <pre>{@code
 * QueryMetrics metrics = new QueryMetrics();
 * metrics.start();
 * SampleStream samples = StreamingRetrieval.start(backend.withMetrics(metrics), tasks, options, metrics);
 * }</pre>
 */
public final class StreamingRetrieval implements SampleStream {

    private final ObjectBackend backend;
    private final List<ReadTask> tasks;
    private final ReadWindow window;
    private final long maxBufferedBytes;
    private final ResultOrder order;
    private final QueryMetrics metrics;
    private final long startNanos;

    private final Object lock = new Object();
    private final CompletableFuture<?>[] reads;
    private final LinkedBlockingQueue<Integer> completed = new LinkedBlockingQueue<>();
    private final AtomicInteger launchWork = new AtomicInteger();
    private int launched;
    private int inFlight;
    private int consumedTasks;
    private long reservedBytes;
    private boolean closed;

    private final ArrayDeque<Sample> current = new ArrayDeque<>();
    private long currentTaskBytes;
    private boolean holdingTask;
    private long samples;
    private long payloadBytes;
    private long firstSampleNanos = -1;
    private long endNanos = -1;

    private StreamingRetrieval(ObjectBackend backend, List<ReadTask> tasks, QueryOptions options,
            QueryMetrics metrics) {
        this.backend = requireNonNull(backend, "backend is null");
        this.tasks = List.copyOf(tasks);
        this.order = options.order();
        this.metrics = requireNonNull(metrics, "metrics is null");
        double typical = QueryOptions.typicalReadBytes(this.tasks.stream().mapToLong(ReadTask::bytes));
        int start = options.readsInFlight(typical);
        // The paper's mode keeps its concurrency fixed, as the paper ran; optimized adapts it while the query runs.
        this.window = options.mode() == RetrievalMode.OPTIMIZED
                ? ReadWindow.adaptive(start, options.readsInFlightCeiling(typical), metrics::snapshot, System::nanoTime)
                : ReadWindow.fixed(start);
        this.maxBufferedBytes = options.maxBufferedBytes();
        this.startNanos = System.nanoTime();
        this.reads = new CompletableFuture<?>[this.tasks.size()];
    }

    /**
     * Starts reading. {@code backend} should count into {@code metrics}; {@code metrics} should already be started
     * (so metadata reads made while planning count toward the query).
     */
    public static StreamingRetrieval start(ObjectBackend backend, List<ReadTask> tasks, QueryOptions options,
            QueryMetrics metrics) {
        StreamingRetrieval retrieval = new StreamingRetrieval(backend, tasks, options, metrics);
        retrieval.launchMore();
        return retrieval;
    }

    @Override
    public boolean hasNext() {
        if (!current.isEmpty()) {
            return true;
        }
        while (current.isEmpty()) {
            releaseCurrentTask();
            if (consumedTasks == tasks.size() || closed) {
                finish();
                return false;
            }
            int index = nextReadyTask();
            List<Sample> decoded = await(index);
            synchronized (lock) {
                reads[index] = null; // the samples are ours now; the future need not keep them
            }
            currentTaskBytes = tasks.get(index).bytes();
            holdingTask = true;
            current.addAll(decoded);
        }
        return true;
    }

    @Override
    public Sample next() {
        if (!hasNext()) {
            throw new NoSuchElementException("No more samples");
        }
        Sample sample = current.poll();
        samples++;
        payloadBytes += sample.size();
        if (firstSampleNanos < 0) {
            firstSampleNanos = System.nanoTime();
        }
        return sample;
    }

    /** The most tasks this retrieval has allowed in flight at once so far (its {@link ReadWindow}'s peak). */
    int peakReadsInFlight() {
        synchronized (lock) {
            return window.peak();
        }
    }

    /** Reads it allows in flight now. */
    int readsInFlightLimit() {
        synchronized (lock) {
            return window.limit();
        }
    }

    @Override
    public RetrievalStats stats() {
        long end = endNanos < 0 ? System.nanoTime() : endNanos;
        Duration ttfs = firstSampleNanos < 0 ? Duration.ZERO : Duration.ofNanos(firstSampleNanos - startNanos);
        return new RetrievalStats(samples, payloadBytes, metrics.snapshot(), ttfs, Duration.ofNanos(end - startNanos));
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            lock.notifyAll();
            for (CompletableFuture<?> read : reads) {
                if (read != null) {
                    read.cancel(false);
                }
            }
        }
        current.clear();
        finish();
    }

    private void finish() {
        if (endNanos < 0) {
            endNanos = System.nanoTime();
            try {
                metrics.stop();
            } catch (IllegalStateException notStarted) {
                // The caller did not start the metrics; the wall time is still ours.
            }
        }
    }

    private void releaseCurrentTask() {
        if (!holdingTask) {
            return;
        }
        holdingTask = false;
        synchronized (lock) {
            consumedTasks++;
            reservedBytes -= currentTaskBytes;
        }
        launchMore();
    }

    private int nextReadyTask() {
        if (order == ResultOrder.DATASET) {
            return consumedTasks;
        }
        try {
            return completed.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new StorageException("Interrupted while waiting for samples", e);
        }
    }

    @SuppressWarnings("unchecked")
    private List<Sample> await(int index) {
        CompletableFuture<?> read;
        synchronized (lock) {
            // Another thread may be launching this task right now; it notifies once the slot is set.
            while ((read = reads[index]) == null && !closed) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new StorageException("Interrupted while waiting for samples", e);
                }
            }
        }
        if (read == null) {
            throw new StorageException("The sample stream was closed");
        }
        try {
            return (List<Sample>) read.join();
        } catch (CompletionException e) {
            close();
            Throwable cause = e.getCause();
            if (cause instanceof LayoutBenchException failure) {
                throw failure;
            }
            throw new StorageException("Reading " + describe(tasks.get(index)) + " failed: " + cause, cause);
        } catch (CancellationException e) {
            throw new StorageException("Reading " + describe(tasks.get(index)) + " was cancelled", e);
        }
    }

    private void launchMore() {
        // Drain loop: whoever finds the counter at zero launches; others only record that there is more to do.
        if (launchWork.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            launchAvailable();
            missed = launchWork.addAndGet(-missed);
        } while (missed != 0);
    }

    private void launchAvailable() {
        while (true) {
            int index;
            long launch;
            ReadTask task;
            CompletableFuture<List<Sample>> slot = new CompletableFuture<>();
            synchronized (lock) {
                if (closed || launched == tasks.size()) {
                    return;
                }
                task = tasks.get(launched);
                long bytes = task.bytes();
                boolean nothingOutstanding = launched == consumedTasks;
                if (!nothingOutstanding && reservedBytes + bytes > maxBufferedBytes) {
                    return;
                }
                if (inFlight >= window.limit()) {
                    window.onFull(); // the window, not the budget, holds this read back: a reason to grow it
                    return;
                }
                reservedBytes += bytes;
                inFlight++;
                launch = window.onLaunched();
                index = launched++;
                reads[index] = slot;
                lock.notifyAll();
            }
            send(task).whenComplete((samples, failure) -> {
                synchronized (lock) {
                    inFlight--;
                    window.onCompleted(task.bytes(), launch);
                }
                if (failure != null) {
                    slot.completeExceptionally(failure);
                } else {
                    slot.complete(samples);
                }
                if (order == ResultOrder.COMPLETION) {
                    completed.add(index);
                }
                launchMore();
            });
        }
    }

    private CompletableFuture<List<Sample>> send(ReadTask task) {
        try {
            return task.run(backend);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static String describe(ReadTask task) {
        var first = task.requests().isEmpty() ? null : task.requests().get(0);
        return first == null ? "a task with no requests"
                : first.range() + " of " + first.key() + (task.requests().size() > 1
                        ? " (and " + (task.requests().size() - 1) + " more requests)" : "");
    }
}
