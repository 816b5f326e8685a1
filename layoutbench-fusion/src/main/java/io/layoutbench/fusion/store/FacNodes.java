package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.ObjectBackend;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The N storage nodes of a FAC store, and what every part of the store shares with them: the options, the
 * {@link Placement} of manifests and blocks, the threads that write blocks and manifests in parallel, and whether
 * the store is closed. A {@link FacBackend} and its metrics views share one.
 *
 * <p>Thread-safe. The nodes are held in an atomic array because {@link FacBackend#repairNode} swaps one for its
 * replacement while other threads may be reading.
 */
final class FacNodes {

    private final AtomicReferenceArray<ObjectBackend> nodes;
    private final FacOptions options;
    private final Placement placement;
    private final boolean ownsNodes;
    private final ExecutorService writers;
    private final AtomicBoolean closed = new AtomicBoolean();

    FacNodes(List<ObjectBackend> nodes, FacOptions options, boolean ownsNodes) {
        this.nodes = new AtomicReferenceArray<>(nodes.toArray(new ObjectBackend[0]));
        this.options = options;
        this.placement = new Placement(nodes.size());
        this.ownsNodes = ownsNodes;
        this.writers = Executors.newFixedThreadPool(options.ioThreads(), runnable -> {
            Thread thread = new Thread(runnable, "fac-writer");
            thread.setDaemon(true);
            return thread;
        });
    }

    FacOptions options() {
        return options;
    }

    Placement placement() {
        return placement;
    }

    /** N. */
    int count() {
        return nodes.length();
    }

    /** Node {@code node}, as it is now (repair may have replaced it). */
    ObjectBackend get(int node) {
        return nodes.get(node);
    }

    /** The nodes, in order, as they are now. */
    List<ObjectBackend> all() {
        List<ObjectBackend> all = new ArrayList<>(nodes.length());
        for (int i = 0; i < nodes.length(); i++) {
            all.add(nodes.get(i));
        }
        return Collections.unmodifiableList(all);
    }

    /** Puts {@code replacement} in the place of node {@code node}; later requests to that node go to it. */
    void replace(int node, ObjectBackend replacement) {
        nodes.set(node, replacement);
    }

    /** "node 3 (file:/d3/)", for errors. */
    String name(int node) {
        return "node " + node + " (" + nodes.get(node).uri() + ")";
    }

    /** Runs a node write on the write threads, so that the blocks of a stripe are written in parallel. */
    <T> Future<T> submitWrite(Callable<T> write) {
        return writers.submit(write);
    }

    /**
     * Fails when the store is closed.
     *
     * @throws IllegalStateException if it is
     */
    void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("The FAC backend over " + nodes.length() + " nodes is closed");
        }
    }

    /** Stops the write threads and closes the nodes if they are owned; once, however often it is called. */
    void close() {
        if (closed.compareAndSet(false, true)) {
            writers.shutdownNow();
            if (ownsNodes) {
                for (int i = 0; i < nodes.length(); i++) {
                    nodes.get(i).close();
                }
            }
        }
    }
}
