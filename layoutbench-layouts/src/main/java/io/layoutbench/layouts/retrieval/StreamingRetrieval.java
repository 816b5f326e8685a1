package io.layoutbench.layouts.retrieval;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.SupportsFirstByteSignal;
import io.layoutbench.api.backend.SupportsRacedReads;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalStats;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.NetworkProfile;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

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
 * <p><b>Hedged reads</b> ({@link QueryOptions#hedgesReads()}: optimized mode, by default). Each request a task sends
 * that has not completed when {@link HedgeDelay} says it should have (the profile's 75th-percentile first-byte
 * latency plus the time its bytes take, with its share of the link; not while the bytes in flight keep the link
 * busy longer than that latency) gets one duplicate: the same request again, with its own latency. The first of
 * the two to complete answers the task; the other is cancelled (the backend frees what it can: the simulated
 * network its connection and bandwidth) and the bytes it had received still count as transferred. A duplicate is
 * a request in flight: it takes a slot of the window and the byte budget until it completes or is cancelled, and a
 * hedge that finds no slot waits and goes before the next task. Each duplicate is counted in {@link QueryMetrics}
 * ({@link io.layoutbench.api.metrics.MetricsSnapshot#hedgedRequests}). A request that fails waits for its
 * duplicate, if one is in flight, before failing the task. The paper's mode never hedges.
 *
 * <p><b>Raced reads.</b> When {@link HedgeDelay#racedCopies} says a late duplicate cannot cut the batch's tail far
 * enough (a few dozen reads on an idle link), every request goes two or three times at once instead, its copies before
 * the next task, each taking a slot and a share of the budget like a duplicate; none is then hedged late. The first
 * copy whose response starts wins, and the others are cancelled before they move a byte, as are copies still waiting
 * for a slot. Only a backend that signals first bytes ({@link SupportsFirstByteSignal}) is raced: on any other each
 * loser would move its whole body, and its reads are hedged late instead. A store built over other backends that
 * races its own reads to them ({@link SupportsRacedReads}: the FAC store, whose copies above it would wait on one node
 * read) is asked for a view racing every read below with the batch's copies, and each request goes once through it,
 * neither copied nor hedged here; one that cannot race (its nodes do not signal first bytes) is hedged late.
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
    /** The network hedges are timed for; null when this retrieval does not hedge. */
    private final NetworkProfile hedgedNetwork;
    /** Copies of each request sent at once ({@link HedgeDelay#racedCopies}); 1: hedged late instead. */
    private final int racedCopies;
    private final HedgeTimer hedgeTimer;

    private final Object lock = new Object();
    private final CompletableFuture<?>[] reads;
    private final LinkedBlockingQueue<Integer> completed = new LinkedBlockingQueue<>();
    private final AtomicInteger launchWork = new AtomicInteger();
    private int launched;
    private int inFlight;
    private int consumedTasks;
    private long reservedBytes;
    private boolean closed;
    /** Bytes of requests in flight, duplicates included, when hedging: what a new request shares the link with. */
    private long requestBytesInFlight;
    /** Hedged requests not yet answered, to cancel on close. */
    private final Set<HedgedRead> unanswered = new LinkedHashSet<>();
    /** Requests whose hedge delay is up and whose duplicate waits for a slot, in the order they fell due. */
    private final ArrayDeque<HedgedRead> dueHedges = new ArrayDeque<>();
    private long hedgesSent;

    private final ArrayDeque<Sample> current = new ArrayDeque<>();
    private long currentTaskBytes;
    private boolean holdingTask;
    private long samples;
    private long payloadBytes;
    private long firstSampleNanos = -1;
    private long endNanos = -1;

    private StreamingRetrieval(ObjectBackend backend, List<ReadTask> tasks, QueryOptions options,
            QueryMetrics metrics, HedgeTimer hedgeTimer, int copies) {
        requireNonNull(backend, "backend is null");
        NetworkProfile hedging = options.hedgesReads() ? options.network() : null;
        this.hedgeTimer = requireNonNull(hedgeTimer, "hedgeTimer is null");
        this.tasks = List.copyOf(tasks);
        this.order = options.order();
        this.metrics = requireNonNull(metrics, "metrics is null");
        double typical = QueryOptions.typicalReadBytes(this.tasks.stream().mapToLong(ReadTask::bytes));
        int start = options.readsInFlight(typical);
        // Races only where the losers can be dropped at the winner's first byte: on another backend each would move
        // its whole body. Chosen on the requests, at the concurrency of requests of their size, as the cost model
        // chooses from the plan (a task may hold several requests: L3's pages, a sample's fields).
        List<Long> requestSizes = requestSizes(this.tasks);
        int raced = hedging == null ? 1 : copies > 0 ? copies
                : backend instanceof SupportsFirstByteSignal || backend instanceof SupportsRacedReads
                ? HedgeDelay.racedCopies(hedging, requestSizes,
                        options.readsInFlight(requestSizes.stream().mapToLong(Long::longValue))) : 1;
        ObjectBackend racingBelow = raced > 1 && backend instanceof SupportsRacedReads store
                ? store.withRacedReads(hedging, metrics, raced) : backend;
        if (racingBelow != backend) {
            // The store races each read below, where a copy is a read of its own: each goes once from here.
            this.backend = racingBelow;
            this.hedgedNetwork = null;
            this.racedCopies = 1;
        } else {
            this.backend = backend;
            this.hedgedNetwork = hedging;
            // A store that cannot race below (its nodes do not signal first bytes) is hedged late, as any backend
            // that does not signal.
            this.racedCopies = backend instanceof SupportsRacedReads && !(backend instanceof SupportsFirstByteSignal)
                    ? 1 : raced;
        }
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
        return start(backend, tasks, options, metrics, HedgeTimer.SHARED, 0);
    }

    /**
     * {@link #start(ObjectBackend, List, QueryOptions, QueryMetrics)} with hedges timed by {@code hedgeTimer}, and
     * reads sent {@code copies} times at once when they are hedged (1: hedged late; 0: as
     * {@link HedgeDelay#racedCopies} decides).
     */
    static StreamingRetrieval start(ObjectBackend backend, List<ReadTask> tasks, QueryOptions options,
            QueryMetrics metrics, HedgeTimer hedgeTimer, int copies) {
        if (copies < 0) {
            throw new IllegalArgumentException("copies must be >= 0, got " + copies);
        }
        StreamingRetrieval retrieval = new StreamingRetrieval(backend, tasks, options, metrics, hedgeTimer, copies);
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

    /** Tasks and duplicates in flight now. */
    int readsInFlight() {
        synchronized (lock) {
            return inFlight;
        }
    }

    /** Planned bytes of tasks launched and not consumed, plus those of duplicates in flight. */
    long reservedBytes() {
        synchronized (lock) {
            return reservedBytes;
        }
    }

    /** Duplicates sent so far. */
    long hedgesSent() {
        synchronized (lock) {
            return hedgesSent;
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
        List<HedgedRead> abandoned;
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
            dueHedges.clear();
            abandoned = new ArrayList<>(unanswered);
        }
        // Outside the lock: cancelling reaches into the backend, whose callbacks take the lock again.
        abandoned.forEach(read -> read.answer.cancel(false));
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
            // Due copies first, every time: a raced task's copies go before the next task.
            if (!launchDueHedges()) {
                return;
            }
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
            return task.run(hedgedNetwork == null ? backend : new HedgingBackend(task));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Sends the duplicates that are due, as far as the window and the byte budget let them go; returns whether
     * every due hedge went (new tasks wait behind one that did not: its read is late already).
     */
    private boolean launchDueHedges() {
        while (true) {
            HedgedRead hedge;
            synchronized (lock) {
                if (closed) {
                    return false;
                }
                hedge = dueHedges.peek();
                if (hedge == null) {
                    return true;
                }
                if (hedge.answer.isDone() || hedge.winner != null) {
                    dueHedges.poll();
                    continue;
                }
                if (inFlight >= window.limit() || reservedBytes + hedge.bytes > maxBufferedBytes) {
                    return false;
                }
                dueHedges.poll();
                inFlight++;
                reservedBytes += hedge.bytes;
                requestBytesInFlight += hedge.bytes;
                hedgesSent++;
            }
            metrics.onHedgedRequest(hedge.kind);
            hedge.sendDuplicate();
        }
    }

    /**
     * The backend one task's requests go through when reads are hedged: each read is a {@link HedgedRead}. Only
     * while the retrieval runs; reads made after it (a lazily read blob's) go straight to the backend.
     */
    private final class HedgingBackend extends ForwardingObjectBackend {
        private final ReadTask task;

        HedgingBackend(ReadTask task) {
            this.task = task;
        }

        @Override
        protected ObjectBackend delegate() {
            return backend;
        }

        @Override
        public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
            if (!running()) {
                return backend.readRangeAsync(key, range);
            }
            return new HedgedRead(RequestKind.RANGE_GET, key, range, range.length()).start();
        }

        /** Hedged reads are read whole (a copy may win), then handed over as one piece. */
        @Override
        public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
            if (!running()) {
                return backend.streamRangeAsync(key, range, pieces);
            }
            return ObjectBackend.inOnePiece(readRangeAsync(key, range), pieces);
        }

        @Override
        public CompletableFuture<ByteBuffer> readAllAsync(String key) {
            if (!running()) {
                return backend.readAllAsync(key);
            }
            return new HedgedRead(RequestKind.GET, key, null, plannedBytes(key)).start();
        }

        /** A metrics view is another query's: it does not hedge. */
        @Override
        public ObjectBackend withMetrics(RequestMetrics otherMetrics) {
            return backend.withMetrics(otherMetrics);
        }

        /** The backend is the caller's of the retrieval, not the task's, to close. */
        @Override
        public void close() {
        }

        /** The planned size of a whole-object read of {@code key}: the task's request for it, or its typical one. */
        private long plannedBytes(String key) {
            for (PlannedRequest request : task.requests()) {
                if (request.key().equals(key)) {
                    return request.bytes();
                }
            }
            return task.requests().isEmpty() ? 0 : task.bytes() / task.requests().size();
        }

        private boolean running() {
            synchronized (lock) {
                return !closed && endNanos < 0;
            }
        }
    }

    /**
     * One request of a task, hedged or raced: its first attempt, its hedge timer, and its copies once sent. The first
     * attempt to succeed completes {@link #answer}; the others are then cancelled. Fields are guarded by the lock.
     */
    private final class HedgedRead {
        final RequestKind kind;
        final String key;
        final ByteRange range;
        final long bytes;
        final CompletableFuture<ByteBuffer> answer = new CompletableFuture<>();
        /** Attempts sent: the first, then each copy. */
        private final List<Attempt> attempts = new ArrayList<>(2);
        /** Raced, and this copy's first byte arrived first: the others were abandoned, and no more copies go. */
        private Attempt winner;
        private Future<?> timer;
        private long sentNanos;
        /** Attempts sent and not ended. */
        private int attemptsRunning;
        /** The first failure other than a cancellation: what the read fails with if no attempt succeeds. */
        private Throwable firstFailure;

        HedgedRead(RequestKind kind, String key, ByteRange range, long bytes) {
            this.kind = kind;
            this.key = key;
            this.range = range;
            this.bytes = bytes;
        }

        CompletableFuture<ByteBuffer> start() {
            // Raced: the copies are due at once (before the next task), and no read is hedged late.
            long delay = racedCopies > 1 ? Long.MAX_VALUE : HedgeDelay.firstCheckNanos(hedgedNetwork, bytes);
            Attempt attempt = new Attempt();
            synchronized (lock) {
                requestBytesInFlight += bytes;
                unanswered.add(this);
                attemptsRunning = 1;
                sentNanos = hedgeTimer.nanoTime();
                attempts.add(attempt);   // before its copies can go: a copy's first byte must see it to abandon it
                for (int copy = 1; copy < racedCopies; copy++) {
                    dueHedges.addFirst(this);
                }
            }
            answer.whenComplete((value, failure) -> {
                if (answer.isCancelled()) {
                    cancelAttempts();
                }
            });
            sendAs(attempt).whenComplete((value, failure) -> {
                synchronized (lock) {
                    requestBytesInFlight -= bytes;
                }
                onAttemptDone(attempt, value, failure);
            });
            if (racedCopies > 1) {
                launchMore();
            }
            checkIn(delay);
            return answer;
        }

        /** Checks again in {@code delay} nanoseconds (never at {@link Long#MAX_VALUE}), if still unanswered. */
        private void checkIn(long delay) {
            if (answer.isDone() || delay == Long.MAX_VALUE) {
                return;
            }
            Future<?> scheduled = hedgeTimer.schedule(delay, this::check);
            synchronized (lock) {
                timer = scheduled;
            }
            if (answer.isDone()) {
                scheduled.cancel(false);
            }
        }

        /** A hedge check: if unanswered and late given what is in flight now, its duplicate is due. */
        private void check() {
            long wait;
            synchronized (lock) {
                if (closed || answer.isDone()) {
                    return;
                }
                wait = HedgeDelay.recheckNanos(hedgedNetwork, bytes, requestBytesInFlight,
                        Math.max(0, hedgeTimer.nanoTime() - sentNanos));
                if (wait == 0) {
                    dueHedges.add(this);
                }
            }
            if (wait == 0) {
                launchMore();
            } else {
                checkIn(wait);
            }
        }

        /** Sends a copy; its slot and budget share are already taken. */
        void sendDuplicate() {
            Attempt attempt = new Attempt();
            synchronized (lock) {
                attempts.add(attempt);
                attemptsRunning++;
            }
            sendAs(attempt).whenComplete((value, failure) -> {
                synchronized (lock) {
                    inFlight--;
                    reservedBytes -= bytes;
                    requestBytesInFlight -= bytes;
                }
                onAttemptDone(attempt, value, failure);
                launchMore();
            });
        }

        /**
         * Sends {@code attempt}'s request and records its future; cancels it at once if the read was answered, or
         * the attempt abandoned, while it went out. A raced copy asks the backend for its first byte, if it can tell.
         */
        private CompletableFuture<ByteBuffer> sendAs(Attempt attempt) {
            CompletableFuture<ByteBuffer> future;
            try {
                if (racedCopies > 1 && backend instanceof SupportsFirstByteSignal signalling) {
                    Runnable onFirstByte = () -> onFirstByte(attempt);
                    future = range == null ? signalling.readAllAsync(key, onFirstByte)
                            : signalling.readRangeAsync(key, range, onFirstByte);
                } else {
                    future = range == null ? backend.readAllAsync(key) : backend.readRangeAsync(key, range);
                }
            } catch (RuntimeException e) {
                future = CompletableFuture.failedFuture(e);
            }
            boolean cancel;
            synchronized (lock) {
                attempt.future = future;
                // Abandoned, or sent while another copy's first byte arrived: that copy has won already.
                cancel = attempt.abandoned || (winner != null && winner != attempt);
            }
            if (cancel || answer.isDone()) {
                future.cancel(false);
            }
            return future;
        }

        /**
         * A raced copy's first byte arrived: the other copies, which have not answered yet, are abandoned before
         * they move bytes, and the copies still waiting for a slot do not go.
         */
        private void onFirstByte(Attempt first) {
            List<CompletableFuture<ByteBuffer>> abandon = new ArrayList<>();
            synchronized (lock) {
                if (winner != null || answer.isDone()) {
                    return;
                }
                winner = first;
                dueHedges.removeIf(due -> due == this);
                for (Attempt other : attempts) {
                    if (other != first) {
                        other.abandoned = true;
                        if (other.future != null) {
                            abandon.add(other.future);
                        }
                    }
                }
            }
            abandon.forEach(future -> future.cancel(false));
        }

        /**
         * An attempt ended: the first to succeed answers; a failure answers only if no other attempt is in flight
         * (the backend retried it already; a copy in flight may still succeed).
         */
        private void onAttemptDone(Attempt attempt, ByteBuffer value, Throwable failure) {
            List<CompletableFuture<ByteBuffer>> others = new ArrayList<>();
            boolean last;
            Throwable cause = unwrap(failure);
            synchronized (lock) {
                attemptsRunning--;
                last = attemptsRunning == 0;
                for (Attempt other : attempts) {
                    if (other != attempt && other.future != null) {
                        others.add(other.future);
                    }
                }
                if (cause != null && firstFailure == null && !(cause instanceof CancellationException)) {
                    firstFailure = cause;
                }
                if (cause != null && firstFailure != null) {
                    cause = firstFailure;
                }
            }
            if (failure == null ? answer.complete(value) : last && answer.completeExceptionally(cause)) {
                settle(others);
            }
        }

        /** Answered: the other attempts and the timer go, and so does this read from those to cancel on close. */
        private void settle(List<CompletableFuture<ByteBuffer>> others) {
            Future<?> pendingTimer;
            synchronized (lock) {
                unanswered.remove(this);
                dueHedges.removeIf(due -> due == this);
                pendingTimer = timer;
            }
            if (pendingTimer != null) {
                pendingTimer.cancel(false);
            }
            others.forEach(other -> other.cancel(false));
        }

        private void cancelAttempts() {
            List<CompletableFuture<ByteBuffer>> all = new ArrayList<>();
            synchronized (lock) {
                for (Attempt attempt : attempts) {
                    attempt.abandoned = true;
                    if (attempt.future != null) {
                        all.add(attempt.future);
                    }
                }
            }
            settle(all);
        }
    }

    /** One request sent for a {@link HedgedRead}: its future once sent. Guarded by the lock. */
    private static final class Attempt {
        CompletableFuture<ByteBuffer> future;
        /** Cancelled before its future was known: cancel it as soon as it is. */
        boolean abandoned;
    }

    /** The bytes of every request of {@code tasks}, in order: the batch {@link HedgeDelay#racedCopies} weighs. */
    private static List<Long> requestSizes(List<ReadTask> tasks) {
        List<Long> sizes = new ArrayList<>();
        for (ReadTask task : tasks) {
            for (PlannedRequest request : task.requests()) {
                sizes.add(request.bytes());
            }
        }
        return sizes;
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    private static String describe(ReadTask task) {
        var first = task.requests().isEmpty() ? null : task.requests().get(0);
        return first == null ? "a task with no requests"
                : first.range() + " of " + first.key() + (task.requests().size() > 1
                        ? " (and " + (task.requests().size() - 1) + " more requests)" : "");
    }
}
