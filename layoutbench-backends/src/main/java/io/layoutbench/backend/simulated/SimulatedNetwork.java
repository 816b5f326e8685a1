package io.layoutbench.backend.simulated;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.network.NetworkModel;
import io.layoutbench.api.network.SimulationClock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * The state a {@link SimulatedNetworkBackend} and its metrics views share: one {@link NetworkModel} (the pool, the
 * transfers in flight, the burst bucket) driven by one {@link SimulationClock}.
 *
 * <p>The model runs on its own time axis from zero; {@code origin} maps it onto the clock. Whenever the model's next
 * event moves earlier, a wake-up is scheduled on the clock for it; a wake-up advances the model to the clock's time
 * and hands the completed requests to the clock's callback executor, outside the lock. Wake-ups that find nothing
 * due (because the model changed since) do nothing but re-arm. Thread-safe.
 */
final class SimulatedNetwork implements AutoCloseable {

    /**
     * What to do when a request's first simulated byte arrives ({@code onFirstByte}, may be null), when its last
     * arrives, or when the network closes first.
     */
    record Waiter(Consumer<NetworkModel.Transfer> onDone, Consumer<StorageException> onAbort, Runnable onFirstByte) {
        Waiter(Consumer<NetworkModel.Transfer> onDone, Consumer<StorageException> onAbort) {
            this(onDone, onAbort, null);
        }
    }

    /** A callback to run outside the lock: a first byte ({@code firstByte}) or a completion. */
    private record Delivery(Waiter waiter, NetworkModel.Transfer transfer, boolean firstByte) {
    }

    private final NetworkModel model;
    private final SimulationClock clock;
    private final AutoCloseable ownedClock;
    private final String description;
    private final long origin;
    private final Map<NetworkModel.Transfer, Waiter> waiting = new HashMap<>();
    /** Model time of the earliest wake-up scheduled and not yet run; MAX_VALUE when none. */
    private long armedAt = Long.MAX_VALUE;
    private boolean closed;

    /**
     * @param ownedClock closed with this network (the clock the backend made for itself), or null
     * @param description what this network is, for messages: {@code "t3.medium network over mem:..."}
     */
    SimulatedNetwork(NetworkModel model, SimulationClock clock, AutoCloseable ownedClock, String description) {
        this.model = requireNonNull(model, "model is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.ownedClock = ownedClock;
        this.description = requireNonNull(description, "description is null");
        this.origin = clock.nanoTime();
    }

    /**
     * Starts a simulated transfer of {@code bytes} now; {@code waiter} hears when it ends. Returns the transfer, or
     * null if the network is closed (the waiter has heard so).
     */
    NetworkModel.Transfer submit(long bytes, Waiter waiter) {
        List<Delivery> deliveries;
        NetworkModel.Transfer transfer = null;
        synchronized (this) {
            if (!closed) {
                deliveries = advanceToClock();
                transfer = model.submit(bytes);
                waiting.put(transfer, waiter);
                arm();
            } else {
                deliveries = null;
            }
        }
        if (deliveries == null) {
            waiter.onAbort().accept(new StorageException("Cannot simulate a request: the " + description
                    + " is closed"));
            return null;
        }
        deliver(deliveries);
        return transfer;
    }

    /**
     * Abandons {@code transfer} now, as a client cancels a request ({@link NetworkModel#cancel}: its connection
     * closes, its bandwidth goes to the others); its waiter hears nothing more. Returns the body bytes that had
     * arrived, or -1 if it had already completed (its waiter heard, or is about to) or the network is closed.
     */
    long cancel(NetworkModel.Transfer transfer) {
        List<Delivery> deliveries;
        long received = -1;
        synchronized (this) {
            if (closed) {
                return -1;
            }
            deliveries = advanceToClock();
            if (model.cancel(transfer)) {
                waiting.remove(transfer);
                received = transfer.receivedBytes();
                arm();
            }
        }
        deliver(deliveries);
        return received;
    }

    /** The model, for tests and statistics; lock on this network to read it. */
    NetworkModel model() {
        return model;
    }

    /** Fails the requests in flight and stops the clock if this network made it. */
    @Override
    public void close() {
        List<Waiter> aborted;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            aborted = new ArrayList<>(waiting.values());
            waiting.clear();
        }
        for (Waiter waiter : aborted) {
            waiter.onAbort().accept(new StorageException("The " + description + " was closed with "
                    + aborted.size() + " simulated requests in flight"));
        }
        if (ownedClock != null) {
            try {
                ownedClock.close();
            } catch (Exception e) {
                throw new IllegalStateException("Cannot stop the clock of the " + description, e);
            }
        }
    }

    private void wake(long at) {
        List<Delivery> deliveries;
        synchronized (this) {
            if (closed) {
                return;
            }
            if (armedAt == at) {
                armedAt = Long.MAX_VALUE;
            }
            deliveries = advanceToClock();
            arm();
        }
        deliver(deliveries);
    }

    private List<Delivery> advanceToClock() {
        // A real clock may fire a little late, never early; the model then catches up event by event.
        long modelNow = Math.max(model.nowNanos(), clock.nanoTime() - origin);
        List<NetworkModel.Transfer> started = new ArrayList<>();
        List<NetworkModel.Transfer> completed = model.advanceTo(modelNow, started);
        List<Delivery> deliveries = new ArrayList<>(started.size() + completed.size());
        for (NetworkModel.Transfer transfer : started) {
            Waiter waiter = waiting.get(transfer);
            if (waiter != null && waiter.onFirstByte() != null) {
                deliveries.add(new Delivery(waiter, transfer, true));
            }
        }
        for (NetworkModel.Transfer transfer : completed) {
            deliveries.add(new Delivery(waiting.remove(transfer), transfer, false));
        }
        return deliveries;
    }

    private void arm() {
        long next = model.nextEventNanos();
        if (next != Long.MAX_VALUE && next < armedAt) {
            armedAt = next;
            clock.schedule(origin + next, () -> wake(next));
        }
    }

    private void deliver(List<Delivery> deliveries) {
        for (Delivery delivery : deliveries) {
            Runnable callback = delivery.firstByte() ? delivery.waiter().onFirstByte()
                    : () -> delivery.waiter().onDone().accept(delivery.transfer());
            try {
                clock.callbackExecutor().execute(callback);
            } catch (RejectedExecutionException e) {
                // The clock is shutting down under us; completing on this thread beats leaving a future hanging.
                callback.run();
            }
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
