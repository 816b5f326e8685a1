package io.layoutbench.api;

/**
 * Root of every exception layoutbench throws. Unchecked: storage and query failures are reported with what failed,
 * on which object, offset or column, and why, and the caller decides whether to retry.
 *
 * <pre>{@code
 * try {
 *     backend.readRange("shard-00003.tar", ByteRange.of(1024, 1024));
 * } catch (LayoutBenchException e) {
 *     log.warn("read failed: {}", e.getMessage());
 * }
 * }</pre>
 */
public class LayoutBenchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LayoutBenchException(String message) {
        super(message);
    }

    public LayoutBenchException(String message, Throwable cause) {
        super(message, cause);
    }
}
