package io.layoutbench.api.backend;

/**
 * The store refused the request for lack of permission (HTTP 403). Not transient.
 *
 * <pre>{@code
 * catch (AccessDeniedException e) { System.err.println("check the bucket policy: " + e.getMessage()); }
 * }</pre>
 */
public class AccessDeniedException extends StorageException {
    private static final long serialVersionUID = 1L;

    public AccessDeniedException(String message, Throwable cause) {
        super(message, cause);
    }
}
