package io.layoutbench.api.backend;

/**
 * The object does not exist.
 *
 * <pre>{@code
 * try { backend.size("missing.jpg"); } catch (ObjectNotFoundException e) { ... }
 * }</pre>
 */
public class ObjectNotFoundException extends StorageException {
    private static final long serialVersionUID = 1L;

    public ObjectNotFoundException(String message) {
        super(message);
    }

    public ObjectNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
