package io.layoutbench.parquet;

/**
 * How a {@link BackendInputFile} turns reads into requests: how much of the object's tail to fetch for the footer,
 * how much a small stream read fetches ahead, and how close two ranges must be to be fetched in one request.
 *
 * <pre>{@code
 * FetchOptions options = FetchOptions.defaults().withMergeGap(1 << 20);   // merge ranges up to 1 MiB apart
 * BackendInputFile file = new BackendInputFile(backend, "l3/part-00000.parquet", options);
 * }</pre>
 *
 * @param tailSize       bytes fetched from the end of the object in the first footer read; a footer (with, when it
 *                       fits, the page indexes written just before it) no larger than this costs one request
 * @param bufferSize     a stream read smaller than this fetches this many bytes from its position, so parsers that
 *                       read a few bytes at a time do not send a request each
 * @param mergeGap       ranges at most this many bytes apart are fetched in one request, the gap included
 * @param maxMergedSize  ranges are not merged into a request longer than this; a single longer range is still
 *                       fetched whole, in one request
 */
public record FetchOptions(int tailSize, int bufferSize, long mergeGap, long maxMergedSize) {

    /** 64 KiB: the footer of a metadata table of a few hundred row groups fits. */
    public static final int DEFAULT_TAIL_SIZE = 64 << 10;
    /** 64 KiB. */
    public static final int DEFAULT_BUFFER_SIZE = 64 << 10;
    /** 128 KiB, the minimum seek of Hadoop S3A's vectored reads. */
    public static final long DEFAULT_MERGE_GAP = 128 << 10;
    /** 16 MiB, the top of the 8-16 MB range AWS suggests for ranged GETs. */
    public static final long DEFAULT_MAX_MERGED_SIZE = 16 << 20;

    private static final FetchOptions DEFAULTS =
            new FetchOptions(DEFAULT_TAIL_SIZE, DEFAULT_BUFFER_SIZE, DEFAULT_MERGE_GAP, DEFAULT_MAX_MERGED_SIZE);

    public FetchOptions {
        if (tailSize < 8) {
            throw new IllegalArgumentException("tailSize must be at least 8 bytes (footer length and magic), got "
                    + tailSize);
        }
        if (bufferSize < 1) {
            throw new IllegalArgumentException("bufferSize must be positive, got " + bufferSize);
        }
        if (mergeGap < 0) {
            throw new IllegalArgumentException("mergeGap must be >= 0, got " + mergeGap);
        }
        if (maxMergedSize < 1) {
            throw new IllegalArgumentException("maxMergedSize must be positive, got " + maxMergedSize);
        }
    }

    /** 64 KiB tail, 64 KiB buffer, 128 KiB merge gap, 16 MiB largest merged request. */
    public static FetchOptions defaults() {
        return DEFAULTS;
    }

    /** These options with another {@link #tailSize}. */
    public FetchOptions withTailSize(int tailSize) {
        return new FetchOptions(tailSize, bufferSize, mergeGap, maxMergedSize);
    }

    /** These options with another {@link #bufferSize}. */
    public FetchOptions withBufferSize(int bufferSize) {
        return new FetchOptions(tailSize, bufferSize, mergeGap, maxMergedSize);
    }

    /** These options with another {@link #mergeGap}; 0 merges only ranges that touch or overlap. */
    public FetchOptions withMergeGap(long mergeGap) {
        return new FetchOptions(tailSize, bufferSize, mergeGap, maxMergedSize);
    }

    /** These options with another {@link #maxMergedSize}. */
    public FetchOptions withMaxMergedSize(long maxMergedSize) {
        return new FetchOptions(tailSize, bufferSize, mergeGap, maxMergedSize);
    }
}
