package io.layoutbench.backend.simulated;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.SupportsFirstByteSignal;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.NetworkModel;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.api.network.RealTimeClock;
import io.layoutbench.api.network.SimulationClock;
import io.layoutbench.api.network.VirtualClock;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * An {@link ObjectBackend} decorator that makes a fast backend (memory, local disk) answer as if it sat behind the
 * network of a {@link NetworkProfile}: each read completes when the simulated network says its last byte arrived.
 *
 * <p><b>Timing</b> is the {@link NetworkModel} of the profile (one place, shared with the cost model's
 * {@link NetworkModel#predict}): a pool of at most {@code maxConnections} connections, reused when idle, a new one
 * paying {@code connectionSetup}, requests beyond the pool waiting first come first served; a first-byte latency
 * drawn from a lognormal around the median with a generator seeded by {@link Builder#seed} (default 0, so runs
 * repeat); then the body at {@code min(per-connection throughput, host cap / transfers receiving)}, the host cap
 * falling from burst to baseline when the burst credit is spent. Pool, transfers and credit are shared by this
 * backend and all its {@link #withMetrics} views, as one client host's are.
 *
 * <p><b>What is simulated:</b> {@link #readRangeAsync} (as one {@code RANGE_GET}) and {@link #readAllAsync} (as one
 * {@code GET}). A ranged read's transfer, of the range's bytes, enters the model at once; the wrapped backend is asked
 * for the bytes when the first byte arrives, so the store's own time overlaps the body's (a real store's lies within
 * its first-byte latency), and a read cancelled before its first byte, as a raced copy that lost is, never reaches it;
 * an error it answers fails the read then, after a connection and a first byte. A whole-object read that signals its
 * first byte ({@link SupportsFirstByteSignal}: a raced copy) is sized by the wrapped backend's {@code size} (uncounted)
 * and read the same way. Any other whole-object read asks the wrapped backend first, and when it answers, a transfer of
 * the bytes it returned (zero for an error) enters the model. The answer is handed on when the transfer completes. A
 * streamed read ({@link #streamRangeAsync}) is a ranged read timed the same way; the wrapped backend streams its pieces
 * from the first byte on, and it completes at the last. The wrapped backend's own time can add to the simulated time:
 * wrap a fast one. {@code size}, {@code put}, {@code list} and {@code delete} pass straight through with no delay and
 * take no connection: they are off the fetch path this backend is for. The blocking {@code readRange} and {@code
 * readAll} wait for simulated time, so with a {@link VirtualClock} call the asynchronous methods and advance the clock.
 *
 * <p><b>Clocks:</b> by default a {@link RealTimeClock} owned (and closed) by this backend; for tests, a
 * {@link VirtualClock} given to the {@link Builder}, whose time moves only when the test advances it, so completion
 * times are exact. Completions are delivered on the clock's {@link SimulationClock#callbackExecutor()}: the
 * advancing thread for a virtual clock, a pool for the real one (so a callback that blocks never stalls the timer).
 *
 * <p><b>Metrics:</b> requests are counted by the wrapped backend, into the metrics of its own {@code withMetrics}
 * view, but for simulated reads, which a view counts when it sends them (the wrapped backend may never see one). Time
 * to first byte and the bytes of simulated reads are the simulated ones: a view created with
 * {@link #withMetrics} reports, for each simulated read that succeeds, the set-up (if it opened a connection) plus
 * the drawn first-byte latency, from the moment the request got its connection (waiting for the pool is not
 * included), and its body bytes when its last byte arrives; the wrapped backend's own first-byte reports
 * (meaningless) and its byte counts of {@code GET} and {@code RANGE_GET} (made when it read, not when the bytes
 * arrived) are dropped from that view. The backend returned by {@link Builder#build()} itself reports first bytes
 * nowhere and leaves counting to the wrapped backend, which sees only the reads that reach it.
 *
 * <p><b>Cancelling</b> a simulated read's future (as a hedged read's loser is cancelled) abandons it: the wrapped
 * backend's read is cancelled if it has not answered, and a transfer in flight leaves the model
 * ({@link NetworkModel#cancel}: its connection closes, its share of the bandwidth goes to the others); a view counts
 * the bytes that had arrived by then, and no more.
 *
 * <p><b>Profile {@code none}</b> ({@link NetworkProfile#isUnlimited()}) is a plain pass-through: no model, no
 * clock, no thread, every call and every metric goes straight to the wrapped backend.
 *
 * <p>Thread-safe if the wrapped backend is. Closing fails the simulated reads still in flight, closes the clock this
 * backend made, and closes the wrapped backend; closing a metrics view closes only the wrapped backend's view.
 *
 * <pre>{@code
 * try (ObjectBackend s3Like = SimulatedNetworkBackend.wrap(new MemoryBackend(), NetworkProfiles.get("t3.medium"))) {
 *     ... benchmark layouts against s3Like ...
 * }
 *
 * // In a test:
 * VirtualClock clock = new VirtualClock();
 * SimulatedNetworkBackend backend = SimulatedNetworkBackend.builder(memory, profile).clock(clock).seed(7).build();
 * CompletableFuture<ByteBuffer> read = backend.readRangeAsync("a.jpg", ByteRange.of(0, 1000));
 * clock.advanceBy(Duration.ofMillis(16));
 * assertThat(read).isCompleted();
 * }</pre>
 */
public final class SimulatedNetworkBackend extends ForwardingObjectBackend implements SupportsFirstByteSignal {

    /** Marks a simulated read its caller cancelled before its transfer was submitted. */
    private static final Object CANCELLED = new Object();

    /**
     * Options of a {@link SimulatedNetworkBackend}.
     *
     * <pre>{@code
     * SimulatedNetworkBackend backend = SimulatedNetworkBackend.builder(inner, profile).clock(clock).seed(1).build();
     * }</pre>
     */
    public static final class Builder {
        private final ObjectBackend delegate;
        private final NetworkProfile profile;
        private SimulationClock clock;
        private long seed;

        private Builder(ObjectBackend delegate, NetworkProfile profile) {
            this.delegate = requireNonNull(delegate, "delegate backend is null");
            this.profile = requireNonNull(profile, "network profile is null");
        }

        /**
         * Times the network on {@code clock}, which the caller owns and closes. Without one the backend makes a
         * {@link RealTimeClock} and closes it with itself.
         */
        public Builder clock(SimulationClock clock) {
            this.clock = requireNonNull(clock, "clock is null");
            return this;
        }

        /** Seeds the first-byte latency jitter; the default is 0. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** The backend; closing it closes the delegate. */
        public SimulatedNetworkBackend build() {
            if (profile.isUnlimited()) {
                return new SimulatedNetworkBackend(delegate, delegate, profile, null, RequestMetrics.NONE, false);
            }
            SimulationClock timeline = clock;
            RealTimeClock owned = null;
            if (timeline == null) {
                owned = new RealTimeClock();
                timeline = owned;
            }
            SimulatedNetwork network = new SimulatedNetwork(NetworkModel.withJitter(profile, seed), timeline, owned,
                    profile.name() + " network over " + delegate.uri());
            return new SimulatedNetworkBackend(delegate, delegate, profile, network, RequestMetrics.NONE, false);
        }
    }

    private final ObjectBackend root;
    private final ObjectBackend delegate;
    private final NetworkProfile profile;
    private final SimulatedNetwork network;
    private final RequestMetrics firstByteMetrics;
    private final boolean view;

    private SimulatedNetworkBackend(ObjectBackend root, ObjectBackend delegate, NetworkProfile profile,
            SimulatedNetwork network, RequestMetrics firstByteMetrics, boolean view) {
        this.root = root;
        this.delegate = delegate;
        this.profile = profile;
        this.network = network;
        this.firstByteMetrics = firstByteMetrics;
        this.view = view;
    }

    /** {@code delegate} behind {@code profile}'s network, in real time, jitter seeded with 0. */
    public static SimulatedNetworkBackend wrap(ObjectBackend delegate, NetworkProfile profile) {
        return builder(delegate, profile).build();
    }

    /** {@code delegate} behind the preset network called {@code profileName} ({@link NetworkProfiles#get}). */
    public static SimulatedNetworkBackend wrap(ObjectBackend delegate, String profileName) {
        return wrap(delegate, NetworkProfiles.get(profileName));
    }

    /** Options for wrapping {@code delegate} behind {@code profile}'s network. */
    public static Builder builder(ObjectBackend delegate, NetworkProfile profile) {
        return new Builder(delegate, profile);
    }

    /** The network this backend simulates. */
    public NetworkProfile profile() {
        return profile;
    }

    @Override
    protected ObjectBackend delegate() {
        return delegate;
    }

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        if (network == null) {
            return delegate.readRangeAsync(key, range);
        }
        ObjectKeys.check(key);
        requireNonNull(range, "range is null");
        return simulateLazily(RequestKind.RANGE_GET, range.length(), () -> delegate.readRangeAsync(key, range),
                ByteBuffer::remaining, null);
    }

    /**
     * One simulated {@code RANGE_GET}, timed as {@link #readRangeAsync(String, ByteRange)} is, whose bytes the wrapped
     * backend streams to {@code pieces} from the simulated first byte on: no faster than the wrapped backend gives
     * them, and no later than the read completes, at its simulated last byte.
     */
    @Override
    public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
        if (network == null) {
            return delegate.streamRangeAsync(key, range, pieces);
        }
        ObjectKeys.check(key);
        requireNonNull(range, "range is null");
        requireNonNull(pieces, "pieces is null");
        return simulateLazily(RequestKind.RANGE_GET, range.length(),
                () -> delegate.streamRangeAsync(key, range, pieces), done -> range.length(), null);
    }

    /** {@link #readRangeAsync(String, ByteRange)}, running {@code onFirstByte} at its simulated first byte. */
    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range, Runnable onFirstByte) {
        requireNonNull(onFirstByte, "onFirstByte is null");
        if (network == null) {
            return signalled(delegate.readRangeAsync(key, range), onFirstByte);
        }
        ObjectKeys.check(key);
        requireNonNull(range, "range is null");
        return simulateLazily(RequestKind.RANGE_GET, range.length(), () -> delegate.readRangeAsync(key, range),
                ByteBuffer::remaining, onFirstByte);
    }

    /** {@link #readAllAsync(String)}, running {@code onFirstByte} at its simulated first byte. */
    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key, Runnable onFirstByte) {
        requireNonNull(onFirstByte, "onFirstByte is null");
        if (network == null) {
            return signalled(delegate.readAllAsync(key), onFirstByte);
        }
        return simulateWhole(key, onFirstByte);
    }

    /** One simulated GET of whatever the wrapped backend's {@code readAllAsync} returns. */
    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        if (network == null) {
            return delegate.readAllAsync(key);
        }
        return simulate(RequestKind.GET, delegate.readAllAsync(key), ByteBuffer::remaining, null);
    }

    // size, put, list and delete are forwarded undelayed (see the class comment).

    /**
     * A view over the wrapped backend's {@code withMetrics} view that shares this backend's simulated network
     * (pool, transfers in flight, burst credit, clock) and reports simulated first-byte times to {@code metrics}.
     */
    @Override
    public SimulatedNetworkBackend withMetrics(RequestMetrics metrics) {
        requireNonNull(metrics, "metrics is null");
        if (network == null) {
            return new SimulatedNetworkBackend(root, root.withMetrics(metrics), profile, null, metrics, true);
        }
        return new SimulatedNetworkBackend(root, root.withMetrics(new SimulatedFirstByte(metrics)), profile, network,
                metrics, true);
    }

    @Override
    public void close() {
        if (view) {
            delegate.close();
            return;
        }
        try {
            if (network != null) {
                network.close();
            }
        } finally {
            delegate.close();
        }
    }

    @Override
    public String toString() {
        return "SimulatedNetworkBackend[" + profile.name() + " over " + delegate.uri() + "]";
    }

    /** The simulated network, for this package's tests. */
    SimulatedNetwork network() {
        return network;
    }

    /** With no network to simulate, the first byte is heard with the answer: just before it completes. */
    private static <T> CompletableFuture<T> signalled(CompletableFuture<T> answer, Runnable onFirstByte) {
        CompletableFuture<T> result = new CompletableFuture<>();
        answer.whenComplete((value, error) -> {
            if (error == null) {
                if (!result.isDone()) {
                    signal(onFirstByte);
                }
                result.complete(value);
            } else {
                result.completeExceptionally(unwrap(error));
            }
        });
        result.whenComplete((value, error) -> {
            if (result.isCancelled()) {
                answer.cancel(false);
            }
        });
        return result;
    }

    /**
     * A simulated whole-object read that signals its first byte (a raced copy): sized by the wrapped store's answer to
     * {@code size} (uncounted: it is the simulation's, not the client's), and then read as {@link #simulateLazily}
     * does, so a copy that loses never reaches the store; an object whose size cannot be read is asked for at once,
     * and its error comes back after a connection and a first byte. (A plain whole-object read asks the store first:
     * sizing it would put a synchronous call on every caller's thread.)
     */
    private CompletableFuture<ByteBuffer> simulateWhole(String key, Runnable onFirstByte) {
        long size;
        try {
            size = root.size(key);
        } catch (StorageException e) {
            return simulate(RequestKind.GET, delegate.readAllAsync(key), ByteBuffer::remaining, onFirstByte);
        }
        return simulateLazily(RequestKind.GET, size, () -> delegate.readAllAsync(key), ByteBuffer::remaining,
                onFirstByte);
    }

    /**
     * A simulated read of {@code bytes} bytes: its transfer enters the model at once, and the wrapped backend is asked
     * for the bytes ({@code read}) when the first byte arrives, so its own time overlaps the body's as a real store's
     * lies within its first-byte latency, and a read cancelled before its first byte (a raced copy that lost) costs
     * it nothing. An error from the wrapped backend fails the read then: after a connection and a first byte, with no
     * bytes. {@code onFirstByte} (may be null) runs once, at the first byte, unless the read was cancelled.
     * {@code bytesOf} gives the bytes an answer brought; cancelling the read cancels the wrapped backend's too (a
     * streamed read stops handing over pieces).
     */
    private <T> CompletableFuture<T> simulateLazily(RequestKind kind, long bytes, Supplier<CompletableFuture<T>> read,
            ToLongFunction<T> bytesOf, Runnable onFirstByte) {
        // Counted when sent, as a client counts it, whether or not the store is ever asked.
        firstByteMetrics.onRequestStarted(kind);
        CompletableFuture<T> result = new CompletableFuture<>();
        AtomicReference<CompletableFuture<T>> asked = new AtomicReference<>();
        AtomicReference<Object> transferOrCancelled = new AtomicReference<>();
        AtomicReference<CompletableFuture<T>> wrapped = new AtomicReference<>();
        Runnable ask = () -> {
            CompletableFuture<T> answer = new CompletableFuture<>();
            if (result.isDone() || !asked.compareAndSet(null, answer)) {
                return;
            }
            try {
                CompletableFuture<T> reading = read.get();
                wrapped.set(reading);
                if (result.isCompletedExceptionally()) {   // failed or cancelled meanwhile: stop a stream at once
                    reading.cancel(false);
                }
                reading.whenComplete((value, error) -> {
                    if (error == null) {
                        answer.complete(value);
                    } else {
                        answer.completeExceptionally(unwrap(error));
                    }
                });
            } catch (RuntimeException e) {
                answer.completeExceptionally(e);
            }
            answer.whenComplete((value, error) -> {
                if (error != null) {
                    if (result.completeExceptionally(error)
                            && transferOrCancelled.get() instanceof NetworkModel.Transfer transfer) {
                        network.cancel(transfer);   // an error response carries no body
                    }
                } else if (onFirstByte != null && !result.isDone()) {
                    // Signalled once the store has answered: an error response does not win a race.
                    signal(onFirstByte);
                }
            });
        };
        NetworkModel.Transfer transfer = network.submit(bytes, new SimulatedNetwork.Waiter(done -> {
            ask.run();   // heard here first if the last byte came with the first (an empty range)
            CompletableFuture<T> answer = asked.get();
            if (answer == null) {
                return;   // cancelled before it was asked: nothing to hand on
            }
            answer.whenComplete((value, error) -> {
                if (error == null && !result.isDone()) {
                    firstByteMetrics.onFirstByte(kind, done.timeToFirstByteNanos());
                    firstByteMetrics.onBytesReceived(kind, bytesOf.applyAsLong(value));
                    result.complete(value);
                }
            });
        }, result::completeExceptionally, ask));
        if (transfer != null && !transferOrCancelled.compareAndSet(null, transfer)) {
            abandon(kind, transfer);
        }
        result.whenComplete((value, error) -> {
            CompletableFuture<T> reading = wrapped.get();
            if (error != null && reading != null) {
                reading.cancel(false);   // a stream stops handing over pieces once its read has failed
            }
            if (result.isCancelled()) {
                CompletableFuture<T> answer = asked.get();
                if (answer != null) {
                    answer.cancel(false);
                }
                if (transferOrCancelled.getAndSet(CANCELLED) instanceof NetworkModel.Transfer submitted) {
                    abandon(kind, submitted);
                }
            }
        });
        return result;
    }

    /**
     * The simulated read of what {@code answer} brings; {@code onFirstByte} (may be null) runs once, at the simulated
     * first byte or, at the latest, just before the read completes, and not at all once it is cancelled.
     */
    private <T> CompletableFuture<T> simulate(RequestKind kind, CompletableFuture<T> answer,
            ToLongFunction<T> bytesOf, Runnable onFirstByte) {
        firstByteMetrics.onRequestStarted(kind);
        CompletableFuture<T> result = new CompletableFuture<>();
        AtomicBoolean firstByteHeard = new AtomicBoolean(onFirstByte == null);
        Runnable firstByte = () -> {
            if (!result.isDone() && firstByteHeard.compareAndSet(false, true)) {
                signal(onFirstByte);
            }
        };
        // The transfer once submitted; CANCELLED once the caller has cancelled: whichever side comes second cancels.
        AtomicReference<Object> transferOrCancelled = new AtomicReference<>();
        answer.whenComplete((value, error) -> {
            if (result.isDone()) {
                return;   // cancelled before the store answered: nothing goes over the simulated wire
            }
            long bytes = error == null ? bytesOf.applyAsLong(value) : 0;
            NetworkModel.Transfer transfer = network.submit(bytes, new SimulatedNetwork.Waiter(done -> {
                if (error == null) {
                    firstByte.run();
                    firstByteMetrics.onFirstByte(kind, done.timeToFirstByteNanos());
                    firstByteMetrics.onBytesReceived(kind, bytes);
                    result.complete(value);
                } else {
                    result.completeExceptionally(unwrap(error));
                }
            }, closed -> {
                if (error != null) {
                    closed.addSuppressed(unwrap(error));
                }
                result.completeExceptionally(closed);
            }, onFirstByte == null || error != null ? null : firstByte));
            if (transfer != null && !transferOrCancelled.compareAndSet(null, transfer)) {
                abandon(kind, transfer);
            }
        });
        result.whenComplete((value, error) -> {
            if (result.isCancelled()) {
                answer.cancel(false);
                Object transfer = transferOrCancelled.getAndSet(CANCELLED);
                if (transfer instanceof NetworkModel.Transfer submitted) {
                    abandon(kind, submitted);
                }
            }
        });
        return result;
    }

    /** The caller cancelled a read in flight: free its connection and bandwidth, count the bytes that arrived. */
    private void abandon(RequestKind kind, NetworkModel.Transfer transfer) {
        long received = network.cancel(transfer);
        if (received > 0) {
            firstByteMetrics.onBytesReceived(kind, received);
        }
    }

    /** Runs a caller's first-byte callback; one that throws is the caller's problem: the read still completes. */
    private static void signal(Runnable onFirstByte) {
        try {
            onFirstByte.run();
        } catch (RuntimeException e) {
            // not this read's failure: it completes as it would have
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /**
     * Forwards everything but first-byte reports and the byte counts of reads, which the simulation makes itself:
     * the wrapped backend's would measure how fast memory or disk answered, and count a cancelled read's bytes that
     * never arrived.
     */
    private static final class SimulatedFirstByte implements RequestMetrics {
        private static final Set<RequestKind> SIMULATED = EnumSet.of(RequestKind.GET, RequestKind.RANGE_GET);
        private final RequestMetrics target;

        SimulatedFirstByte(RequestMetrics target) {
            this.target = target;
        }

        @Override
        public void onRequestStarted(RequestKind kind) {
            // A simulated read is counted when it is sent over the simulated network: the store is asked only at its
            // first byte (or, for an object it cannot size, before), and not at all if the read is cancelled first.
            if (!SIMULATED.contains(kind)) {
                target.onRequestStarted(kind);
            }
        }

        @Override
        public void onFirstByte(RequestKind kind, long nanosSinceStart) {
        }

        @Override
        public void onBytesReceived(RequestKind kind, long bytes) {
            // A simulated read's bytes count when they arrive over the simulated network (all of them, or what
            // arrived before the read was cancelled), not when the wrapped backend reads them.
            if (!SIMULATED.contains(kind)) {
                target.onBytesReceived(kind, bytes);
            }
        }

        @Override
        public void onHedgedRequest(RequestKind kind) {
            target.onHedgedRequest(kind);
        }

        @Override
        public void onBytesSent(RequestKind kind, long bytes) {
            target.onBytesSent(kind, bytes);
        }

        @Override
        public void onRetry(RequestKind kind) {
            target.onRetry(kind);
        }

        @Override
        public void onRequestFailed(RequestKind kind) {
            target.onRequestFailed(kind);
        }
    }
}
