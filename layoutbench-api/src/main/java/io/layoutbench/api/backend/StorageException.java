package io.layoutbench.api.backend;

import io.layoutbench.api.LayoutBenchException;

/**
 * A storage operation failed. Subclasses say why; the message names the backend, the key and, for ranged reads,
 * the range. Backends translate their client's exceptions into these at their boundary.
 *
 * <pre>{@code
 * catch (StorageException e) {
 *     if (e.isTransient()) { retryLater(); } else { throw e; }
 * }
 * }</pre>
 */
public class StorageException extends LayoutBenchException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether the same request may succeed if tried again (throttling, 5xx, resets, timeouts). */
    public boolean isTransient() {
        return false;
    }
}
