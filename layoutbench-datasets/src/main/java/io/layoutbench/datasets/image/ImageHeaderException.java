package io.layoutbench.datasets.image;

import io.layoutbench.api.LayoutBenchException;

/**
 * An image header could not be read: the file is truncated, malformed or of an unsupported kind. The message names
 * the file (or other source) and the byte offset where reading stopped; both are also available as fields.
 *
 * <pre>{@code
 * try {
 *     ImageHeaders.read(path);
 * } catch (ImageHeaderException e) {
 *     log.warn("skipping {} (offset {}): {}", e.source(), e.offset(), e.getMessage());
 * }
 * }</pre>
 */
public class ImageHeaderException extends LayoutBenchException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final long offset;
    private final String reason;

    /**
     * @param source the file or other source read
     * @param offset byte offset where the problem was found
     * @param reason why reading failed, without the source and offset (they are prepended)
     */
    public ImageHeaderException(String source, long offset, String reason) {
        super("Cannot read image header of " + source + " at offset " + offset + ": " + reason);
        this.source = source;
        this.offset = offset;
        this.reason = reason;
    }

    public ImageHeaderException(String source, long offset, String reason, Throwable cause) {
        super("Cannot read image header of " + source + " at offset " + offset + ": " + reason, cause);
        this.source = source;
        this.offset = offset;
        this.reason = reason;
    }

    /** The file or other source that was read. */
    public String source() {
        return source;
    }

    /** The byte offset where reading stopped. */
    public long offset() {
        return offset;
    }

    /** Why reading failed, without the source and offset. */
    public String reason() {
        return reason;
    }
}
