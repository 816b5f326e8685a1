package io.layoutbench.api.backend;

/**
 * A failure that may pass if the request is tried again: a 5xx, a connection reset, a timeout, or throttling.
 * Backends retry these with backoff before they surface.
 *
 * <pre>{@code
 * throw new TransientStorageException("GET s3://bucket/shard-0.tar [0, 1024): 503 SlowDown", cause, true);
 * }</pre>
 */
public class TransientStorageException extends StorageException {
    private static final long serialVersionUID = 1L;

    private final boolean throttled;

    public TransientStorageException(String message, Throwable cause, boolean throttled) {
        super(message, cause);
        this.throttled = throttled;
    }

    public TransientStorageException(String message) {
        this(message, null, false);
    }

    /** Whether the store asked the client to slow down (HTTP 503 SlowDown, 429). */
    public boolean isThrottled() {
        return throttled;
    }

    @Override
    public boolean isTransient() {
        return true;
    }
}
