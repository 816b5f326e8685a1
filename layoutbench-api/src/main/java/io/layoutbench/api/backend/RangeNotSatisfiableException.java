package io.layoutbench.api.backend;

/**
 * A ranged read asked for bytes past the end of the object. The message names the key, the range and the object's
 * size: {@code Cannot read range [1024, 2048) of shard-00003.tar: object is 1500 bytes}.
 *
 * <pre>{@code
 * catch (RangeNotSatisfiableException e) { long size = e.objectSize(); }
 * }</pre>
 */
public class RangeNotSatisfiableException extends StorageException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final ByteRange range;
    private final long objectSize;

    public RangeNotSatisfiableException(String key, ByteRange range, long objectSize) {
        super("Cannot read range " + range + " of " + key + ": object is " + objectSize + " bytes");
        this.key = key;
        this.range = range;
        this.objectSize = objectSize;
    }

    /** The object's key. */
    public String key() {
        return key;
    }

    /** The range that was asked for. */
    public ByteRange range() {
        return range;
    }

    /** The object's actual size in bytes. */
    public long objectSize() {
        return objectSize;
    }
}
