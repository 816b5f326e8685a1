package io.layoutbench.api.backend;

/**
 * A half-open byte range {@code [offset, offset + length)} of an object.
 *
 * <pre>{@code
 * ByteRange header = ByteRange.of(0, 512);          // [0, 512)
 * ByteRange tail = ByteRange.between(4096, 8192);   // [4096, 8192)
 * }</pre>
 *
 * @param offset first byte, at least 0
 * @param length number of bytes, at least 0
 */
public record ByteRange(long offset, long length) implements Comparable<ByteRange> {

    public ByteRange {
        if (offset < 0) {
            throw new IllegalArgumentException("Byte range offset must be >= 0, got " + offset);
        }
        if (length < 0) {
            throw new IllegalArgumentException("Byte range length must be >= 0, got " + length);
        }
        if (offset + length < 0) {
            throw new IllegalArgumentException("Byte range [" + offset + ", +" + length + ") overflows a long");
        }
    }

    /** The range of {@code length} bytes starting at {@code offset}. */
    public static ByteRange of(long offset, long length) {
        return new ByteRange(offset, length);
    }

    /** The range {@code [start, end)}. */
    public static ByteRange between(long start, long end) {
        if (end < start) {
            throw new IllegalArgumentException("Byte range end " + end + " is before its start " + start);
        }
        return new ByteRange(start, end - start);
    }

    /** One past the last byte. */
    public long end() {
        return offset + length;
    }

    /** Whether the range lies within an object of {@code objectSize} bytes. */
    public boolean fitsIn(long objectSize) {
        return end() <= objectSize;
    }

    /** Whether {@code other} lies wholly inside this range. */
    public boolean contains(ByteRange other) {
        return other.offset >= offset && other.end() <= end();
    }

    /** The smallest range that covers both this range and {@code other}. */
    public ByteRange span(ByteRange other) {
        return between(Math.min(offset, other.offset), Math.max(end(), other.end()));
    }

    /** Number of bytes between this range's end and {@code next}'s start; negative if they overlap. */
    public long gapTo(ByteRange next) {
        return next.offset - end();
    }

    @Override
    public int compareTo(ByteRange other) {
        int byOffset = Long.compare(offset, other.offset);
        return byOffset != 0 ? byOffset : Long.compare(length, other.length);
    }

    /** {@code [offset, end)}, the form used in error messages. */
    @Override
    public String toString() {
        return "[" + offset + ", " + end() + ")";
    }
}
