package io.layoutbench.api.layout;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.metrics.RequestKind;

/**
 * One request a query will send: its kind, object and byte range. Plans are what the cost model prices before a
 * query runs.
 *
 * <pre>{@code
 * PlannedRequest get = new PlannedRequest(RequestKind.RANGE_GET, "l2/shard-000003.tar", ByteRange.of(512, 110_000));
 * }</pre>
 *
 * @param kind  request kind
 * @param key   object key
 * @param range bytes read (for GET, the whole object)
 */
public record PlannedRequest(RequestKind kind, String key, ByteRange range) {
    public PlannedRequest {
        requireNonNull(kind, "kind is null");
        requireNonNull(key, "key is null");
        requireNonNull(range, "range is null");
    }

    /** Bytes this request transfers. */
    public long bytes() {
        return range.length();
    }
}
