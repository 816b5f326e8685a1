package io.layoutbench.fusion.cluster;

import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Releasing the Arrow memory of a node server or client once its calls are done, or given up on. */
final class ArrowMemory {

    private static final Logger LOG = LoggerFactory.getLogger(ArrowMemory.class);

    private ArrowMemory() {
    }

    /**
     * Closes {@code allocator}. Memory still held after every call ended ({@code drained}) is a leak, and an error
     * naming {@code owner}; memory held by calls still running (cancelled, they did not end) is left to them, and
     * logged with {@code stillRunning}, which says how they were stopped.
     *
     * @throws IllegalStateException naming {@code owner} when {@code drained} and memory is still held
     */
    static void release(BufferAllocator allocator, boolean drained, String owner, String stillRunning) {
        try {
            allocator.close();
        } catch (IllegalStateException e) {
            if (drained) {
                throw new IllegalStateException(owner + " still holds Arrow memory after every call ended: "
                        + e.getMessage(), e);
            }
            LOG.warn("{}: {}; the Arrow memory they hold is left to them: {}", owner, stillRunning, e.getMessage());
        }
    }
}
