package io.layoutbench.layouts.retrieval;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.SupportsFirstByteSignal;
import io.layoutbench.api.backend.SupportsRacedReads;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.NetworkProfile;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A view of a backend that races every ranged read sent through it: {@link HedgeDelay#racedCopiesAlone} copies at
 * once, the first whose response starts wins, and the others are cancelled then, before they move a byte. For the
 * reads a cold query sends to load its metadata, each a round trip of its own that waits for the one before (a
 * footer, then the chunks it locates): {@link StreamingRetrieval} races the data reads of a batch, and these are
 * not sent through it. A round of a few dozen footers waits for the slowest of them; at mini on t3.medium, the 21
 * footer reads of L3 took 2 to 4 times the median latency as a round.
 *
 * <p>Only a backend that signals first bytes ({@link SupportsFirstByteSignal}) is raced, and only where the query
 * hedges its reads on a profile with latency jitter ({@link HedgeDelay#worthwhile}); a store built over other
 * backends that races its own reads to them ({@link SupportsRacedReads}: the FAC store) is asked for its raced view;
 * {@link #of} returns any other backend as it is. Whole-object reads are not raced: their size is not known before
 * they are sent. Each copy after the first is counted as a hedged request of {@code metrics}. A copy that fails
 * before any response has started leaves the race to the others, and the read fails only when every copy has, with
 * the first failure that was not a cancellation; once a copy's response has started the others are cancelled, and
 * the read is that copy's. {@link #first} runs such a race over any reads that return the same bytes (replicas on
 * different nodes).
 *
 * <p>The copies go outside retrieval's read window, which these reads do not pass through (a layout loads its
 * metadata a round at a time: L3 up to 32 footers at once). The choice weighs each read alone, on an idle link: it
 * holds where a round is small next to the connection pool (at mini on t3.medium, L3's rounds of 21 reads send 63
 * requests, against a pool of 297).
 *
 * <pre>{@code
 * ObjectBackend metadataReads = RacedReads.of(metered, options, queryMetrics);
 * MetadataTable table = MetadataTable.load(metadataReads, object, schema);   // each round trip raced
 * }</pre>
 */
public final class RacedReads extends ForwardingObjectBackend {
    private final ObjectBackend backend;
    private final SupportsFirstByteSignal signalling;
    private final NetworkProfile network;
    private final RequestMetrics metrics;

    private RacedReads(ObjectBackend backend, SupportsFirstByteSignal signalling, NetworkProfile network,
            RequestMetrics metrics) {
        this.backend = backend;
        this.signalling = signalling;
        this.network = network;
        this.metrics = metrics;
    }

    /**
     * {@code backend} with its ranged reads raced, if it signals first bytes and {@code options} hedge reads on a
     * network with latency jitter; a store that races its own reads below it ({@link SupportsRacedReads}) gives its
     * raced view where it hedges; otherwise {@code backend} itself.
     *
     * @param metrics where each copy after the first is counted as a hedged request
     */
    public static ObjectBackend of(ObjectBackend backend, QueryOptions options, RequestMetrics metrics) {
        requireNonNull(backend, "backend is null");
        requireNonNull(options, "options is null");
        requireNonNull(metrics, "metrics is null");
        if (!options.hedgesReads()) {
            return backend;
        }
        if (backend instanceof SupportsRacedReads racing) {
            return racing.withRacedReads(options.network(), metrics);
        }
        if (HedgeDelay.worthwhile(options.network()) && backend instanceof SupportsFirstByteSignal signalling) {
            return new RacedReads(backend, signalling, options.network(), metrics);
        }
        return backend;
    }

    /**
     * The bytes of whichever of {@code copies} first starts to answer: each is sent at once, given the callback to run
     * at its first byte (a {@link SupportsFirstByteSignal} read), and the others are cancelled when one starts. For
     * reads that return the same bytes from different places, such as an object's replicas on different nodes. A copy
     * that fails before any response has started leaves the race to the others; the race fails only when every copy
     * has, with the first failure that was not a cancellation.
     *
     * <pre>{@code
     * CompletableFuture<ByteBuffer> map = RacedReads.first(List.of(
     *         onFirstByte -> node0.readAllAsync("manifests/a.facm", onFirstByte),
     *         onFirstByte -> node1.readAllAsync("manifests/a.facm", onFirstByte)), metrics, RequestKind.GET);
     * }</pre>
     *
     * @param metrics where each copy after the first is counted as a hedged request of {@code kind}
     * @throws IllegalArgumentException if there are no copies
     */
    public static CompletableFuture<ByteBuffer> first(
            List<? extends Function<Runnable, CompletableFuture<ByteBuffer>>> copies, RequestMetrics metrics,
            RequestKind kind) {
        requireNonNull(copies, "copies is null");
        requireNonNull(metrics, "metrics is null");
        requireNonNull(kind, "kind is null");
        if (copies.isEmpty()) {
            throw new IllegalArgumentException("A race needs at least one copy");
        }
        return new Race(metrics, kind).run(List.copyOf(copies));
    }

    @Override
    protected ObjectBackend delegate() {
        return backend;
    }

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        int copies = HedgeDelay.racedCopiesAlone(network, range.length());
        if (copies < 2) {
            return backend.readRangeAsync(key, range);
        }
        Function<Runnable, CompletableFuture<ByteBuffer>> copy =
                onFirstByte -> signalling.readRangeAsync(key, range, onFirstByte);
        return new Race(metrics, RequestKind.RANGE_GET).run(Collections.nCopies(copies, copy));
    }

    /**
     * Streamed as the backend streams it when the read is not raced; a raced read is read whole by the copy that
     * wins, then handed over as one piece (copies that lose are cancelled before their bodies would be streamed).
     */
    @Override
    public CompletableFuture<Void> streamRangeAsync(String key, ByteRange range, Consumer<ByteBuffer> pieces) {
        if (HedgeDelay.racedCopiesAlone(network, range.length()) < 2) {
            return backend.streamRangeAsync(key, range, pieces);
        }
        return ObjectBackend.inOnePiece(readRangeAsync(key, range), pieces);
    }

    /** A view for other metrics is another caller's: it does not race. */
    @Override
    public ObjectBackend withMetrics(RequestMetrics otherMetrics) {
        return backend.withMetrics(otherMetrics);
    }

    /** The backend is the caller's to close, not this view's. */
    @Override
    public void close() {
    }

    /** One raced read: its copies, and the one whose first byte came first. Fields are guarded by {@code this}. */
    private static final class Race {
        private final RequestMetrics metrics;
        private final RequestKind kind;
        private final CompletableFuture<ByteBuffer> answer = new CompletableFuture<>();
        private final List<Copy> copies = new ArrayList<>(HedgeDelay.MAX_RACED_COPIES);
        private Copy winner;
        private int running;
        private Throwable firstFailure;

        Race(RequestMetrics metrics, RequestKind kind) {
            this.metrics = metrics;
            this.kind = kind;
        }

        CompletableFuture<ByteBuffer> run(List<? extends Function<Runnable, CompletableFuture<ByteBuffer>>> senders) {
            int count = senders.size();
            answer.whenComplete((value, failure) -> {
                if (answer.isCancelled()) {
                    cancelAllBut(null);
                }
            });
            synchronized (this) {
                running = count;   // every copy counts until it ends or is not sent: a failure is not the last early
            }
            for (int i = 0; i < count; i++) {
                Copy copy = new Copy();
                synchronized (this) {
                    if (winner != null || answer.isDone()) {
                        running -= count - i;   // a first byte came while the copies went: the rest need not
                        break;
                    }
                    copies.add(copy);
                }
                if (i > 0) {
                    metrics.onHedgedRequest(kind);
                }
                CompletableFuture<ByteBuffer> future;
                try {
                    future = senders.get(i).apply(() -> onFirstByte(copy));
                } catch (RuntimeException e) {
                    future = CompletableFuture.failedFuture(e);
                }
                boolean lost;
                synchronized (this) {
                    copy.future = future;
                    lost = (winner != null && winner != copy) || answer.isDone();
                }
                if (lost) {
                    future.cancel(false);
                }
                future.whenComplete((value, failure) -> onDone(copy, value, failure));
            }
            return answer;
        }

        private void onFirstByte(Copy first) {
            synchronized (this) {
                if (winner != null || answer.isDone()) {
                    return;
                }
                winner = first;
            }
            cancelAllBut(first);
        }

        private void onDone(Copy copy, ByteBuffer value, Throwable failure) {
            if (failure == null) {
                if (answer.complete(value)) {
                    cancelAllBut(copy);
                }
                return;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            boolean last;
            synchronized (this) {
                if (firstFailure == null && !(cause instanceof CancellationException)) {
                    firstFailure = cause;
                }
                last = --running == 0;
                cause = firstFailure != null ? firstFailure : cause;
            }
            if (last) {
                answer.completeExceptionally(cause);
            }
        }

        private void cancelAllBut(Copy kept) {
            List<CompletableFuture<ByteBuffer>> others = new ArrayList<>(HedgeDelay.MAX_RACED_COPIES);
            synchronized (this) {
                for (Copy copy : copies) {
                    if (copy != kept && copy.future != null) {
                        others.add(copy.future);
                    }
                }
            }
            others.forEach(future -> future.cancel(false));
        }
    }

    /** One copy of a raced read: its future once sent. Guarded by its race. */
    private static final class Copy {
        CompletableFuture<ByteBuffer> future;
    }
}
