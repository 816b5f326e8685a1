package io.layoutbench.fusion.cluster;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.StorageException;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Semaphore;

import org.apache.arrow.memory.ArrowBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bytes of one put as they arrive at a node, held until the last one is there, so that the node's backend is
 * written only with a whole object: in a heap array when the put announces at most the node's memory limit and the
 * node's memory budget (shared by all puts in progress) has room for it, else in a temporary file in the node's spool
 * directory, deleted on {@link #close()}. The array grows as bytes arrive, never beyond what arrived (doubling, at
 * most to the announced length): a client announcing a large put and sending little costs budget, not memory.
 *
 * <p>Not thread-safe: one put's bytes arrive in order on one thread.
 */
final class PutSpool implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PutSpool.class);
    private static final int FIRST_CAPACITY = 64 << 10;

    private final String key;
    private final long expected;
    private final Semaphore budget;
    private byte[] memory;
    private final Path file;
    private final OutputStream out;
    private long received;
    private boolean released;

    private PutSpool(String key, long expected, Semaphore budget, Path file, OutputStream out) {
        this.key = key;
        this.expected = expected;
        this.budget = budget;
        this.memory = budget == null ? null : new byte[(int) Math.min(expected, FIRST_CAPACITY)];
        this.file = file;
        this.out = out;
    }

    /**
     * A spool for a put of {@code expected} bytes as {@code key}: in memory when that is at most {@code memoryLimit}
     * bytes and {@code budget} has as many permits (one a byte, taken until {@link #close()}), else in a file in
     * {@code directory}.
     */
    static PutSpool create(String key, long expected, long memoryLimit, Semaphore budget, Path directory) {
        if (expected <= memoryLimit && budget.tryAcquire((int) expected)) {
            return new PutSpool(key, expected, budget, null, null);
        }
        Path file = null;
        try {
            file = Files.createTempFile(directory, "put-", ".spool");
            return new PutSpool(key, expected, null, file, Files.newOutputStream(file));
        } catch (IOException e) {
            deleteQuietly(file);
            throw new StorageException("Cannot spool the put of " + key + " (" + expected + " bytes) in " + directory
                    + ": " + e, e);
        }
    }

    /** Whether this spool holds its bytes in memory (else in a file). */
    boolean inMemory() {
        return budget != null;
    }

    /**
     * Appends {@code length} bytes of {@code source} from {@code offset}.
     *
     * @throws IllegalArgumentException if that is more than the put announced
     */
    void write(ArrowBuf source, long offset, int length) {
        if (length > expected - received) {
            throw new IllegalArgumentException("The put of " + key + " announced " + expected
                    + " bytes, but the client sent more (" + (received + length) + " so far)");
        }
        if (memory != null) {
            int needed = (int) (received + length);
            if (needed > memory.length) {
                memory = Arrays.copyOf(memory, (int) Math.min(expected, Math.max(needed, 2L * memory.length)));
            }
            source.getBytes(offset, memory, (int) received, length);
        } else {
            try {
                source.getBytes(offset, out, length);
            } catch (IOException e) {
                throw new StorageException("Cannot spool the put of " + key + " in " + file + ": " + e, e);
            }
        }
        received += length;
    }

    /** The bytes received so far. */
    long received() {
        return received;
    }

    /** Stores the spooled bytes, all {@code expected} of them, as {@code key} in {@code backend}. */
    void storeIn(ObjectBackend backend) {
        if (received != expected) {
            throw new IllegalArgumentException("The put of " + key + " announced " + expected
                    + " bytes, but the client sent " + received + " and ended the stream");
        }
        if (memory != null) {
            backend.put(key, memory.length == received ? memory : Arrays.copyOf(memory, (int) received));
            return;
        }
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot finish spooling the put of " + key + " in " + file, e);
        }
        backend.put(key, file);
    }

    /** Deletes the spool file, if any, or gives the memory back to the budget. */
    @Override
    public void close() {
        if (budget != null && !released) {
            released = true;
            memory = null;
            budget.release((int) expected);
        }
        if (file != null) {
            try {
                out.close();
            } catch (IOException e) {
                // the file is deleted next; nothing was stored from it
            }
            deleteQuietly(file);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                LOG.warn("Cannot delete the spool file {}; it holds no object and may be removed", file, e);
            }
        }
    }
}
