package io.layoutbench.api.backend;

/**
 * Bytes read are not what was written: a checksum mismatch, a truncated or malformed shard, object or Parquet
 * file. The message names the object, the offset or sample, and what was wrong. Not transient.
 *
 * <pre>{@code
 * catch (CorruptDataException e) { quarantine(e.getMessage()); }
 * }</pre>
 */
public class CorruptDataException extends StorageException {
    private static final long serialVersionUID = 1L;

    public CorruptDataException(String message) {
        super(message);
    }

    public CorruptDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
