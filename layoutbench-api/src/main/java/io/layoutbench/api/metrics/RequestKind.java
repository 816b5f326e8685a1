package io.layoutbench.api.metrics;

/**
 * The kinds of request an object store is billed and timed for.
 *
 * <pre>{@code
 * metrics.onRequestStarted(RequestKind.RANGE_GET);
 * }</pre>
 */
public enum RequestKind {
    /** GET of a whole object. */
    GET,
    /** GET of a byte range of an object. */
    RANGE_GET,
    /** HEAD: size or existence of an object. */
    HEAD,
    /** PUT of an object or of one part of a multipart upload. */
    PUT,
    /** One page of a listing. */
    LIST,
    /** Delete of one object or one batch. */
    DELETE;

    /** Whether the request is priced as a GET ($0.0004 per 1,000 on S3 Standard) rather than a PUT. */
    public boolean isGetClass() {
        return this == GET || this == RANGE_GET || this == HEAD;
    }
}
