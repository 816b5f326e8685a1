package io.layoutbench.api.testing;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.TransientStorageException;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.SimulationClock;

import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A test decorator that makes chosen requests fail or go slow, or takes the whole backend down, so retry, timeout
 * and error-reporting code can be tested without a flaky network.
 *
 * <p><b>Rules</b> pick requests by {@link RequestKind}, key, and position: skip the first {@code n} matching calls,
 * then act on the next {@code times}, then let the rest through. Rules are checked in the order they were added;
 * the first one that acts handles the call, and a rule counts only the calls that reach it. A {@link Fault} either
 * fails the call (transient, throttled, permanent, access denied, not found, or any {@link StorageException} you
 * make) or delays its completion until a gate completes, which a test controls: a {@link CompletableFuture} it
 * completes itself, or a time on a {@link SimulationClock} such as {@code VirtualClock}. No test needs to sleep.
 *
 * <p><b>Operations and kinds:</b> {@code readRangeAsync} is {@link RequestKind#RANGE_GET}, {@code readAllAsync}
 * {@link RequestKind#GET}, {@code size} (and so {@code exists}) {@link RequestKind#HEAD}, {@code put}
 * {@link RequestKind#PUT}, {@code list} {@link RequestKind#LIST} (its key is the prefix), {@code delete} and each key
 * of {@code deleteAll} {@link RequestKind#DELETE}. Asynchronous reads fail through their future; the other
 * operations throw. A delayed synchronous operation blocks its caller until the gate completes, so release it from
 * another thread.
 *
 * <p><b>Down:</b> after {@link #down()} every operation fails with a {@link TransientStorageException} saying
 * {@code Backend <uri> is down}, until {@link #up()}.
 *
 * <p><b>Counting:</b> {@link #injectedFaults()} counts failures and delays injected (down included);
 * {@link #calls(RequestKind)} counts every call seen. A failed call never reaches the wrapped backend, so metrics
 * passed to {@link #withMetrics} count only the calls that got through. Views from {@code withMetrics} share this
 * backend's rules, state and counts. Thread-safe.
 *
 * <pre>{@code
 * FaultInjectingBackend flaky = FaultInjectingBackend.wrap(backendUnderTest)
 *         .failNext(RequestKind.RANGE_GET, 2, transientError())          // two 503s, then fine
 *         .failAlways(RequestKind.PUT, key -> key.startsWith("ro/"), accessDenied());
 * CompletableFuture<Void> gate = new CompletableFuture<>();
 * flaky.failNext(RequestKind.GET, 1, delayUntil(gate));                  // next GET waits for the test
 * ...
 * gate.complete(null);
 * assertThat(flaky.injectedFaults()).isEqualTo(3);
 * }</pre>
 */
public final class FaultInjectingBackend implements ObjectBackend {

    /**
     * What to do to a call a rule picked: fail it or delay it. Made by the static factories of
     * {@link FaultInjectingBackend}.
     *
     * <pre>{@code
     * Fault slow = FaultInjectingBackend.delay(Duration.ofMillis(200), virtualClock);
     * Fault corrupt = FaultInjectingBackend.failWith("checksum mismatch", CorruptDataException::new);
     * }</pre>
     */
    public static final class Fault {
        private final String description;
        private final Function<String, ? extends StorageException> error;
        private final Supplier<? extends CompletionStage<?>> gate;

        private Fault(String description, Function<String, ? extends StorageException> error,
                Supplier<? extends CompletionStage<?>> gate) {
            this.description = description;
            this.error = error;
            this.gate = gate;
        }

        /** Whether the fault delays the call instead of failing it. */
        public boolean isDelay() {
            return gate != null;
        }

        @Override
        public String toString() {
            return description;
        }
    }

    /**
     * Which calls a fault applies to: calls of the given kinds whose key matches, after skipping the first
     * {@code skip} matching calls, {@code times} times (then the rule lets calls through).
     *
     * <pre>{@code
     * Rule.of(transientError(), RequestKind.RANGE_GET).forKeysStartingWith("l2/").skipping(3).times(2)
     * }</pre>
     *
     * @param fault           what to do
     * @param kinds           the kinds of request it applies to, not empty
     * @param keys            which keys (prefix for listings) it applies to
     * @param keysDescription how {@code keys} reads in messages
     * @param skip            matching calls to let through first, at least 0
     * @param times           matching calls to act on after that, at least 1; {@link Integer#MAX_VALUE} is forever
     */
    public record Rule(Fault fault, Set<RequestKind> kinds, Predicate<String> keys, String keysDescription,
            int skip, int times) {

        public Rule {
            requireNonNull(fault, "fault is null");
            requireNonNull(kinds, "kinds is null");
            requireNonNull(keys, "keys is null");
            requireNonNull(keysDescription, "keysDescription is null");
            if (kinds.isEmpty()) {
                throw new IllegalArgumentException("A fault rule needs at least one request kind");
            }
            kinds = Set.copyOf(kinds);
            if (skip < 0) {
                throw new IllegalArgumentException("A fault rule's skip must be >= 0, got " + skip);
            }
            if (times < 1) {
                throw new IllegalArgumentException("A fault rule must act at least once, got times = " + times);
            }
        }

        /** {@code fault} on every call of the given kinds (all kinds if none are given), every key, forever. */
        public static Rule of(Fault fault, RequestKind... kinds) {
            Set<RequestKind> chosen = kinds.length == 0 ? EnumSet.allOf(RequestKind.class)
                    : EnumSet.copyOf(Arrays.asList(kinds));
            return new Rule(fault, chosen, key -> true, "any key", 0, Integer.MAX_VALUE);
        }

        /** This rule for the keys {@code keys} accepts only. */
        public Rule forKeys(Predicate<String> keys) {
            return new Rule(fault, kinds, keys, "keys matching a predicate", skip, times);
        }

        /** This rule for one key. */
        public Rule forKey(String key) {
            requireNonNull(key, "key is null");
            return new Rule(fault, kinds, key::equals, "key " + key, skip, times);
        }

        /** This rule for keys starting with {@code prefix}. */
        public Rule forKeysStartingWith(String prefix) {
            requireNonNull(prefix, "prefix is null");
            return new Rule(fault, kinds, key -> key.startsWith(prefix), "keys under " + prefix, skip, times);
        }

        /** This rule after letting the first {@code calls} matching calls through. */
        public Rule skipping(int calls) {
            return new Rule(fault, kinds, keys, keysDescription, calls, times);
        }

        /** This rule acting on {@code count} calls, then no more. */
        public Rule times(int count) {
            return new Rule(fault, kinds, keys, keysDescription, skip, count);
        }

        boolean matches(RequestKind kind, String key) {
            return kinds.contains(kind) && keys.test(key);
        }

        /** {@code RANGE_GET on keys under l2/, calls 4-5}. */
        @Override
        public String toString() {
            String calls = times == Integer.MAX_VALUE ? "every call from " + (skip + 1)
                    : times == 1 ? "call " + (skip + 1) : "calls " + (skip + 1) + "-" + ((long) skip + times);
            String kindNames = kinds.size() == RequestKind.values().length ? "any request"
                    : kinds.stream().sorted().map(Enum::name).collect(Collectors.joining("/"));
            return kindNames + " on " + keysDescription + ", " + calls + ": " + fault;
        }
    }

    /** What a call met: nothing, a failure, or a gate to wait for. */
    private record Decision(StorageException failure, CompletionStage<?> gate) {
        static final Decision PASS = new Decision(null, null);
    }

    private static final class RuleState {
        final Rule rule;
        long matched;
        long acted;

        RuleState(Rule rule) {
            this.rule = rule;
        }
    }

    /** Shared by a backend and its metrics views. */
    private static final class State {
        final List<RuleState> rules = new ArrayList<>();
        final Map<RequestKind, Long> calls = new EnumMap<>(RequestKind.class);
        final Map<RequestKind, Long> injected = new EnumMap<>(RequestKind.class);
        boolean down;
    }

    private final ObjectBackend inner;
    private final State state;
    private final boolean ownsInner;

    private FaultInjectingBackend(ObjectBackend inner, State state, boolean ownsInner) {
        this.inner = requireNonNull(inner, "inner backend is null");
        this.state = state;
        this.ownsInner = ownsInner;
    }

    /** A decorator over {@code inner} with no rules yet: every call goes through. Closing it closes {@code inner}. */
    public static FaultInjectingBackend wrap(ObjectBackend inner) {
        return new FaultInjectingBackend(inner, new State(), true);
    }

    // ---- faults ------------------------------------------------------------------------------------------

    /** Fails with a {@link TransientStorageException}, as a 500 or a connection reset would. */
    public static Fault transientError() {
        return new Fault("transient error", TransientStorageException::new, null);
    }

    /** Fails with a throttling {@link TransientStorageException}, as S3's 503 SlowDown would. */
    public static Fault throttled() {
        return new Fault("throttling (503 SlowDown)", message -> new TransientStorageException(message, null, true),
                null);
    }

    /** Fails with a plain, permanent {@link StorageException}. */
    public static Fault permanentError() {
        return new Fault("permanent error", StorageException::new, null);
    }

    /** Fails with an {@link AccessDeniedException}, as a 403 would. */
    public static Fault accessDenied() {
        return new Fault("access denied (403)", message -> new AccessDeniedException(message, null), null);
    }

    /** Fails with an {@link ObjectNotFoundException}, as a 404 would. */
    public static Fault notFound() {
        return new Fault("not found (404)", ObjectNotFoundException::new, null);
    }

    /**
     * Fails with what {@code error} makes of the message (which names the call and the rule).
     *
     * @param description how the fault reads in messages, {@code "checksum mismatch"}
     */
    public static Fault failWith(String description, Function<String, ? extends StorageException> error) {
        requireNonNull(description, "description is null");
        requireNonNull(error, "error is null");
        return new Fault(description, error, null);
    }

    /**
     * Lets the call go to the wrapped backend but holds back its result until {@code gate} completes. If the gate
     * completes exceptionally the call fails with that exception instead.
     */
    public static Fault delayUntil(CompletionStage<?> gate) {
        requireNonNull(gate, "gate is null");
        return new Fault("delay until a gate opens", null, () -> gate);
    }

    /**
     * Lets the call go to the wrapped backend but holds back its result for {@code delay} on {@code clock},
     * counted from the call.
     */
    public static Fault delay(Duration delay, SimulationClock clock) {
        requireNonNull(delay, "delay is null");
        requireNonNull(clock, "clock is null");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("A fault delay must be >= 0, got " + delay);
        }
        return new Fault("delay of " + delay, null, () -> {
            CompletableFuture<Void> gate = new CompletableFuture<>();
            clock.schedule(clock.nanoTime() + delay.toNanos(), () -> gate.complete(null));
            return gate;
        });
    }

    // ---- rules -------------------------------------------------------------------------------------------

    /** Adds {@code rule} after the existing ones. */
    public FaultInjectingBackend inject(Rule rule) {
        requireNonNull(rule, "rule is null");
        synchronized (state) {
            state.rules.add(new RuleState(rule));
        }
        return this;
    }

    /** {@code fault} on the next {@code count} calls of {@code kind}, then success. */
    public FaultInjectingBackend failNext(RequestKind kind, int count, Fault fault) {
        return inject(Rule.of(fault, requireNonNull(kind, "kind is null")).times(count));
    }

    /** {@code fault} on the {@code nth} call of {@code kind} from now (1 is the next), only. */
    public FaultInjectingBackend failCall(RequestKind kind, int nth, Fault fault) {
        if (nth < 1) {
            throw new IllegalArgumentException("Calls are counted from 1, got nth = " + nth);
        }
        return inject(Rule.of(fault, requireNonNull(kind, "kind is null")).skipping(nth - 1).times(1));
    }

    /** {@code fault} on every call of {@code kind} whose key {@code keys} accepts. */
    public FaultInjectingBackend failAlways(RequestKind kind, Predicate<String> keys, Fault fault) {
        return inject(Rule.of(fault, requireNonNull(kind, "kind is null")).forKeys(keys));
    }

    /** Holds back the results of the next {@code count} calls of {@code kind} until {@code gate} completes. */
    public FaultInjectingBackend delayNext(RequestKind kind, int count, CompletionStage<?> gate) {
        return failNext(kind, count, delayUntil(gate));
    }

    /** Removes every rule; counts are kept. */
    public FaultInjectingBackend clearRules() {
        synchronized (state) {
            state.rules.clear();
        }
        return this;
    }

    /** Takes the backend down: every operation fails as transient until {@link #up()}. */
    public FaultInjectingBackend down() {
        synchronized (state) {
            state.down = true;
        }
        return this;
    }

    /** Brings the backend back up. */
    public FaultInjectingBackend up() {
        synchronized (state) {
            state.down = false;
        }
        return this;
    }

    /** Whether {@link #down()} is in force. */
    public boolean isDown() {
        synchronized (state) {
            return state.down;
        }
    }

    // ---- counts ------------------------------------------------------------------------------------------

    /** Failures and delays injected so far, of every kind. */
    public long injectedFaults() {
        synchronized (state) {
            return state.injected.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Failures and delays injected into calls of {@code kind}. */
    public long injectedFaults(RequestKind kind) {
        synchronized (state) {
            return state.injected.getOrDefault(kind, 0L);
        }
    }

    /** Calls of {@code kind} seen, whether they were let through or not. */
    public long calls(RequestKind kind) {
        synchronized (state) {
            return state.calls.getOrDefault(kind, 0L);
        }
    }

    // ---- the backend -------------------------------------------------------------------------------------

    @Override
    public URI uri() {
        return inner.uri();
    }

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        Decision decision = decide(RequestKind.RANGE_GET, key, key + " " + range);
        if (decision.failure() != null) {
            return CompletableFuture.failedFuture(decision.failure());
        }
        return holdBack(inner.readRangeAsync(key, range), decision.gate());
    }

    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key) {
        Decision decision = decide(RequestKind.GET, key, key);
        if (decision.failure() != null) {
            return CompletableFuture.failedFuture(decision.failure());
        }
        return holdBack(inner.readAllAsync(key), decision.gate());
    }

    @Override
    public long size(String key) {
        Decision decision = decideOrThrow(RequestKind.HEAD, key, key);
        long size = inner.size(key);
        await(decision.gate());
        return size;
    }

    @Override
    public void put(String key, InputStream data, long length) {
        Decision decision = decideOrThrow(RequestKind.PUT, key, key + " (" + length + " bytes)");
        inner.put(key, data, length);
        await(decision.gate());
    }

    @Override
    public Stream<ObjectInfo> list(String prefix) {
        Decision decision = decideOrThrow(RequestKind.LIST, prefix, "prefix '" + prefix + "'");
        Stream<ObjectInfo> listing = inner.list(prefix);
        await(decision.gate());
        return listing;
    }

    @Override
    public void delete(String key) {
        Decision decision = decideOrThrow(RequestKind.DELETE, key, key);
        inner.delete(key);
        await(decision.gate());
    }

    /** A view over {@code inner.withMetrics(metrics)} that shares this backend's rules, state and counts. */
    @Override
    public FaultInjectingBackend withMetrics(RequestMetrics metrics) {
        return new FaultInjectingBackend(inner.withMetrics(metrics), state, false);
    }

    /** Closes the wrapped backend, or, for a metrics view, only the wrapped view. */
    @Override
    public void close() {
        inner.close();
    }

    @Override
    public String toString() {
        synchronized (state) {
            return "FaultInjectingBackend[" + inner.uri() + (state.down ? ", down" : "") + ", " + state.rules.size()
                    + " rules, " + state.injected.values().stream().mapToLong(Long::longValue).sum()
                    + " faults injected]";
        }
    }

    private Decision decideOrThrow(RequestKind kind, String key, String what) {
        Decision decision = decide(kind, key, what);
        if (decision.failure() != null) {
            throw decision.failure();
        }
        return decision;
    }

    private Decision decide(RequestKind kind, String key, String what) {
        Fault fault;
        String message;
        synchronized (state) {
            state.calls.merge(kind, 1L, Long::sum);
            if (state.down) {
                state.injected.merge(kind, 1L, Long::sum);
                return new Decision(new TransientStorageException("Backend " + inner.uri()
                        + " is down (FaultInjectingBackend.down()): cannot " + kind + " " + what), null);
            }
            RuleState acting = null;
            int index = 0;
            for (RuleState candidate : state.rules) {
                index++;
                if (candidate.rule.matches(kind, key)) {
                    candidate.matched++;
                    if (candidate.matched > candidate.rule.skip() && candidate.acted < candidate.rule.times()) {
                        candidate.acted++;
                        acting = candidate;
                        break;
                    }
                }
            }
            if (acting == null) {
                return Decision.PASS;
            }
            state.injected.merge(kind, 1L, Long::sum);
            fault = acting.rule.fault();
            message = "Injected " + fault + ": " + kind + " " + what + " on " + inner.uri()
                    + " (FaultInjectingBackend rule " + index + ": " + acting.rule + ")";
        }
        // Outside the lock: a clock-based gate schedules on the clock, which may run other work.
        if (fault.isDelay()) {
            return new Decision(null, fault.gate.get());
        }
        return new Decision(fault.error.apply(message), null);
    }

    private static <T> CompletableFuture<T> holdBack(CompletableFuture<T> result, CompletionStage<?> gate) {
        if (gate == null) {
            return result;
        }
        CompletableFuture<T> held = new CompletableFuture<>();
        gate.whenComplete((ignored, gateError) -> result.whenComplete((value, error) -> {
            if (gateError != null) {
                held.completeExceptionally(unwrap(gateError));
            } else if (error != null) {
                held.completeExceptionally(unwrap(error));
            } else {
                held.complete(value);
            }
        }));
        return held;
    }

    private static void await(CompletionStage<?> gate) {
        if (gate != null) {
            // Rethrows the gate's own exception, unwrapped, like a failed call.
            ObjectBackend.await(gate.toCompletableFuture());
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
